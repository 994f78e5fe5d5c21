package dev.rekey.jobs.backfill.write;

import dev.rekey.common.JobPhase;
import dev.rekey.jobs.backfill.TargetRun;
import dev.rekey.jobs.backfill.plan.TimeTiers;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.SparkContext;

/**
 * What the write of one or several targets prints and calls its Spark job (run layer): a run of one
 * target says it as a run of its own always did (its path, its read, its regions); a run of several
 * names each target and the read they share.
 */
final class WriteLines {
  private final List<TargetRun> runs;
  private final Consumer<String> progress;
  private final TargetRun one;
  private final String snapshot;

  WriteLines(List<TargetRun> runs, Consumer<String> progress) {
    this.runs = runs;
    this.progress = progress;
    this.one = runs.size() == 1 ? runs.get(0) : null;
    this.snapshot = runs.get(0).options().sourceSnapshot();
  }

  /** The names of a target's accumulators in the Spark UI. */
  String accumulatorPrefix(TargetRun run) {
    return one != null ? "backfill." : "backfill." + run.options().targetTable() + ".";
  }

  /** The target's write path, and its time tiers when the plan had to say why. */
  void path(TargetRun run) {
    String of = one != null ? "" : " of " + run.options().targetTable();
    progress.accept(String.format("Write path%s: %s", of, run.plan().path().describe()));
    TimeTiers tiers = run.plan().tiers();
    if (!tiers.reason().isEmpty()) {
      progress.accept(String.format("Time tiers%s: %s; %s", of, tiers.describe(), tiers.reason()));
    }
  }

  /** What is read, in how many tasks, for what. */
  void reading(int splits, int tasks) {
    if (one == null) {
      progress.accept(
          String.format(
              "Reading snapshot %s once (%d splits) in %d tasks for %d targets: %s",
              snapshot, splits, tasks, runs.size(), describe()));
    } else if (one.plan().path().inSourceOrder()) {
      progress.accept(
          String.format(
              "Reading snapshot %s (%d splits) in %d tasks, writing HFiles for %d regions to %s",
              snapshot, splits, tasks, one.live().count(), one.staging().attempts()));
    } else {
      progress.accept(
          String.format(
              "Reading snapshot %s, writing HFiles for %d regions x %d to %s",
              snapshot,
              one.live().count(),
              one.options().splitsPerRegion(),
              one.staging().attempts()));
    }
  }

  /** The Spark job description of the read and write (the progress lines name stages by it). */
  JobPhase phase(SparkContext sc) {
    if (one == null) {
      return JobPhase.start(
          sc,
          "backfill: read snapshot %s once and write HFiles for %s",
          snapshot,
          JobPhase.count(runs.size(), "target"));
    }
    String regions = JobPhase.count(one.live().count(), "region");
    return one.plan().path().inSourceOrder()
        ? JobPhase.start(
            sc, "backfill: read snapshot %s and write HFiles for %s", snapshot, regions)
        : JobPhase.start(
            sc,
            "backfill: read snapshot %s, sort by target key, write HFiles for %s x %d",
            snapshot,
            regions,
            one.options().splitsPerRegion());
  }

  private String describe() {
    List<String> out = new ArrayList<>();
    for (TargetRun r : runs) {
      out.add(
          r.options().targetTable()
              + (r.plan().path().inSourceOrder() ? " in source order" : " sorted"));
    }
    return String.join(", ", out);
  }
}
