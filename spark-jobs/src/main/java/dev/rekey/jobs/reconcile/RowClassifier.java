package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.common.DecodedRow;
import dev.rekey.jobs.common.RowDecoder;
import dev.rekey.jobs.compare.RowPlacer;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Turns one whole row of one side, streamed in as cells ({@link StreamedRow}), into a {@link
 * RowRecord}: decodes the key with the side's layout (the shared {@link RowDecoder}), takes the
 * row's time from the key field or its newest cell, buckets it, and (when asked) digests its
 * content. Serializable (Spark ships it to executors); not thread-safe within a task — the digester
 * is created per partition. The natural-key compare places rows with it ({@link RowPlacer}).
 */
public final class RowClassifier implements RowPlacer {
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

  /** A row classified as its cells stream in (one per task: it holds the row's state). */
  @Override
  public StreamedRow streamed() {
    return new StreamedRow();
  }

  /**
   * One row at a time: {@link #start} with its key, {@link #cell} per cell in HBase order, {@link
   * #finish}. The key is decoded once, the cells are counted, timed and digested as they pass, none
   * kept.
   */
  public final class StreamedRow implements RowPlacer.Streamed {
    private RowDigest digester;
    private byte[] rowKey;
    private byte[] nk;
    private long keyTime;
    private String undecodable; // why the key does not decode, or null
    private int cells;
    private long newest;
    private List<String> text; // the cells as text, for a drill-down's samples (else null)

    private final NaturalKey.Encoder keyEncoder = naturalKey.encoder(decoder.fieldNames());

    private StreamedRow() {}

    @Override
    public void start(byte[] key) {
      rowKey = key;
      nk = null;
      keyTime = 0;
      undecodable = null;
      cells = 0;
      newest = Long.MIN_VALUE;
      text = cellText ? new ArrayList<>() : null;
      try {
        if (digest || cellText) {
          // the shared decoder, key only: the cells are digested as they pass, without copies
          DecodedRow decoded = decoder.decode(key, List.of());
          nk = keyEncoder.encode(decoded);
          if (timeIndex >= 0) {
            keyTime = ((Number) decoded.field(timeIndex)).longValue();
          }
        } else if (timeIndex >= 0) {
          // a counts pass needs only the key checked, its time and the cell count: no other field
          // is built
          keyTime = ((Number) layout.checkedField(key, timeIndex)).longValue();
        } else {
          decoder.check(key);
        }
      } catch (IllegalArgumentException e) {
        undecodable = e.getMessage();
        return;
      }
      if (digest) {
        if (digester == null) {
          digester = new RowDigest();
        }
        digester.begin(nk);
      }
    }

    @Override
    public void cell(Cell c) {
      cells++;
      newest = Math.max(newest, c.getTimestamp());
      if (digest && undecodable == null) {
        digester.cell(c);
      }
      if (text != null) {
        text.add(cellText(c));
      }
    }

    /** The row's record (its key as given to {@link #start}, not copied). */
    @Override
    public RowRecord finish() {
      if (undecodable != null) {
        return new RowRecord(
            rowKey, null, RowRecord.UNDECODABLE, 0, cells, null, undecodable, null);
      }
      long t = time.cell() ? newest : keyTime;
      int bucket = cells == 0 ? RowRecord.OUTSIDE : buckets.indexOf(t);
      if (bucket < 0) {
        return new RowRecord(rowKey, nk, RowRecord.OUTSIDE, t, cells, null, null, null);
      }
      Digest128 d = digest ? digester.finish() : null;
      return new RowRecord(rowKey, nk, bucket, t, cells, d, null, text);
    }
  }

  /**
   * {@code d:v@1764374400000=000000000000002a}; values longer than 32 bytes are cut with their
   * length.
   */
  static String cellText(Cell c) {
    byte[] v = CellUtil.cloneValue(c);
    String value =
        v.length <= 32 ? Hex.of(v) : Hex.of(Arrays.copyOf(v, 32)) + "...(" + v.length + " bytes)";
    return Bytes.toStringBinary(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
        + "@"
        + c.getTimestamp()
        + "="
        + value;
  }

  public KeyLayout layout() {
    return layout;
  }
}
