package dev.rekey.jobs.backfill.plan;

import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.read.ReadPlan;
import dev.rekey.read.RegionReader;
import dev.rekey.rowkey.KeyRange;

/** How the backfill reads its snapshot, from the options and the plan (run layer). */
public final class SourceRead {
  private SourceRead() {}

  /**
   * The shared snapshot read: time range, families and versions on the scan, the plan's splits per
   * region, whole rows.
   */
  public static RegionReader of(BackfillOptions o, BackfillPlan plan) {
    RegionReader r =
        RegionReader.snapshot(o.sourceSnapshot())
            .families(o.families())
            .versions(plan.readVersions())
            // sized by the plan: on the in-order path to keep the files per region in bounds
            .splitsPerRegion(plan.splitsPerSourceRegion());
    if (plan.minReadTasks() > 0) {
      r.minPartitions(plan.minReadTasks());
    }
    if (o.shard() != null) {
      // only the shard's source regions: the others' tasks open no file
      r.plan(
          ReadPlan.keyRanges(
              plan.sourceRegions().stream().map(s -> new KeyRange(s.start(), s.end())).toList(),
              "the source regions of shard " + o.shard()));
    }
    // a cell time range, not the key ranges of a time-first key: --from/--to selects cells by their
    // timestamps, and a row keyed outside the window can hold cells stamped inside it (an update
    // written since)
    return r.timeRange(o.cellTime().from(), o.cellTime().to());
  }
}
