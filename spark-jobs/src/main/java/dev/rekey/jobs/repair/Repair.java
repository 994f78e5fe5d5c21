package dev.rekey.jobs.repair;

import dev.rekey.jobs.common.Clusters;
import dev.rekey.jobs.common.Job;
import dev.rekey.jobs.common.RekeyException;
import dev.rekey.jobs.read.Source;
import dev.rekey.jobs.read.TemporarySnapshot;
import dev.rekey.jobs.read.TemporarySnapshots;
import dev.rekey.jobs.reconcile.BucketComparison;
import dev.rekey.jobs.reconcile.Reconcile;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.ReconcileResult;
import dev.rekey.jobs.reconcile.SideSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.SnapshotDescription;
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
        Admin oldAdmin = (oldConn != null ? oldConn : conn).getAdmin()) {
      // the old side's snapshot lives on the old cluster; the repaired table on the new one
      sweepLeftovers(oldAdmin);
      try (TemporarySnapshot taken = snapshotOf(oldAdmin)) {
        String snapshot = taken != null ? taken.name() : options.old().source().name();
        // a replay keeps the dry run's line between damage and dual writes
        long time =
            options.apply() != null
                ? MutationFile.read(options.apply()).snapshotTime()
                : creationTime(oldAdmin, snapshot);
        result = repair(conn, snapshot, time, checkpoint, t0);
      }
    } catch (IOException e) {
      throw new RekeyException("Cannot repair " + options.table() + ": " + e.getMessage(), e);
    }
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
      sweepLeftovers(admin);
      try (TemporarySnapshot taken = snapshotOf(admin)) {
        SideSpec old =
            taken != null
                ? SideSpec.snapshot("old", taken.name(), options.old().layout())
                : options.old();
        List<RepairResult> out = new ArrayList<>();
        for (SideSpec n : options.news()) {
          progress.accept(
              String.format("Target %s (layout %s):", n.source().name(), n.layout().name()));
          out.add(new Repair(spark, clusters, options.forTarget(n, old)).execute(progress));
        }
        return new RepairResults(out);
      }
    } catch (IOException e) {
      throw new RekeyException("Cannot repair " + options.table() + ": " + e.getMessage(), e);
    }
  }

  private RepairResult repair(
      Connection conn, String snapshot, long snapshotTime, Checkpoint checkpoint, long t0)
      throws IOException {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    SideSpec old = SideSpec.snapshot("old", snapshot, options.old().layout());
    progress.accept(
        "  old side: snapshot "
            + snapshot
            + " of "
            + RepairReport.iso(snapshotTime)
            + " (cells of "
            + options.table()
            + " newer than it are dual writes: never overwritten or deleted)");
    TreeSet<Integer> targets =
        options.targets() != null ? new TreeSet<>(options.targets()) : mismatched(old);
    Map<Integer, WriteCounts> earlier =
        checkpoint == null ? Map.of() : Map.copyOf(checkpoint.done());
    TreeSet<Integer> todo = new TreeSet<>(targets);
    todo.removeAll(earlier.keySet());
    if (!earlier.isEmpty()) {
      progress.accept(
          "  resuming: "
              + earlier.size()
              + " bucket(s) written by the earlier run are skipped: "
              + earlier.keySet());
    }
    Map<Integer, BucketCounts> found = Map.of();
    RepairPath path = null;
    boolean compacted = false;
    Map<Integer, WriteCounts> written = new HashMap<>();
    HFileWrite hfiles = new HFileWrite(spark, clusters.neu(), options, progress);
    if (options.dryRun() == null && hfiles.resumePending()) {
      // the killed run's rows are in the table now: the comparison below finds them repaired
      progress.accept("  the killed run's HFile load is finished; comparing again");
    }
    if (options.apply() != null) {
      List<RowMutation> rows =
          MutationFile.read(options.apply()).rows().stream()
              .filter(m -> todo.contains(m.bucket()))
              .toList();
      found = countsOf(rows);
      long cells = found.values().stream().mapToLong(BucketCounts::cellsToWrite).sum();
      // a replay's rows are in the driver already: Puts, whatever their number
      path = RepairPath.choose(cells, Math.max(cells, options.maxPutCells()));
      progress.accept("  replaying " + options.apply() + ": " + path.describe());
      compacted = writePuts(conn, rows, todo, snapshotTime, checkpoint, written);
    } else if (!todo.isEmpty()) {
      try (ComparePass pass = new ComparePass(jsc, clusters, options, old, snapshotTime, todo)) {
        found = pass.counts();
        long cells = found.values().stream().mapToLong(BucketCounts::cellsToWrite).sum();
        path = RepairPath.choose(cells, options.maxPutCells());
        progress.accept("  " + path.describe());
        if (options.dryRun() != null) {
          List<RowMutation> rows = cells == 0 ? List.of() : pass.mutations();
          new MutationFile(
                  options.table(),
                  snapshotTime,
                  options.old().describe(),
                  MutationFile.Recheck.of(options, targets),
                  rows)
              .write(options.dryRun());
          return result(
              snapshot, snapshotTime, targets, path, false, found, earlier, Map.of(), null, t0);
        }
        if (path.kind() == RepairPath.Kind.HFILES) {
          written.putAll(hfiles.write(conn, pass, snapshot, snapshotTime, found, todo));
          compacted = hfiles.compacted();
          for (int b : todo) {
            checkpoint.done(b, written.get(b));
          }
        } else {
          List<RowMutation> rows = cells == 0 ? List.<RowMutation>of() : pass.mutations();
          compacted = writePuts(conn, rows, todo, snapshotTime, checkpoint, written);
        }
      }
    } else if (options.dryRun() != null) {
      new MutationFile(
              options.table(),
              snapshotTime,
              options.old().describe(),
              MutationFile.Recheck.of(options, targets),
              List.of())
          .write(options.dryRun());
      return result(
          snapshot, snapshotTime, targets, null, false, found, earlier, Map.of(), null, t0);
    }
    Map<Integer, BucketCounts> after = Map.of();
    if (!targets.isEmpty()) {
      progress.accept("  checking the " + targets.size() + " repaired bucket(s) again");
      try (ComparePass again =
          new ComparePass(jsc, clusters, options, old, snapshotTime, targets)) {
        after = again.counts();
      }
    }
    return result(
        snapshot, snapshotTime, targets, path, compacted, found, earlier, written, after, t0);
  }

  /**
   * The Puts path: masking checked, then each bucket written and checkpointed; true if compacted.
   */
  private boolean writePuts(
      Connection conn,
      List<RowMutation> rows,
      TreeSet<Integer> todo,
      long snapshotTime,
      Checkpoint checkpoint,
      Map<Integer, WriteCounts> written)
      throws IOException {
    boolean compacted = false;
    RepairWriter writer = new RepairWriter(conn, TableName.valueOf(options.table()), snapshotTime);
    Map<String, Masking> masks = writer.masking(rows);
    if (masks.values().stream().anyMatch(Masking::masked)) {
      if (!options.compactIfMasked()) {
        throw writer.refusal(rows, masks);
      }
      writer.compact(rows, masks, options.compactWait(), progress);
      compacted = true;
      masks = writer.masking(rows);
    }
    for (int b : todo) {
      List<RowMutation> bucket = rows.stream().filter(m -> m.bucket() == b).toList();
      WriteCounts w = bucket.isEmpty() ? WriteCounts.NONE : writer.write(bucket, masks);
      written.put(b, w);
      checkpoint.done(b, w);
      progress.accept(
          String.format(
              Locale.ROOT,
              "  bucket %s written: %,d cells put, %,d deleted",
              RepairReport.iso(options.buckets().start(b)),
              w.cellsPut(),
              w.cellsDeleted()));
    }
    return compacted;
  }

  private RepairResult result(
      String snapshot,
      long snapshotTime,
      TreeSet<Integer> targets,
      RepairPath path,
      boolean compacted,
      Map<Integer, BucketCounts> found,
      Map<Integer, WriteCounts> earlier,
      Map<Integer, WriteCounts> written,
      Map<Integer, BucketCounts> after,
      long t0) {
    List<BucketRepair> buckets = new ArrayList<>();
    for (int b : targets) {
      boolean resumed = earlier.containsKey(b);
      buckets.add(
          new BucketRepair(
              b,
              options.buckets().start(b),
              options.buckets().end(b),
              resumed ? null : found.getOrDefault(b, BucketCounts.NONE),
              after == null
                  ? null
                  : resumed ? earlier.get(b) : written.getOrDefault(b, WriteCounts.NONE),
              resumed,
              after == null ? null : after.getOrDefault(b, BucketCounts.NONE)));
    }
    return new RepairResult(
        options.old().describe(),
        snapshot,
        snapshotTime,
        options.table(),
        options.buckets().from(),
        options.buckets().to(),
        options.buckets().size(),
        options.targets() == null,
        options.targets() == null ? options.buckets().count() : targets.size(),
        path,
        compacted,
        options.dryRun(),
        buckets,
        (System.nanoTime() - t0) / 1e9);
  }

  /** Per bucket, what a mutation file's rows do. */
  private static Map<Integer, BucketCounts> countsOf(List<RowMutation> rows) {
    Map<Integer, BucketCounts> out = new HashMap<>();
    for (RowMutation m : rows) {
      out.merge(m.bucket(), BucketCounts.of(m.fix()), BucketCounts::plus);
    }
    return out;
  }

  /** Every bucket of [from, to) compared as reconcile does: the ones that differ. */
  private TreeSet<Integer> mismatched(SideSpec old) {
    progress.accept(
        "  comparing "
            + options.buckets().count()
            + " buckets of "
            + old.describe()
            + " and table "
            + options.table()
            + " (counts and digests) to find the ones to repair");
    ReconcileResult r =
        new Reconcile(
                spark,
                clusters,
                ReconcileOptions.builder()
                    .old(old)
                    .neu(options.neu())
                    .from(options.buckets().from())
                    .to(options.buckets().to())
                    .bucket(Duration.ofMillis(options.buckets().size()).toString())
                    .time(options.time().describe())
                    .digest(true)
                    .samples(0)
                    .build())
            .execute(progress);
    TreeSet<Integer> out = new TreeSet<>();
    for (BucketComparison c : r.buckets()) {
      if (!c.matches()) {
        out.add(c.index());
      }
    }
    progress.accept("  " + out.size() + " bucket(s) differ: " + out);
    return out;
  }

  /** A snapshot of a live old table, taken now; null when the old side is a snapshot. */
  private TemporarySnapshot snapshotOf(Admin admin) {
    return options.old().source().kind() == Source.Kind.TABLE_VIA_SNAPSHOT
        ? TemporarySnapshot.take(admin, TableName.valueOf(options.old().source().name()), "repair")
        : null;
  }

  /** Removes the repair snapshots killed runs left on the old table. */
  private void sweepLeftovers(Admin admin) throws IOException {
    if (options.old().isSnapshot()) {
      return;
    }
    TableName t = TableName.valueOf(options.old().source().name());
    if (!admin.tableExists(t)) {
      return; // named by the snapshot
    }
    for (TemporarySnapshots.Leftover l :
        TemporarySnapshots.sweepDead(admin, clusters.old(), "repair", t)) {
      progress.accept("  removed a killed repair's " + l.describe());
    }
  }

  /** When the snapshot was taken: the line between the old side's cells and later dual writes. */
  static long creationTime(Admin admin, String snapshot) throws IOException {
    List<SnapshotDescription> l = admin.listSnapshots(Pattern.compile(Pattern.quote(snapshot)));
    if (l.isEmpty()) {
      throw new RekeyException(
          "Cannot repair from snapshot "
              + snapshot
              + ": it does not exist (list snapshots with `list_snapshots` in the HBase shell)");
    }
    long t = l.get(0).getCreationTime();
    if (t <= 0) {
      throw new RekeyException(
          "Cannot repair from snapshot "
              + snapshot
              + ": it records no creation time, so dual writes newer than it cannot be told from"
              + " damage (take a new snapshot with HBase 2.x)");
    }
    return t;
  }
}
