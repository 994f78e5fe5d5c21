package dev.rekey.jobs.backfill.write;

import dev.rekey.read.PackedCells;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRekeyer;
import java.io.Serializable;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Source key → target key ({@link KeyRekeyer}, the key library's, which the replication endpoint
 * uses too), held to the target's cell size limit (pure, stateless, Serializable). Which target
 * fields come from where is checked once up front by {@link #check}.
 */
public final class Rekeyer implements Serializable {
  private static final long serialVersionUID = 1L;

  private final KeyRekeyer keys;

  /**
   * The largest cell the target takes ({@code hbase.client.keyvalue.maxsize}); larger cells would
   * load but could never be written again by a client.
   */
  private final long maxCellBytes;

  /** The client's default {@code hbase.client.keyvalue.maxsize}: 10 MB. */
  public static final long DEFAULT_MAX_CELL_BYTES = 10_485_760L;

  /** A rekeyer held to the cell size limit the target cluster's conf sets. */
  public static Rekeyer forCluster(KeyLayout source, KeyLayout target, Configuration hbaseConf) {
    return new Rekeyer(
        source, target, hbaseConf.getLong("hbase.client.keyvalue.maxsize", DEFAULT_MAX_CELL_BYTES));
  }

  public Rekeyer(KeyLayout source, KeyLayout target) {
    this(source, target, DEFAULT_MAX_CELL_BYTES);
  }

  /** With the target's cell size limit ({@code hbase.client.keyvalue.maxsize}; 0 or less: none). */
  public Rekeyer(KeyLayout source, KeyLayout target, long maxCellBytes) {
    this.maxCellBytes = maxCellBytes <= 0 ? Long.MAX_VALUE : maxCellBytes;
    this.keys = new KeyRekeyer(source, target);
  }

  /** {@link KeyRekeyer#check}. */
  public Optional<String> check() {
    return keys.check();
  }

  /**
   * The target key; throws IllegalArgumentException (KeyDecodeException / KeyEncodeException) with
   * the reason.
   */
  public byte[] rekey(byte[] sourceKey) {
    return rekeyWithTime(sourceKey).key();
  }

  /**
   * A target key and the value of the target layout's time field in it ({@link #NO_TIME} if it has
   * none).
   */
  public record Rekeyed(byte[] key, long time) {}

  public static final long NO_TIME = KeyRekeyer.NO_TIME;

  /**
   * As {@link #rekey}, also returning the key's time field, so that counting rows per hour does not
   * decode the new key again.
   */
  public Rekeyed rekeyWithTime(byte[] sourceKey) {
    KeyRekeyer.Rekeyed r = keys.rekeyWithTime(sourceKey);
    return new Rekeyed(r.key(), r.time());
  }

  /**
   * Why a row's cells cannot go under {@code targetKey}, if one cannot: a cell whose KeyValue under
   * the new key is over the target's cell size limit (the row is then quarantined whole, never
   * loaded without that cell). Null when every cell fits.
   */
  public String oversizedCell(byte[] targetKey, Cell[] cells) {
    for (Cell c : cells) {
      long size = PackedCells.keyValueLength(targetKey.length, c);
      if (size > maxCellBytes) {
        return String.format(
            "cell %s:%s@%d is %d bytes under the target key, over hbase.client.keyvalue.maxsize"
                + " (%d bytes)",
            Bytes.toStringBinary(CellUtil.cloneFamily(c)),
            Bytes.toStringBinary(CellUtil.cloneQualifier(c)),
            c.getTimestamp(),
            size,
            maxCellBytes);
      }
    }
    return null;
  }

  public KeyLayout source() {
    return keys.source();
  }

  public KeyLayout target() {
    return keys.target();
  }
}
