package dev.rekey.jobs.backfill.plan;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What each target family keeps, applied to the rows on their way in. <b>Versions</b>: the backfill
 * copies into each target family the versions asked for ({@code --versions}), capped at the
 * family's VERSIONS. A target family that keeps fewer versions than the source holds would hide the
 * older ones at once and drop them at its next major compaction, so they are not written; the
 * source is read with the versions asked for and {@link #trim} counts what it leaves out, so the
 * job can say how many cells and why. <b>TTL</b>: a cell older than its target family's TTL would
 * expire as soon as it is loaded; {@link #trim} counts them so the job refuses before loading
 * anything.
 */
public final class Retention implements Serializable {
  private static final long serialVersionUID = 1L;

  private final byte[][] families;
  private final int[] caps;
  private final long[] expiresBefore;
  private final int requested;
  private final boolean trims;
  private final boolean checksTtl;

  /**
   * @param capPerFamily versions to copy per target family; @param requested versions read from the
   *     source
   */
  public Retention(Map<String, Integer> capPerFamily, int requested) {
    this(capPerFamily, Map.of(), requested);
  }

  /**
   * @param capPerFamily versions to copy per target family
   * @param expiresBeforePerFamily per family with a TTL: cells older than this (epoch millis) would
   *     expire on load
   * @param requested versions read from the source
   */
  public Retention(
      Map<String, Integer> capPerFamily, Map<String, Long> expiresBeforePerFamily, int requested) {
    this.families = new byte[capPerFamily.size()][];
    this.caps = new int[capPerFamily.size()];
    this.expiresBefore = new long[capPerFamily.size()];
    int i = 0;
    boolean t = false;
    boolean ttl = false;
    for (Map.Entry<String, Integer> e : capPerFamily.entrySet()) {
      families[i] = Bytes.toBytes(e.getKey());
      caps[i] = e.getValue();
      expiresBefore[i] = expiresBeforePerFamily.getOrDefault(e.getKey(), Long.MIN_VALUE);
      t |= e.getValue() < requested;
      ttl |= expiresBefore[i] != Long.MIN_VALUE;
      i++;
    }
    this.requested = requested;
    this.trims = t;
    this.checksTtl = ttl;
  }

  /** Versions the source scan asks for. */
  int readVersions() {
    return requested;
  }

  /**
   * The cells of one row (HBase order: family, qualifier, newest first) keeping at most the
   * family's cap of versions per column; {@code dropped[0]} grows by the cells left out. Returns
   * {@code cells} itself when nothing is left out. {@code dropped[1]}, if present, grows by the
   * cells kept that are older than their family's TTL.
   */
  public Cell[] trim(Cell[] cells, long[] dropped) {
    if (checksTtl && dropped.length > 1) {
      countExpired(cells, dropped);
    }
    if (!trims) {
      return cells; // the scan already returns no more versions than every family keeps
    }
    List<Cell> kept = null;
    int run = 0;
    int cap = requested;
    Cell prev = null;
    for (int i = 0; i < cells.length; i++) {
      Cell c = cells[i];
      if (prev == null || !CellUtil.matchingFamily(prev, c)) {
        cap = capOf(c);
        run = 0;
      } else if (!CellUtil.matchingQualifier(prev, c)) {
        run = 0;
      }
      prev = c;
      if (++run > cap) {
        if (kept == null) {
          kept = new ArrayList<>(cells.length);
          for (int j = 0; j < i; j++) {
            kept.add(cells[j]);
          }
        }
        dropped[0]++;
      } else if (kept != null) {
        kept.add(c);
      }
    }
    return kept == null ? cells : kept.toArray(new Cell[0]);
  }

  private void countExpired(Cell[] cells, long[] counts) {
    for (Cell c : cells) {
      for (int i = 0; i < families.length; i++) {
        if (CellUtil.matchingFamily(c, families[i])) {
          if (c.getTimestamp() < expiresBefore[i]) {
            counts[1]++;
          }
          break;
        }
      }
    }
  }

  private int capOf(Cell c) {
    for (int i = 0; i < families.length; i++) {
      if (CellUtil.matchingFamily(c, families[i])) {
        return caps[i];
      }
    }
    return requested;
  }
}
