package dev.rekey.jobs.backfill;

import dev.rekey.jobs.read.PackedCells;
import dev.rekey.rowkey.DecodedKey;
import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.FieldType;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Source key → target key: decode with the source layout, encode the target layout's fields with
 * the decoded values (pure, stateless, Serializable). Which target fields come from where is
 * checked once up front by {@link #check}.
 */
public final class Rekeyer implements Serializable {
  private static final long serialVersionUID = 1L;

  private final KeyLayout source;
  private final KeyLayout target;

  /**
   * Per target field, the source field it is copied from (-1: derived sub-bucket, or absent — see
   * check()).
   */
  private final int[] sourceIndex;

  private final int targetTimeIndex;

  /**
   * The target has the source's fields, in order, encoded alike (the salting migration): its key is
   * the source key's field bytes under a new prefix, with nothing encoded again.
   */
  private final boolean sameFields;

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
    this.source = source;
    this.target = target;
    this.sourceIndex =
        target.fields().stream()
            .mapToInt(t -> t.type() == FieldType.SUB_BUCKET ? -1 : source.fieldIndex(t.name()))
            .toArray();
    this.targetTimeIndex = target.timeField().map(target::fieldIndex).orElse(-1);
    this.sameFields = target.sameFieldsAs(source);
  }

  /**
   * Why the target layout cannot be built from the source layout's fields, if it cannot: the source
   * must be decodable, and every target field (except derived sub-buckets) must exist in the source
   * with the same value type.
   */
  public Optional<String> check() {
    if (!source.decodable()) {
      return Optional.of(
          String.format(
              "source layout %s (%s) cannot be decoded: a hashed key cannot be turned back into"
                  + " fields",
              source.name(), source.prefix()));
    }
    for (FieldSpec t : target.fields()) {
      if (t.type() == FieldType.SUB_BUCKET) {
        continue;
      }
      FieldSpec s = source.field(t.name());
      if (s == null) {
        return Optional.of(
            String.format(
                "target layout %s needs field '%s', which source layout %s does not have (source"
                    + " fields: %s)",
                target.name(), t.name(), source.name(), names(source)));
      }
      if (valueType(s.type()) != valueType(t.type())
          || (t.type() == FieldType.BYTES && s.length() != t.length())) {
        return Optional.of(
            String.format(
                "field '%s' is %s in source layout %s but %s in target layout %s",
                t.name(), describe(s), source.name(), describe(t), target.name()));
      }
    }
    return Optional.empty();
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

  public static final long NO_TIME = Long.MIN_VALUE;

  /**
   * As {@link #rekey}, also returning the key's time field, so that counting rows per hour does not
   * decode the new key again.
   */
  public Rekeyed rekeyWithTime(byte[] sourceKey) {
    DecodedKey d = source.decode(sourceKey); // checks the key whole, on either path
    Object time;
    byte[] key;
    if (sameFields) {
      time = targetTimeIndex < 0 ? null : d.get(targetTimeIndex);
      key = target.encodeFromKey(source, sourceKey, d);
    } else {
      Object[] values = new Object[sourceIndex.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = sourceIndex[i] < 0 ? null : d.get(sourceIndex[i]);
      }
      time = targetTimeIndex < 0 ? null : values[targetTimeIndex];
      key = target.encode(values);
    }
    // a salt byte or a terminator can push a source key at HBase's limit over it: the HFile writer
    // would abort the job
    if (key.length > HConstants.MAX_ROW_LENGTH) {
      throw new IllegalArgumentException(
          String.format(
              "target key of %d bytes is over HBase's row key limit of %d bytes",
              key.length, HConstants.MAX_ROW_LENGTH));
    }
    return new Rekeyed(key, time instanceof Long l ? l : NO_TIME);
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
    return source;
  }

  public KeyLayout target() {
    return target;
  }

  private static String names(KeyLayout l) {
    return l.fields().stream().map(FieldSpec::name).toList().toString();
  }

  private static String describe(FieldSpec f) {
    return f.type().fileName() + (f.type() == FieldType.BYTES ? "(" + f.length() + ")" : "");
  }

  private static Class<?> valueType(FieldType t) {
    return switch (t) {
      case STRING -> String.class;
      case BYTES -> byte[].class;
      case INT, SUB_BUCKET -> Integer.class;
      case LONG, REVERSED_LONG -> Long.class;
    };
  }
}
