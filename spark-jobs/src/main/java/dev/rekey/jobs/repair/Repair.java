package dev.rekey.jobs.repair;

import dev.rekey.common.Clusters;
import dev.rekey.common.Job;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.jobs.reconcile.TimeBucketStats;
import dev.rekey.read.TemporarySnapshot;
import dev.rekey.targets.EachTarget;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The repair action: makes the new table hold the old side's cells in the buckets that differ,
 * across a key change. {@code new Repair(spark, hbaseConf, options).execute(progress)}.
 *
 * <ol>
 *   <li>The old side is a snapshot (a live old table is snapshotted for the run, and the snapshot
 *       deleted at the end): its creation time is the line between damage and dual writes.
 *   <li>The buckets to repair: a reconcile report's mismatched buckets, or every bucket of [from,
 *       to) compared as reconcile does (counts and digests, the old snapshot against the live new
 *       table).
 *   <li>{@link ComparePass}: those buckets' rows of both sides joined by natural key, every cell
 *       and version compared, each key's fix decided by {@link RowRepair}.
 *   <li>{@link RepairPath}: Puts for a few cells, the backfill's HFile path for many.
 *   <li>Puts: {@link RepairWriter}: delete markers that would hide a Put found by a raw scan first
 *       (compacted away with --compact-if-masked, else refused), then each bucket written and
 *       checkpointed ({@link Checkpoint}) in turn. HFiles: {@link HFileWrite}, the same marker
 *       check, then one load of every bucket's rows, its ledger in the staging dir.
 *   <li>The same comparison again over every repaired bucket: exit 0 only when all match now.
 * </ol>
 *
 * With a dry run, step 5 writes the mutations to a file instead ({@link MutationFile}).
 */
public final class Repair implements Job<RepairResult> {
  private final SparkSession spark;
  private final Clusters clusters;
  private final RepairOptions options;
  private Consumer<String> progress = s -> {};
  private final PhaseTimes times = new PhaseTimes();

  /** Both sides on one cluster. */
  public Repair(SparkSession spark, Configuration hbaseConf, RepairOptions options) {
    this(spark, Clusters.one(hbaseConf), options);
  }

  /**
   * The old side (its snapshot, or one taken of its table) on {@code clusters.old()}, the table
   * repaired on {@code clusters.neu()}.
   */
  public Repair(SparkSession spark, Clusters clusters, RepairOptions options) {
    this.spark = spark;
    this.clusters = clusters;
    this.options = options;
  }

  /** Repairs; writes repair.json and repair.html to the options' out dir. */
  @Override
  public RepairResult execute(Consumer<String> progress) {
    this.progress = progress;
    long t0 = System.nanoTime();
    Checkpoint checkpoint = options.dryRun() == null ? Checkpoint.open(options) : null;
    RepairResult result;
    try (Connection conn = ConnectionFactory.createConnection(clusters.neu());
        Connection oldConn =
            clusters.separate() ? ConnectionFactory.createConnection(clusters.old()) : null;
        Admin oldAdmin = (oldConn != null ? oldConn : conn).getAdmin();
        Admin newAdmin = conn.getAdmin()) {
      // the old side's snapshot lives on the old cluster; the repaired table on the new one
      times.start(PhaseTimes.SNAPSHOT);
      RepairSnapshots.sweepLeftovers(oldAdmin, clusters.old(), options, progress);
      RepairSnapshots.sweepNewLeftovers(newAdmin, clusters.neu(), options, progress);
      try (TemporarySnapshot taken = RepairSnapshots.take(oldAdmin, options)) {
        String snapshot = taken != null ? taken.name() : options.old().source().name();
        // a replay keeps the dry run's line between damage and dual writes
        long time =
            options.apply() != null
                ? MutationFile.read(options.apply()).snapshotTime()
                : RepairSnapshots.creationTime(oldAdmin, snapshot);
        result = repair(conn, newAdmin, snapshot, time, checkpoint);
        times.start(PhaseTimes.SNAPSHOT); // the temporary snapshot's deletion
      }
    } catch (IOException e) {
      throw cannotRepair(e);
    }
    times.stop();
    result =
        result.withTimings(
            new RepairResult.Timings(times.seconds(), (System.nanoTime() - t0) / 1e9));
    RepairReport.write(result, options.out());
    if (checkpoint != null) {
      checkpoint.finish();
    }
    return result;
  }

  /**
   * Repairs every new table of the options ({@code --target}, repeatable) against the old side, one
   * table after the other, each with its own report dir, checkpoint and staging dir; a live old
   * table is snapshotted once for all of them (one line between damage and dual writes). With one
   * table, {@link #execute}.
   */
  public RepairResults executeAll(Consumer<String> progress) {
    if (!options.severalTargets()) {
      return new RepairResults(List.of(execute(progress)));
    }
    try (Connection oldConn = ConnectionFactory.createConnection(clusters.old());
        Admin admin = oldConn.getAdmin()) {
      RepairSnapshots.sweepLeftovers(admin, clusters.old(), options, progress);
      try (TemporarySnapshot taken = RepairSnapshots.take(admin, options)) {
        SideSpec old =
            taken != null
                ? SideSpec.snapshot("old", taken.name(), options.old().layout())
                : options.old();
        return new RepairResults(
            EachTarget.run(
                options.news(),
                n -> EachTarget.header(n.source().name(), n.layout()),
                progress,
                n -> new Repair(spark, clusters, options.forTarget(n, old)).execute(progress)));
      }
    } catch (IOException e) {
      throw cannotRepair(e);
    }
  }

  private RekeyException cannotRepair(IOException e) {
    return RekeyException.cannot(e, "Cannot repair %s: %s", options.table(), e.getMessage());
  }

  private RepairResult repair(
      Connection conn, Admin newAdmin, String snapshot, long snapshotTime, Checkpoint checkpoint)
      throws IOException {
    SideSpec old = SideSpec.snapshot("old", snapshot, options.old().layout());
    progress.accept(
        String.format(
            "  old side: snapshot %s of %s (cells of %s newer than it are dual writes: never"
                + " overwritten or deleted)",
            snapshot, RepairReport.iso(snapshotTime), options.table()));
    WrittenAfter writtenAfter =
        WrittenAfter.of(newAdmin.getDescriptor(TableName.valueOf(options.table())));
    if (!writtenAfter.families().isEmpty()) {
      progress.accept(
          String.format(
              "  %s keeps NEW_VERSION_BEHAVIOR in %s: a delete marker there hides only cells"
                  + " written before it, so repaired cells show without a compaction",
              options.table(), String.join(", ", writtenAfter.families())));
    }
    if (options.onlyBuckets() != null) {
      return repair(
          conn,
          newAdmin,
          old,
          snapshotTime,
          checkpoint,
          new TreeSet<>(options.onlyBuckets()),
          null,
          writtenAfter);
    }
    times.start(PhaseTimes.FIND);
    try (MismatchedBuckets.Found f =
        MismatchedBuckets.find(spark, clusters, newAdmin, options, old, progress)) {
      return repair(conn, newAdmin, old, snapshotTime, checkpoint, f.buckets(), f, writtenAfter);
    }
  }

  /**
   * Repairs the buckets {@code chosen}; {@code found}: the find pass that named them (its snapshot
   * of the new table and its tallies of the old side's buckets), or null; {@code writtenAfter}: the
   * new table's NEW_VERSION_BEHAVIOR families.
   */
  private RepairResult repair(
      Connection conn,
      Admin newAdmin,
      SideSpec old,
      long snapshotTime,
      Checkpoint checkpoint,
      TreeSet<Integer> chosen,
      MismatchedBuckets.Found found,
      WrittenAfter writtenAfter)
      throws IOException {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    String snapshot = old.source().name();
    Map<Integer, WriteCounts> earlier =
        checkpoint == null ? Map.of() : Map.copyOf(checkpoint.done());
    TreeSet<Integer> todo = new TreeSet<>(chosen);
    todo.removeAll(earlier.keySet());
    if (!earlier.isEmpty()) {
      progress.accept(
          String.format(
              "  resuming: %d bucket(s) written by the earlier run are skipped: %s",
              earlier.size(), earlier.keySet()));
    }
    RepairResultBuilder result = resultOf(snapshot, snapshotTime, chosen).earlier(earlier);
    Map<Integer, WriteCounts> written = new HashMap<>();
    HFileWrite hfiles =
        new HFileWrite(spark, clusters.neu(), options, progress, writtenAfter.families());
    PutsWrite puts = new PutsWrite(conn, options, times, progress, writtenAfter.families());
    // the find pass's snapshot of the new table serves the compare while nothing of the run has
    // written to the table since
    TemporarySnapshot unchanged = found != null ? found.newSnapshot() : null;
    if (options.dryRun() == null && hfiles.resumePending()) {
      // the killed run's rows are in the table now: the comparison below finds them repaired
      progress.accept("  the killed run's HFile load is finished; comparing again");
      unchanged = null;
    }
    if (options.apply() != null) {
      replay(puts, todo, snapshotTime, checkpoint, written, result);
    } else if (!todo.isEmpty()) {
      // the delete markers' compaction, if the buckets hold any, runs while they are compared
      EarlyCompaction early =
          EarlyCompaction.start(
              conn, options, todo, snapshotTime, writtenAfter.everyFamily(), progress);
      times.start(PhaseTimes.COMPARE);
      try (ComparePass pass =
          new ComparePass(jsc, clusters, newAdmin, options, old, snapshotTime, todo, unchanged)) {
        Map<Integer, TimeBucketCounts> foundCounts = pass.counts();
        long cells = foundCounts.values().stream().mapToLong(TimeBucketCounts::cellsToWrite).sum();
        RepairPath path = RepairPath.choose(cells, options.maxPutCells());
        progress.accept("  " + path.describe());
        result.found(foundCounts, path);
        if (options.dryRun() != null) {
          writeMutations(snapshotTime, chosen, cells == 0 ? List.of() : pass.mutations());
          return result.build();
        }
        boolean compacted;
        if (path.kind() == RepairPath.Kind.HFILES) {
          written.putAll(
              hfiles.write(conn, pass, snapshot, snapshotTime, foundCounts, todo, times, early));
          compacted = hfiles.compacted();
          for (int b : todo) {
            checkpoint.done(b, written.get(b));
          }
        } else {
          List<RowMutation> rows = cells == 0 ? List.<RowMutation>of() : pass.mutations();
          compacted = puts.write(rows, todo, snapshotTime, checkpoint, written, early);
        }
        // the background scan's end, also when nothing was written; its compaction counts
        result.compacted(compacted || !early.requested().isEmpty());
        times.add(PhaseTimes.EARLY_SCAN, early.scanNanos());
      }
    } else if (options.dryRun() != null) {
      writeMutations(snapshotTime, chosen, List.of());
      return result.build();
    }
    // the old side's tallies of the buckets, when the find pass read them from the same snapshot
    Map<Integer, TimeBucketStats> oldStats = found != null ? found.old() : Map.of();
    return result
        .rechecked(written, recheck(jsc, newAdmin, old, snapshotTime, chosen, oldStats))
        .build();
  }

  /** The result of repairing {@code chosen}, as far as it is known before they are compared. */
  private RepairResultBuilder resultOf(
      String snapshot, long snapshotTime, TreeSet<Integer> chosen) {
    return new RepairResultBuilder(
            options.table(),
            new RepairResult.OldSide(options.old().describe(), snapshot, snapshotTime),
            options.buckets(),
            chosen,
            options.onlyBuckets() == null)
        .mutationFile(options.dryRun());
  }

  /** Writes a dry run's mutation file: {@code rows}, and what a replay of it compares again. */
  private void writeMutations(long snapshotTime, TreeSet<Integer> chosen, List<RowMutation> rows) {
    new MutationFile(
            options.table(),
            snapshotTime,
            options.old().describe(),
            MutationFile.Recheck.of(options, chosen),
            rows)
        .write(options.dryRun());
  }

  /** Puts a dry run's mutations ({@code --apply}) of the buckets still to do. */
  private void replay(
      PutsWrite puts,
      TreeSet<Integer> todo,
      long snapshotTime,
      Checkpoint checkpoint,
      Map<Integer, WriteCounts> written,
      RepairResultBuilder result)
      throws IOException {
    List<RowMutation> rows =
        MutationFile.read(options.apply()).rows().stream()
            .filter(m -> todo.contains(m.bucket()))
            .toList();
    Map<Integer, TimeBucketCounts> foundCounts = countsOf(rows);
    long cells = foundCounts.values().stream().mapToLong(TimeBucketCounts::cellsToWrite).sum();
    // a replay's rows are in the driver already: Puts, whatever their number
    RepairPath path = RepairPath.choose(cells, Math.max(cells, options.maxPutCells()));
    progress.accept(String.format("  replaying %s: %s", options.apply(), path.describe()));
    result.found(foundCounts, path);
    result.compacted(
        puts.write(rows, todo, snapshotTime, checkpoint, written, EarlyCompaction.none()));
  }

  /**
   * The comparison after writing: every repaired bucket's digest again, and the ones that differ
   * compared cell by cell (why they differ, and by how much); empty when none differs.
   */
  private Map<Integer, TimeBucketCounts> recheck(
      JavaSparkContext jsc,
      Admin newAdmin,
      SideSpec old,
      long snapshotTime,
      TreeSet<Integer> chosen,
      Map<Integer, TimeBucketStats> oldStats)
      throws IOException {
    if (chosen.isEmpty()) {
      return Map.of();
    }
    times.start(PhaseTimes.RECHECK);
    progress.accept(String.format("  checking the %d repaired bucket(s) again", chosen.size()));
    TreeSet<Integer> differ;
    // the old side is read again only for buckets the find pass did not tally
    boolean readOld = !oldStats.keySet().containsAll(chosen);
    try (TimeBucketReads reads =
        new TimeBucketReads(jsc, clusters, newAdmin, options, old, chosen, null, readOld)) {
      differ = DigestRecheck.differing(jsc, reads, options.buckets().count(), oldStats);
    }
    if (differ.isEmpty()) {
      return Map.of();
    }
    progress.accept(
        String.format(
            "  %d bucket(s) differ by digest, compared cell by cell: %s", differ.size(), differ));
    try (ComparePass again =
        new ComparePass(jsc, clusters, newAdmin, options, old, snapshotTime, differ, null)) {
      return again.counts();
    }
  }

  /** Per bucket, what a mutation file's rows do. */
  private static Map<Integer, TimeBucketCounts> countsOf(List<RowMutation> rows) {
    Map<Integer, TimeBucketCounts> out = new HashMap<>();
    for (RowMutation m : rows) {
      out.merge(m.bucket(), TimeBucketCounts.of(m.fix()), TimeBucketCounts::plus);
    }
    return out;
  }
}
