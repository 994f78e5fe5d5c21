package dev.rekey.jobs.reconcile;

import dev.rekey.common.TimeWindow;
import dev.rekey.read.ReadPlan;
import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import dev.rekey.rowkey.KeyLayout;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;

/**
 * How reconcile reads one side (pure settings, no Spark): which table or snapshot, how many
 * versions, keys only or whole cells, and how the time range limits the read, plus the sentence the
 * report gives for that limit.
 */
public final class SideReads {
  private final ReconcileOptions options;

  /** Live sides read from a snapshot taken for this run: the snapshot's name. */
  private final Map<SideSpec, String> via;

  public SideReads(ReconcileOptions options, Map<SideSpec, String> via) {
    this.options = options;
    this.via = via;
  }

  /**
   * A reader of the side: the snapshot taken for the run when there is one; every version; keys
   * only for counts; {@code inRange}: only [from, to), as a cell time range or the key ranges.
   */
  public RegionReader reader(SideSpec side, boolean keysOnly, boolean inRange) {
    String snapshot = side.isSnapshot() ? side.source().name() : via.get(side);
    RegionReader r =
        snapshot != null
            ? RegionReader.snapshot(snapshot)
            : RegionReader.table(TableName.valueOf(side.source().name()));
    r.caching(RegionReader.DEFAULT_CACHING)
        .versions(options.versions().max()); // every version counts: a lost older one is a loss
    if (keysOnly) {
      r.keysOnly(); // counts need keys, cell counts and timestamps, not values
    }
    if (inRange && options.time().cell()) {
      // cell time: only cells in [from, to) are read, and a row's time is its newest such cell
      r.timeRange(options.buckets().from(), options.buckets().to());
    } else if (inRange && keyTimeInOrder(side.layout())) {
      // the row's time is the layout's time field, and it leads the key: only the ranges holding
      // [from, to) are read
      r.plan(ReadPlan.window(side.layout(), options.buckets().from(), options.buckets().to()));
    }
    return r;
  }

  /**
   * A reader of whole rows of the side in {@code windows} only (sorted, not overlapping, inside the
   * buckets' range): their key ranges where the layout keeps time in key order (one plan for all
   * the windows: each region's task reads only its part of them), else the cells from the first
   * window's start to the last one's end (a cell time range cannot have holes), else every key.
   */
  public RegionReader reader(SideSpec side, List<TimeWindow> windows) {
    RegionReader r = reader(side, false, false);
    long from = windows.get(0).from();
    long to = windows.get(windows.size() - 1).to();
    if (options.time().cell()) {
      r.timeRange(from, to);
    } else if (keyTimeInOrder(side.layout())) {
      r.plan(ReadPlan.windows(side.layout(), windows));
    }
    return r;
  }

  /**
   * True when a row's time is this layout's time field and the field is in key order (a window is
   * key ranges).
   */
  private boolean keyTimeInOrder(KeyLayout layout) {
    return !options.time().cell()
        && layout.timeField().equals(Optional.of(options.time().field()))
        && ReadPlan.window(layout, options.buckets().from(), options.buckets().to()).keyRanges();
  }

  /** Which limit the read used, for the report. */
  String pruning(RegionRead read, SideSpec side) {
    if (read.plan().keyRanges()) {
      return read.plan().describe();
    }
    if (options.time().cell()) {
      return "every key, window as a cell time range (--time cell)";
    }
    String why =
        ReadPlan.window(side.layout(), options.buckets().from(), options.buckets().to()).reason();
    return "every key, rows placed by key field "
        + options.time().field()
        + (options.time().field().equals(side.layout().timeField().orElse(null))
            ? ": " + why
            : " (not the layout's time field)");
  }
}
