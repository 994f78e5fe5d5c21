package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.common.DecodedRow;
import dev.rekey.jobs.common.RowDecoder;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Turns one whole row (a Result) of one side into a {@link RowRecord}: decodes the key with the
 * side's layout (the shared {@link RowDecoder}), takes the row's time from the key field or its
 * newest cell, buckets it, and (when asked) digests its content. Serializable (Spark ships it to
 * executors); not thread-safe within a task — the digester is created per partition.
 */
public final class RowClassifier implements Serializable {
  private static final long serialVersionUID = 1L;

  private final KeyLayout layout;
  private final RowDecoder decoder;
  private final NaturalKey naturalKey;
  private final TimeSource time;
  private final Buckets buckets;
  private final boolean digest;
  private final boolean cellText;

  /** Position of the time field in the decoded key (-1 for cell time). */
  private final int timeIndex;

  private transient RowDigest digester;

  public RowClassifier(
      KeyLayout layout, NaturalKey naturalKey, TimeSource time, Buckets buckets, boolean digest) {
    this(layout, naturalKey, time, buckets, digest, false);
  }

  private RowClassifier(
      KeyLayout layout,
      NaturalKey naturalKey,
      TimeSource time,
      Buckets buckets,
      boolean digest,
      boolean cellText) {
    this.cellText = cellText;
    this.layout = layout;
    this.decoder = new RowDecoder(layout);
    this.naturalKey = naturalKey;
    this.time = time;
    this.buckets = buckets;
    this.digest = digest;
    this.timeIndex = time.cell() ? -1 : layout.fieldIndex(time.field());
  }

  public RowClassifier withDigest(boolean on) {
    return new RowClassifier(layout, naturalKey, time, buckets, on, cellText);
  }

  /**
   * For the drill-down: digests on, and each row's cells kept as text so a sample can show what
   * differs.
   */
  public RowClassifier forDrillDown() {
    return new RowClassifier(layout, naturalKey, time, buckets, true, true);
  }

  public RowRecord classify(Result r) {
    return classify(r.getRow(), r.rawCells());
  }

  public RowRecord classify(byte[] rowKey, Cell[] cells) {
    byte[] nk = null;
    long keyTime = 0;
    try {
      if (digest || cellText) {
        // the shared decoder, key only: the cells are digested straight from the Result below,
        // without copies
        DecodedRow key = decoder.decode(rowKey, null);
        nk = naturalKey.encode(key.fieldMap(decoder.fieldNames()));
        if (timeIndex >= 0) {
          keyTime = ((Number) key.field(timeIndex)).longValue();
        }
      } else if (timeIndex >= 0) {
        // a counts pass needs only the key checked, its time and the cell count: no other field
        // is built
        keyTime = ((Number) layout.checkedField(rowKey, timeIndex)).longValue();
      } else {
        decoder.check(rowKey);
      }
    } catch (IllegalArgumentException e) {
      return new RowRecord(
          rowKey,
          null,
          RowRecord.UNDECODABLE,
          0,
          cells == null ? 0 : cells.length,
          null,
          e.getMessage(),
          null);
    }
    int n = cells == null ? 0 : cells.length;
    long t;
    if (time.cell()) {
      t = Long.MIN_VALUE;
      for (int i = 0; i < n; i++) {
        t = Math.max(t, cells[i].getTimestamp());
      }
    } else {
      t = keyTime;
    }
    int bucket = n == 0 ? RowRecord.OUTSIDE : buckets.indexOf(t);
    if (bucket < 0) {
      return new RowRecord(rowKey, nk, RowRecord.OUTSIDE, t, n, null, null, null);
    }
    Digest128 d = null;
    if (digest) {
      if (digester == null) {
        digester = new RowDigest();
      }
      digester.begin(nk);
      for (int i = 0; i < n; i++) {
        digester.cell(cells[i]);
      }
      d = digester.finish();
    }
    return new RowRecord(rowKey, nk, bucket, t, n, d, null, cellText ? cellText(cells) : null);
  }

  /**
   * {@code d:v@1764374400000=000000000000002a}; values longer than 32 bytes are cut with their
   * length.
   */
  static List<String> cellText(Cell[] cells) {
    List<String> out = new ArrayList<>(cells == null ? 0 : cells.length);
    if (cells == null) {
      return out;
    }
    for (Cell c : cells) {
      byte[] v = CellUtil.cloneValue(c);
      String value =
          v.length <= 32 ? Hex.of(v) : Hex.of(Arrays.copyOf(v, 32)) + "...(" + v.length + " bytes)";
      out.add(
          Bytes.toStringBinary(CellUtil.cloneFamily(c))
              + ":"
              + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
              + "@"
              + c.getTimestamp()
              + "="
              + value);
    }
    return out;
  }

  public KeyLayout layout() {
    return layout;
  }
}
