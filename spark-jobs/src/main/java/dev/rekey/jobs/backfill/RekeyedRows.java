package dev.rekey.jobs.backfill;

import dev.rekey.rowkey.Hex;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.util.LongAccumulator;

/**
 * The map side over one input partition: each source Result → its target key and time, with its
 * cells as read; the consumer copies them under the target key ({@link PackedRow#pack}: family,
 * qualifier, timestamp, type and value kept) before asking for the next row, so nothing is kept
 * pointing into the reader's buffers. A row that arrives as several consecutive Results is counted
 * once. Undecodable keys go to the quarantine writer. Lazy.
 */
final class RekeyedRows implements Iterator<RekeyedRows.Row> {
  /**
   * One source row re-keyed: its cells as read (their own row is the source key; they go under
   * targetKey), or, after the sort shuffle, already under targetKey ({@code keyed}).
   */
  record Row(byte[] sourceKey, byte[] targetKey, long time, Cell[] cells, boolean keyed) {}

  private final Iterator<Result> in;
  private final Rekeyer rekeyer;
  private final QuarantineWriter quarantine;
  private final LongAccumulator read;
  private final LongAccumulator quarantined;
  private final LongAccumulator filtered;
  private final Retention retention;
  private final LongAccumulator olderVersions;
  private final LongAccumulator expired;
  private final long[] dropped = new long[2];
  private byte[] lastSource;
  private byte[] lastTarget;
  private long lastTime;
  private boolean lastQuarantined;
  private Row next;
  private boolean closed;

  RekeyedRows(
      Iterator<Result> in,
      Rekeyer rekeyer,
      QuarantineWriter quarantine,
      LongAccumulator read,
      LongAccumulator quarantined,
      LongAccumulator filtered,
      Retention retention,
      LongAccumulator olderVersions,
      LongAccumulator expired) {
    this.in = in;
    this.rekeyer = rekeyer;
    this.quarantine = quarantine;
    this.read = read;
    this.quarantined = quarantined;
    this.filtered = filtered;
    this.retention = retention;
    this.olderVersions = olderVersions;
    this.expired = expired;
  }

  @Override
  public boolean hasNext() {
    while (next == null && in.hasNext()) {
      next = process(in.next());
    }
    if (next == null && !closed) {
      closed = true;
      olderVersions.add(dropped[0]);
      expired.add(dropped[1]);
      quarantine.close();
    }
    return next != null;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row r = next;
    next = null;
    return r;
  }

  private Row process(Result r) {
    byte[] src = r.getRow();
    if (src == null) {
      return null;
    }
    boolean continuation = lastSource != null && Arrays.equals(lastSource, src);
    if (!continuation) {
      lastSource = src.clone();
      read.add(1);
      try {
        Rekeyer.Rekeyed k = rekeyer.rekeyWithTime(src);
        lastTarget = k.key();
        lastTime = k.time();
        lastQuarantined = false;
      } catch (IllegalArgumentException e) {
        lastTarget = null;
        lastQuarantined = true;
        quarantined.add(1);
        quarantine.add(Hex.of(src), e.getMessage());
      }
      if (r.isEmpty() && !lastQuarantined) {
        filtered.add(1);
      }
    }
    if (!lastQuarantined && !r.isEmpty()) {
      // rows arrive whole (WholeRows), so this is the row's only part and nothing of it was passed
      // on
      String tooBig = rekeyer.oversizedCell(lastTarget, r.rawCells());
      if (tooBig != null) {
        lastQuarantined = true;
        quarantined.add(1);
        quarantine.add(Hex.of(lastSource), tooBig);
      }
    }
    if (lastQuarantined || r.isEmpty()) {
      return null;
    }
    return new Row(lastSource, lastTarget, lastTime, retention.trim(r.rawCells(), dropped), false);
  }
}
