package dev.rekey.jobs.reconcile;

import dev.rekey.common.DecodedRow;
import dev.rekey.common.RowDecoder;
import dev.rekey.jobs.compare.RowPlacer;
import dev.rekey.rowkey.KeyLayout;
import java.util.List;
import org.apache.hadoop.hbase.Cell;

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
  private final TimeBuckets buckets;
  private final boolean digest;

  /** Position of the time field in the decoded key (-1 for cell time). */
  private final int timeIndex;

  public RowClassifier(
      KeyLayout layout,
      NaturalKey naturalKey,
      TimeSource time,
      TimeBuckets buckets,
      boolean digest) {
    this.layout = layout;
    this.decoder = new RowDecoder(layout);
    this.naturalKey = naturalKey;
    this.time = time;
    this.buckets = buckets;
    this.digest = digest;
    this.timeIndex = time.cell() ? -1 : layout.fieldIndex(time.field());
  }

  /** With {@code on}, each row's natural key and digest are taken; without, its bucket only. */
  public RowClassifier withDigest(boolean on) {
    return new RowClassifier(layout, naturalKey, time, buckets, on);
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
      try {
        if (digest) {
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
    }

    /** The row's record (its key as given to {@link #start}, not copied). */
    @Override
    public RowRecord finish() {
      if (undecodable != null) {
        return new RowRecord(rowKey, null, RowRecord.UNDECODABLE, 0, cells, null, undecodable);
      }
      long t = time.cell() ? newest : keyTime;
      int bucket = cells == 0 ? RowRecord.OUTSIDE : buckets.indexOf(t);
      if (bucket < 0) {
        return new RowRecord(rowKey, nk, RowRecord.OUTSIDE, t, cells, null, null);
      }
      Digest128 d = digest ? digester.finish() : null;
      return new RowRecord(rowKey, nk, bucket, t, cells, d, null);
    }
  }

  public KeyLayout layout() {
    return layout;
  }
}
