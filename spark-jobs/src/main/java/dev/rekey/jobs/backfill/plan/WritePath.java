package dev.rekey.jobs.backfill.plan;

import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.PrefixSpec;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;

/**
 * Which way the backfill writes its HFiles (plan layer, pure). <b>In source order</b> when every
 * target region receives the source's rows in the source's own order within each salt bucket — the
 * usual salting migration, {@code ts|id} to {@code salt|ts|id}: then each read task streams its
 * rows straight into one HFile per target region, salt bucket and family, with no shuffle and no
 * sort. <b>Sorted</b> otherwise: a sort shuffle by target key first.
 *
 * <p>The in-order path writes up to (read tasks × buckets in the region) files per region and
 * family, which must stay within HBase's bulk-load limit ({@code
 * hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily}, default 32): a task reads several
 * consecutive source regions when the source has more regions than tasks ({@link #writeTasks}, 0 on
 * the sorted path).
 */
public record WritePath(
    boolean inSourceOrder, String reason, int splitsPerSourceRegion, int writeTasks)
    implements Serializable {

  public static final String MAX_FILES_PER_REGION_KEY =
      "hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily";
  public static final int DEFAULT_MAX_FILES_PER_REGION = 32;

  public static WritePath sorted(String reason) {
    return new WritePath(false, reason, 1, 0);
  }

  /**
   * "written in source order (why)" or "sorted by target key (why)", for the plan and the result.
   */
  public String describe() {
    return (inSourceOrder
            ? "written in source order, no shuffle: "
            : "sorted by target key (shuffle): ")
        + reason;
  }

  /**
   * Why the target layout does not keep the source's order within a bucket, if it does not: the
   * source has no prefix; the target has a salt (or no prefix); both have the same fields, in the
   * same order, encoded alike.
   */
  public static Optional<String> orderMismatch(KeyLayout source, KeyLayout target) {
    PrefixSpec.Kind tp = target.prefix().kind();
    if (tp == PrefixSpec.Kind.HASH_PREFIX) {
      return Optional.of(
          String.format(
              "target layout %s has a hash prefix: each region holds many prefix values, whose"
                  + " rows interleave in source order",
              target.name()));
    }
    if (tp == PrefixSpec.Kind.FULL_HASH) {
      return Optional.of(
          String.format(
              "target layout %s is a full hash: its order is unrelated to the source's",
              target.name()));
    }
    if (source.prefix().kind() != PrefixSpec.Kind.NONE) {
      return Optional.of(
          String.format(
              "source layout %s has a %s prefix: its key order is not the order of its fields",
              source.name(), source.prefix().kind().name().toLowerCase()));
    }
    if (source.fields().size() != target.fields().size()) {
      return Optional.of(
          "the layouts have different fields (" + source.fields() + " vs " + target.fields() + ")");
    }
    for (int i = 0; i < source.fields().size(); i++) {
      FieldSpec s = source.fields().get(i);
      FieldSpec t = target.fields().get(i);
      if (!s.encodesAlike(t)) {
        return Optional.of(
            String.format(
                "field %d differs (%s in %s, %s in %s): the target orders rows differently",
                i + 1, s, source.name(), t, target.name()));
      }
    }
    return Optional.empty();
  }

  /**
   * Chooses the path.
   *
   * <p>The in-order path writes with one task per core ({@code wantedTasks / 2}): each task reads a
   * run of consecutive source splits in key order ({@link dev.rekey.read.KeyOrderRuns}), so the
   * tasks are as even as the source's regions and need no second task per core for slack, and every
   * task costs one file per region and bucket it feeds — and the load a round trip per file. When
   * the bulk-load limit allows fewer than half of those tasks, the sorted path, which uses every
   * core, is chosen instead.
   *
   * @param live the target's regions at write time
   * @param sourceRegions regions of the source snapshot (each read in at least one split)
   * @param wantedTasks read tasks wanted for parallelism (two per core)
   * @param maxFilesPerRegion the bulk-load limit per region and family
   */
  public static WritePath choose(
      KeyLayout source,
      KeyLayout target,
      RegionBoundaries live,
      int sourceRegions,
      int wantedTasks,
      int maxFilesPerRegion) {
    Optional<String> mismatch = orderMismatch(source, target);
    if (mismatch.isPresent()) {
      return sorted(mismatch.get());
    }
    int buckets = target.prefix().kind() == PrefixSpec.Kind.SALT ? target.prefix().buckets() : 1;
    int perTask =
        maxBucketsPerRegion(
            live, buckets); // files one write task may put into one region (per family)
    int maxTasks = maxFilesPerRegion / perTask;
    int wanted = Math.max(1, (wantedTasks + 1) / 2);
    int tasks = Math.min(wanted, maxTasks);
    if (tasks < 1 || 2 * tasks < wanted) {
      return sorted(
          String.format(
              "%d write tasks, each writing up to %d file(s) per target region, would put more than"
                  + " %d HFiles into one region (%s); fewer tasks would leave half the cores idle",
              wanted, perTask, maxFilesPerRegion, MAX_FILES_PER_REGION_KEY));
    }
    int k = Math.max(1, (tasks + sourceRegions - 1) / sourceRegions); // splits per source region
    int writers = Math.min(tasks, sourceRegions * k);
    return new WritePath(
        true,
        String.format(
            "target layout %s adds %s to the fields of %s in their order; %d write task(s)%s x %d"
                + " bucket(s) per region = at most %d HFiles per region and family (limit %d)",
            target.name(),
            buckets > 1 ? "a salt byte" : "no prefix",
            source.name(),
            writers,
            sourceRegions * k > writers
                ? String.format(
                    " reading the source's %d regions in runs of consecutive regions",
                    sourceRegions * k)
                : "",
            perTask,
            writers * perTask,
            maxFilesPerRegion),
        k,
        writers);
  }

  /**
   * The read tasks of one run feeding several targets: the in-order targets' write tasks (one per
   * core, fewer for a small source: each task is a file in every region it feeds), raised towards
   * the sorted targets' read tasks when there are any — their rows are re-keyed and shuffled in
   * these same tasks — but only as far as the cores (each task more is one more HFile in every
   * region of an in-order target: 8 tasks on 4 put 128 files into telemetry-v2's 16 regions, and
   * the one run took 1.13× the two single runs; in 4 tasks, 0.86×), and never past the in-order
   * targets' file limit nor the read's splits.
   *
   * @param inOrderTasks each in-order target's write tasks
   * @param inOrderMaxTasks each in-order target's most tasks within the bulk-load file limit
   * @param sortedReadTasks the most read tasks any sorted target's own run wants (0: none sorted)
   * @param splits the read's splits
   * @param cores the job's parallelism: raised for sorted targets, the tasks come in whole waves of
   *     it where the limits allow (3 equal tasks on 2 cores take two task lengths, 4 take two half
   *     ones: at 6M rows of a GZ source the read stage took 13.8-14.3 s in 3, 8.2-10.5 s in 4)
   */
  public static int fanOutTasks(
      List<Integer> inOrderTasks,
      List<Integer> inOrderMaxTasks,
      int sortedReadTasks,
      int splits,
      int cores) {
    int tasks = splits;
    for (int t : inOrderTasks) {
      tasks = Math.min(tasks, t);
    }
    int upper = splits;
    for (int m : inOrderMaxTasks) {
      upper = Math.min(upper, Math.max(m, 1));
    }
    int raised = Math.min(upper, Math.max(tasks, Math.min(sortedReadTasks, Math.max(1, cores))));
    int chosen = Math.max(tasks, raised);
    // raised for the sorted targets' sake: to whole waves of the cores, where the limits allow
    return chosen > tasks ? wholeWaves(chosen, upper, cores) : chosen;
  }

  /**
   * {@code tasks} raised to the next multiple of {@code cores} when that stays within {@code
   * upper}: equal tasks in a last, partial wave leave cores idle. Never lowered: fewer tasks than
   * splits read runs of unequal length (3 splits in 2 tasks take as long as in 3).
   */
  static int wholeWaves(int tasks, int upper, int cores) {
    int c = Math.max(1, cores);
    int up = (tasks + c - 1) / c * c;
    return up <= upper ? up : tasks;
  }

  /** The most write tasks an in-order target takes within the bulk-load file limit per region. */
  public static int maxInOrderTasks(
      RegionBoundaries live, KeyLayout target, int maxFilesPerRegion) {
    int buckets = target.prefix().kind() == PrefixSpec.Kind.SALT ? target.prefix().buckets() : 1;
    return maxFilesPerRegion / maxBucketsPerRegion(live, buckets);
  }

  /**
   * The most salt buckets any region's key range touches (bucket b holds the keys that start with
   * byte b).
   */
  static int maxBucketsPerRegion(RegionBoundaries live, int buckets) {
    if (buckets <= 1) {
      return 1;
    }
    int most = 1;
    for (int r = 0; r < live.count(); r++) {
      most = Math.max(most, SaltFit.bucketsIn(live, r, buckets));
    }
    return most;
  }
}
