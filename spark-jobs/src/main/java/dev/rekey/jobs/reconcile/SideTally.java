package dev.rekey.jobs.reconcile;

import java.io.Serializable;

/**
 * Mutable per-partition tally of one side: rows, cells and digest sums per bucket, and the rows
 * outside the range or undecodable. Dense arrays (buckets are at most {@link
 * TimeBuckets#MAX_BUCKETS}); merged by addition.
 */
public final class SideTally implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long[] rows;
  private final long[] cells;
  private final long[] hi;
  private final long[] lo;
  private long outside;
  private long undecodable;

  public SideTally(int buckets) {
    rows = new long[buckets];
    cells = new long[buckets];
    hi = new long[buckets];
    lo = new long[buckets];
  }

  public SideTally add(RowRecord r) {
    if (r.bucket() == RowRecord.UNDECODABLE) {
      undecodable++;
    } else if (r.bucket() == RowRecord.OUTSIDE) {
      outside++;
    } else {
      int b = r.bucket();
      rows[b]++;
      cells[b] += r.cells();
      if (r.digest() != null) {
        hi[b] += r.digest().hi();
        lo[b] += r.digest().lo();
      }
    }
    return this;
  }

  public SideTally merge(SideTally o) {
    for (int i = 0; i < rows.length; i++) {
      rows[i] += o.rows[i];
      cells[i] += o.cells[i];
      hi[i] += o.hi[i];
      lo[i] += o.lo[i];
    }
    outside += o.outside;
    undecodable += o.undecodable;
    return this;
  }

  public TimeBucketStats bucket(int i) {
    return new TimeBucketStats(rows[i], cells[i], new Digest128(hi[i], lo[i]));
  }

  public long inRange() {
    long n = 0;
    for (long r : rows) {
      n += r;
    }
    return n;
  }

  public int inRangeBuckets() {
    return rows.length;
  }

  public long outside() {
    return outside;
  }

  public long undecodable() {
    return undecodable;
  }

  /** Every row read: in range + outside + undecodable. */
  public long read() {
    return inRange() + outside + undecodable;
  }
}
