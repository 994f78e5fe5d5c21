package dev.rekey.jobs.backfill.write;

import dev.rekey.jobs.backfill.plan.Retention;
import dev.rekey.rowkey.Hex;
import org.apache.hadoop.hbase.Cell;

/**
 * One task's re-keying of source rows as they stream past ({@link StreamRekeyer}): each row counted
 * as read once, then quarantined (its key cannot be decoded, or a cell would be over the size limit
 * under its target key), counted as filtered (no cells), or passed on with the cells its target
 * families keep ({@link Retention#trim}). Made in the task; {@link #close} adds what it dropped to
 * the counters.
 */
public final class RowRekeyer {
  /**
   * One source row re-keyed: its source key, its target key and that key's time field ({@link
   * Rekeyer#NO_TIME} if none), and the cells the target keeps, already under the target key (copied
   * there as they streamed past, or unpacked after the sort shuffle).
   */
  public record Rekeyed(byte[] sourceKey, byte[] targetKey, long time, Cell[] cells) {}

  private final RowCounters counters;
  private final QuarantineWriter quarantine;
  private final long[] dropped = new long[2];
  private byte[] source;
  private Rekeyer.Rekeyed target;
  private String failure;

  public RowRekeyer(RowCounters counters, QuarantineWriter quarantine) {
    this.counters = counters;
    this.quarantine = quarantine;
  }

  /**
   * Starts source row {@code source} (kept, not copied, until {@link #row}): returns its target
   * key, or null if the key cannot be decoded. Counts nothing — a streamed row can be dropped and
   * started again.
   */
  byte[] start(byte[] source) {
    this.source = source;
    try {
      target = counters.rekeyer().rekeyWithTime(source);
      failure = null;
      return target.key();
    } catch (IllegalArgumentException e) {
      target = null;
      failure = e.getMessage();
      return null;
    }
  }

  /**
   * The started row is complete, with its cells under the target key (none if the key cannot be
   * decoded): the row to write, or null if it is quarantined or has no cells.
   */
  Rekeyed row(Cell[] cells) {
    counters.read.add(1);
    if (target == null) {
      quarantine(failure);
      return null;
    }
    if (cells.length == 0) {
      counters.filtered.add(1);
      return null;
    }
    String tooBig = counters.rekeyer().oversizedCell(target.key(), cells);
    if (tooBig != null) {
      quarantine(tooBig);
      return null;
    }
    return new Rekeyed(
        source.clone(), target.key(), target.time(), counters.retention().trim(cells, dropped));
  }

  private void quarantine(String why) {
    counters.quarantined.add(1);
    quarantine.add(Hex.of(source), why);
  }

  /** The task's rows are all in: adds the cells left out to the counters, closes the quarantine. */
  void close() {
    counters.olderVersions.add(dropped[0]);
    counters.expired.add(dropped[1]);
    quarantine.close();
  }
}
