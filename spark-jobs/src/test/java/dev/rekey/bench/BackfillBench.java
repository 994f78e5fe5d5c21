package dev.rekey.bench;

import static dev.rekey.bench.BackfillRecords.record;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.BackfillResult;
import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * bench/backfill: the same snapshot backfilled by every path, in one run, each into its own fresh
 * target: rekey's salting migration (in source order; the sorted path forced; with row-by-row
 * verification), rekey's reordering migration (entity-first layout, sorted path), and the baselines
 * — a Put copy through BufferedMutator, hbase-spark's bulkLoad, the MapReduce HFileOutputFormat2
 * job — next to the read-only pass and the two floors, read + HFile write in source order with and
 * without Spark, measured warm ({@link WriteFloor}). Not in CI: run it with bench/backfill/run.sh.
 * Rows with -Dbench.rows (default 1,000,000); -Dbench.variants=rekey runs only the source and the
 * default rekey path (the growth runs).
 */
@Tag("bench")
class BackfillBench {
  /**
   * One timed pass: seconds of wall time, rows it moved, peak heap of this JVM while it ran, and
   * the JVM's JIT and collector time within it.
   */
  record Pass(double seconds, long rows, long peakMb, String jvm) {
    double rate() {
      return rows / seconds;
    }
  }

  interface Work {
    long run() throws Exception;
  }

  /** hbase-spark's bulkLoad + BulkLoadHFiles of the snapshot into {@code table}, timed. */
  private static Pass hbaseSparkPass(
      JavaSparkContext jsc,
      Admin admin,
      String snap,
      int minPartitions,
      Rekeyer rekeyer,
      TableName table)
      throws Exception {
    return timed(
        () ->
            HBaseSparkBulkLoad.run(
                jsc,
                SharedHBase.conf(),
                snap,
                minPartitions,
                rekeyer,
                table,
                admin.getDescriptor(table),
                SharedHBase.runRoot().resolve("bench-hbspark-" + System.nanoTime()).toString()));
  }

  /** MapReduce's HFileOutputFormat2 + BulkLoadHFiles of the snapshot into {@code table}, timed. */
  private static Pass mapReducePass(
      String snap, java.nio.file.Path v1File, java.nio.file.Path v2File, TableName table)
      throws Exception {
    return timed(
        () ->
            MapReduceBackfill.run(
                SharedHBase.conf(),
                snap,
                v1File,
                v2File,
                table,
                SharedHBase.runRoot().resolve("bench-mr-" + System.nanoTime())));
  }

  private static Pass timed(Work work) throws Exception {
    HeapPeak.reset();
    JvmTime j0 = JvmTime.now();
    long t0 = System.nanoTime();
    long n = work.run();
    double seconds = (System.nanoTime() - t0) / 1e9;
    return new Pass(seconds, n, HeapPeak.mb(), JvmTime.now().since(j0));
  }

  @Test
  void backfillPaths() throws Exception {
    long rows = Long.getLong("bench.rows", 1_000_000L);
    String variants = System.getProperty("bench.variants", "all");
    boolean all =
        !"rekey".equals(variants)
            && !"reorder".equals(variants)
            && !"repeat".equals(variants)
            && !"read".equals(variants);
    // (variants "baselines": only the hbase-spark and MapReduce baselines, a quick check that they
    // run)
    TelemetryGenerator gen = TelemetryGenerator.oneDay(rows, 1000);
    Admin admin = SharedHBase.connection().getAdmin();
    String snap = TelemetrySource.snapshot(admin, gen);
    java.nio.file.Path v1File = SharedHBase.rekeyHome().resolve("conf/layouts/telemetry-v1.yaml");
    java.nio.file.Path v2File = SharedHBase.rekeyHome().resolve("conf/layouts/telemetry-v2.yaml");
    java.nio.file.Path entityFile =
        SharedHBase.rekeyHome().resolve("bench/backfill/telemetry-entity.yaml");
    KeyLayout v1 = KeyLayout.load(v1File);
    KeyLayout v2 = KeyLayout.load(v2File);
    KeyLayout entity = KeyLayout.load(entityFile);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    int minPartitions = 2 * SharedSpark.session().sparkContext().defaultParallelism();
    List<byte[]> saltSplits = SplitPoints.salt(16);
    List<byte[]> entitySplits = entity.splitPoints(16);

    System.out.printf("%nBENCH backfill rows=%,d%n", rows);
    if ("reorder".equals(variants)) { // only the reordering migration, for profiling the sort
      Rekeyed reorder = rekeyPass(admin, snap, v1, entity, entitySplits, "bench_entity", b -> b);
      System.out.printf(
          "BENCH rekey reordering v1 -> telemetry-entity: %s%n",
          describe(reorder.pass(), reorder.result()));
      return;
    }
    if ("read".equals(variants)) {
      // issue 15's case (telemetry rows, two cells each): the jobs' read — rows streamed as cells,
      // opening the snapshot included — against the raw HFile pass, interleaved, 8 rounds
      // (-Dbench.readRounds; the first -Dbench.warmRounds, default 1, warm the JIT up and are left
      // out of the medians: WarmRounds). Each pass's JIT compile and collector time are printed
      // with it: on two cores they take from the read.
      // The two Spark passes are also compared by their tasks' CPU: the read's work per row under
      // Spark, without the fixed part of a job that their wall times hold.
      double[] ratio = new double[Integer.getInteger("bench.readRounds", 8)];
      double[] toSpark = new double[ratio.length];
      double[] tasksToSpark = new double[ratio.length];
      TaskCpu taskCpu = TaskCpu.on(jsc.sc());
      for (int round = 1; round <= ratio.length; round++) {
        TaskCpu.Mark m1 = taskCpu.mark();
        Pass streamed = streamedPass(jsc, snap, minPartitions);
        double readTasks = taskCpu.secondsSince(m1, 1);
        JvmTime j1 = JvmTime.now();
        HFileFloor.Pass raw = HFileFloor.read(SharedHBase.conf(), snap, 2);
        JvmTime j2 = JvmTime.now();
        TaskCpu.Mark m2 = taskCpu.mark();
        HFileFloor.Pass inSpark = HFileFloor.readInSpark(jsc, SharedHBase.conf(), snap);
        JvmTime j3 = JvmTime.now();
        double inSparkTasks = taskCpu.secondsSince(m2, 1);
        tasksToSpark[round - 1] = readTasks / inSparkTasks;
        sameRows(streamed, raw);
        if (inSpark.cells() != raw.cells()) {
          throw new IllegalStateException(
              "the raw pass read " + raw.cells() + " cells, as a Spark job " + inSpark.cells());
        }
        ratio[round - 1] = streamed.seconds() / raw.seconds();
        toSpark[round - 1] = streamed.seconds() / inSpark.seconds();
        System.out.printf(
            "BENCH read round %d%s: read as cells %.2f s (%s), raw HFile pass %.2f s (%s; %,d"
                + " cells), the raw pass as a Spark job %.2f s (%s); read/raw = %.2fx,"
                + " read/raw in Spark = %.2fx; tasks' CPU %.2f s against %.2f s = %.2fx%n",
            round,
            round <= WarmRounds.warm(ratio.length) ? " (warm-up)" : "",
            streamed.seconds(),
            streamed.jvm(),
            raw.seconds(),
            j2.since(j1),
            raw.cells(),
            inSpark.seconds(),
            j3.since(j2),
            ratio[round - 1],
            toSpark[round - 1],
            readTasks,
            inSparkTasks,
            tasksToSpark[round - 1]);
      }
      System.out.printf(
          "BENCH read/raw %s: %s%n", WarmRounds.counted(ratio.length), WarmRounds.summary(ratio));
      System.out.printf(
          "BENCH read/raw in Spark %s: %s%n",
          WarmRounds.counted(ratio.length), WarmRounds.summary(toSpark));
      System.out.printf(
          "BENCH read/raw in Spark, tasks' CPU, %s: %s%n",
          WarmRounds.counted(ratio.length), WarmRounds.summary(tasksToSpark));
      return;
    }
    if ("repeat".equals(variants)) {
      // the two floors, the default rekey path and the reordering migration, rounds interleaved in
      // one JVM: the same-round ratios a change to the write path is judged by, without the
      // baselines' ten minutes (-Dbench.repeatRounds, default 3; the first -Dbench.warmRounds,
      // default 1, warm the JIT up and are left out of the medians: WarmRounds)
      int rounds = Integer.getInteger("bench.repeatRounds", 3);
      FloorTarget target = FloorTarget.of(admin, saltSplits);
      double[] toFloor = new double[rounds];
      double[] toRaw = new double[rounds];
      for (int round = 1; round <= rounds; round++) {
        double[] floor = floorRound(jsc, snap, minPartitions, target, round, rounds);
        Rekeyed rekey = rekeyPass(admin, snap, v1, v2, saltSplits, "bench_rekey", b -> b);
        Rekeyed reorder = rekeyPass(admin, snap, v1, entity, entitySplits, "bench_entity", b -> b);
        Pass streamed = streamedPass(jsc, snap, minPartitions);
        HFileFloor.Pass raw = HFileFloor.read(SharedHBase.conf(), snap, 2);
        sameRows(streamed, raw);
        double rs = rekey.pass().seconds();
        toFloor[round - 1] = rs / floor[0];
        toRaw[round - 1] = rs / floor[1];
        System.out.printf(
            "BENCH round %d: rekey %s, reordering %s; rekey/floor = %.2fx, rekey/raw floor ="
                + " %.2fx; read as cells %.2f s, raw HFile pass %.2f s, read/raw = %.2fx%n",
            round,
            describe(rekey.pass(), rekey.result()),
            describe(reorder.pass(), reorder.result()),
            toFloor[round - 1],
            toRaw[round - 1],
            streamed.seconds(),
            raw.seconds(),
            streamed.seconds() / raw.seconds());
        boolean warmUp = round <= WarmRounds.warm(rounds);
        record(round, warmUp, rows, REKEY, FLOOR, rs, floor[0], 1 / 1.4);
        record(round, warmUp, rows, REKEY, RAW_FLOOR, rs, floor[1], null);
      }
      System.out.printf(
          "BENCH rekey/floor %s: %s; rekey/raw floor: %s%n",
          WarmRounds.counted(rounds), WarmRounds.summary(toFloor), WarmRounds.summary(toRaw));
      return;
    }
    if (!all) {
      Rekeyed rekey = rekeyPass(admin, snap, v1, v2, saltSplits, "bench_rekey", b -> b);
      System.out.printf(
          "BENCH rekey (HFiles + bulk load): %s%n", describe(rekey.pass(), rekey.result()));
      return;
    }

    if ("baselines"
        .equals(System.getProperty("bench.variants"))) { // a quick check that the baselines run
      System.out.printf(
          "BENCH baselines: hbase-spark %s, MapReduce %s%n",
          hbaseSparkPass(
              jsc,
              admin,
              snap,
              minPartitions,
              new Rekeyer(v1, v2),
              target(admin, "bench_hbspark", saltSplits)),
          mapReducePass(snap, v1File, v2File, target(admin, "bench_mr", saltSplits)));
      return;
    }
    // the floor: one read pass of the snapshot through the same reader, nothing written
    Pass read =
        timed(
            () -> {
              try (RegionRead rr =
                  RegionReader.snapshot(snap)
                      .minPartitions(minPartitions)
                      .open(jsc, SharedHBase.conf())) {
                return rr.rows().count();
              }
            });
    // the read of the in-order path: the same rows streamed as cells, no Result per row
    Pass streamed = streamedPass(jsc, snap, minPartitions);
    // below it: HBase's HFile reader over the snapshot's store files, 2 threads (issue 15's floor)
    HFileFloor.Pass raw = HFileFloor.read(SharedHBase.conf(), snap, 2);
    sameRows(streamed, raw);
    Floors floors = floors(jsc, admin, snap, saltSplits, minPartitions);

    Rekeyed rekey = rekeyPass(admin, snap, v1, v2, saltSplits, "bench_rekey", b -> b);
    Rekeyed sorted =
        rekeyPass(admin, snap, v1, v2, saltSplits, "bench_sorted", b -> b.sortAlways(true));
    Rekeyed rowsChecked =
        rekeyPass(admin, snap, v1, v2, saltSplits, "bench_verrows", b -> b.verifyRows(true));
    Rekeyed reorder = rekeyPass(admin, snap, v1, entity, entitySplits, "bench_entity", b -> b);

    // the baselines, each on the salting migration into a fresh 16-region telemetry-v2 target
    Rekeyer toV2 = new Rekeyer(v1, v2);
    TableName hsTable = target(admin, "bench_hbspark", saltSplits);
    Pass hbaseSpark = hbaseSparkPass(jsc, admin, snap, minPartitions, toV2, hsTable);
    TableName mrTable = target(admin, "bench_mr", saltSplits);
    Pass mapReduce = mapReducePass(snap, v1File, v2File, mrTable);
    // last: the Put copy leaves memstores to flush and compact behind it
    TableName putTable = target(admin, "bench_put", saltSplits);
    Pass put =
        timed(() -> PutCopy.run(jsc, SharedHBase.conf(), snap, minPartitions, toV2, putTable));

    // untimed: the baselines verify nothing themselves, so count what they loaded (rekey's own
    // verification checks
    // its loads)
    System.out.printf(
        "baselines loaded (rows counted after): hbase-spark %,d, MapReduce %,d, Put copy %,d%n",
        countRows(jsc, hsTable), countRows(jsc, mrTable), countRows(jsc, putTable));
    System.out.printf(
        "BENCH rekey (HFiles + bulk load): %s%n", describe(rekey.pass(), rekey.result()));
    System.out.printf(
        "BENCH rekey sorted path (sortAlways): %s%n", describe(sorted.pass(), sorted.result()));
    System.out.printf(
        "BENCH rekey in source order + verifyRows: %s%n",
        describe(rowsChecked.pass(), rowsChecked.result()));
    System.out.printf(
        "BENCH rekey reordering v1 -> telemetry-entity: %s%n",
        describe(reorder.pass(), reorder.result()));
    System.out.printf(
        "BENCH put copy (BufferedMutator): %.1f s, %,.0f rows/s, peak heap %d MB%n",
        put.seconds(), put.rate(), put.peakMb());
    System.out.printf(
        "BENCH hbase-spark bulkLoad + BulkLoadHFiles (loses cell timestamps): %.1f s, %,.0f rows/s,"
            + " peak heap %d MB%n",
        hbaseSpark.seconds(), hbaseSpark.rate(), hbaseSpark.peakMb());
    System.out.printf(
        "BENCH MapReduce HFileOutputFormat2 (LocalJobRunner 2+2 slots) + BulkLoadHFiles: %.1f s,"
            + " %,.0f rows/s, peak heap %d MB%n",
        mapReduce.seconds(), mapReduce.rate(), mapReduce.peakMb());
    System.out.printf(
        "BENCH read-only pass (floor): %.1f s, %,.0f rows/s%n", read.seconds(), read.rate());
    System.out.printf(
        "BENCH read-only pass, rows streamed as cells (the in-order path's read): %.1f s, %,.0f"
            + " rows/s%n",
        streamed.seconds(), streamed.rate());
    System.out.printf(
        "BENCH raw HFile pass (%d files, %,d cells, 2 threads): %.1f s, %,.0f rows/s; read pass / raw"
            + " = %.2fx, streamed / raw = %.2fx%n",
        raw.files(),
        raw.cells(),
        raw.seconds(),
        raw.rowsPerSecond(),
        read.seconds() / raw.seconds(),
        streamed.seconds() / raw.seconds());
    double floor = floors.sparkMedian();
    double rawFloor = floors.rawMedian();
    System.out.printf(
        "BENCH read + HFile write in source order (floor of any bulk load), median of %d warm"
            + " rounds: %.2f s, %,.0f rows/s; without Spark (HFile reader and writer, a thread per"
            + " core): %.2f s, %,.0f rows/s; Put copy / floor = %.2fx%n",
        floors.spark().length,
        floor,
        read.rows() / floor,
        rawFloor,
        read.rows() / rawFloor,
        put.seconds() / floor);
    double rs = rekey.pass().seconds();
    double os = reorder.pass().seconds();
    System.out.printf(
        "BENCH ratio rekey/put = %.2fx (beyond the read pass: %.2fx)%n",
        put.seconds() / rs,
        (put.seconds() - read.seconds()) / Math.max(0.001, rs - read.seconds()));
    System.out.printf(
        "BENCH ratio rekey/floor = %.2fx (target <= 1.4x), rekey/raw floor = %.2fx%n",
        rs / floor, rs / rawFloor);
    System.out.printf(
        "BENCH ratio sorted path / in source order = %.2fx; verifyRows / files = %.2fx%n",
        sorted.pass().seconds() / rs, rowsChecked.pass().seconds() / rs);
    System.out.printf("BENCH ratio reordering/put = %.2fx (target >= 3x)%n", put.seconds() / os);
    System.out.printf(
        "BENCH ratio hbase-spark/rekey = %.2fx, hbase-spark/reordering = %.2fx (target >= 1.5x)%n",
        hbaseSpark.seconds() / rs, hbaseSpark.seconds() / os);
    System.out.printf(
        "BENCH ratio mapreduce/rekey = %.2fx, mapreduce/reordering = %.2fx (target >= 1.5x)%n",
        mapReduce.seconds() / rs, mapReduce.seconds() / os);
    // the machine-readable results the benchmarks notebook draws (bench/record.py); every ratio is
    // "higher is better", so the floor target <= 1.4x is recorded as floor/rekey >= 1/1.4
    String sortedPath = "rekey backfill, sorted path (sortAlways)";
    String verified = "rekey backfill, in source order, verifyRows";
    record(1, false, rows, REKEY, PUT, rs, put.seconds(), 5.0);
    record(1, false, rows, sortedPath, PUT, sorted.pass().seconds(), put.seconds(), 5.0);
    record(1, false, rows, verified, PUT, rowsChecked.pass().seconds(), put.seconds(), 5.0);
    record(1, false, rows, REKEY, FLOOR, rs, floor, 1 / 1.4);
    record(1, false, rows, REKEY, RAW_FLOOR, rs, rawFloor, null);
    record(1, false, rows, REORDER, PUT, os, put.seconds(), 3.0);
    record(1, false, rows, REKEY, HBASE_SPARK, rs, hbaseSpark.seconds(), 1.5);
    record(1, false, rows, REORDER, HBASE_SPARK, os, hbaseSpark.seconds(), 1.5);
    record(1, false, rows, REKEY, MAPREDUCE, rs, mapReduce.seconds(), 1.5);
    record(1, false, rows, REORDER, MAPREDUCE, os, mapReduce.seconds(), 1.5);
  }

  // the records' names of what was timed (bench/record.py)
  private static final String REKEY = "rekey backfill (HFiles + bulk load + verify)";
  private static final String REORDER = "rekey reordering backfill (telemetry-entity, sorted)";
  private static final String PUT = "Put copy through BufferedMutator";
  private static final String FLOOR =
      "floor: read + HFile write in source order, warm (ratio floor/rekey)";
  private static final String RAW_FLOOR =
      "raw floor without Spark: HFile reader + writer, a thread per core (ratio floor/rekey)";
  private static final String HBASE_SPARK = "hbase-spark bulkLoad + BulkLoadHFiles";
  private static final String MAPREDUCE = "MapReduce HFileOutputFormat2 + BulkLoadHFiles";

  private static long countRows(JavaSparkContext jsc, TableName t) throws Exception {
    try (RegionRead rr = RegionReader.table(t).keysOnly().open(jsc, SharedHBase.conf())) {
      return rr.rows().count();
    }
  }

  /** A rekey backfill's timing and its result. */
  record Rekeyed(Pass pass, BackfillResult result) {}

  /**
   * rekey from the snapshot into a fresh target pre-split at {@code splits}, with the options
   * {@code tune} sets.
   */
  private static Rekeyed rekeyPass(
      Admin admin,
      String snap,
      KeyLayout from,
      KeyLayout to,
      List<byte[]> splits,
      String prefix,
      UnaryOperator<BackfillOptions.Builder> tune)
      throws Exception {
    TableName t = target(admin, prefix, splits);
    BackfillResult[] result = new BackfillResult[1];
    Pass pass =
        timed(
            () -> {
              result[0] =
                  new Backfill(
                          SharedSpark.session(),
                          SharedHBase.conf(),
                          tune.apply(
                                  BackfillOptions.builder()
                                      .sourceSnapshot(snap)
                                      .sourceLayout(from)
                                      .targetTable(t.getNameAsString())
                                      .targetLayout(to)
                                      .staging(
                                          SharedHBase.runRoot()
                                              .resolve("bench-staging-" + prefix)
                                              .toString()))
                              .build())
                      .execute();
              return result[0].accounting().written();
            });
    System.out.println(String.join("\n", result[0].lines()));
    return new Rekeyed(pass, result[0]);
  }

  private static String describe(Pass p, BackfillResult r) {
    return String.format(
        "%.1f s (write %.1f, load %.1f, verify %.1f), %,.0f rows/s, peak heap %d MB (driver+executor,"
            + " local[2])",
        p.seconds(), r.writeSeconds(), r.loadSeconds(), r.verifySeconds(), p.rate(), p.peakMb());
  }

  /**
   * The floors of any bulk-load path, each measured {@code rounds} times in a row ({@link
   * WarmRounds}: the first rounds warm the JIT up and are left out of the medians): read + HFile
   * write in source order as a Spark job reading as the backfill does, and the same without Spark
   * (HBase's HFile reader and writer, one thread per core). Both write the target's file settings
   * and shape: a file per target region per read task or store file ({@link WriteFloor}).
   */
  private static Floors floors(
      JavaSparkContext jsc, Admin admin, String snap, List<byte[]> splits, int minPartitions)
      throws Exception {
    FloorTarget target = FloorTarget.of(admin, splits);
    int rounds = Integer.getInteger("bench.floorRounds", 3);
    double[] spark = new double[rounds];
    double[] raw = new double[rounds];
    for (int round = 1; round <= rounds; round++) {
      double[] f = floorRound(jsc, snap, minPartitions, target, round, rounds);
      spark[round - 1] = f[0];
      raw[round - 1] = f[1];
    }
    return new Floors(WarmRounds.steady(spark), WarmRounds.steady(raw));
  }

  /** The target the floors write for (the salting target's settings) and its region count. */
  record FloorTarget(TableDescriptor descriptor, int regions) {
    static FloorTarget of(Admin admin, List<byte[]> splits) throws Exception {
      TableName t = target(admin, "bench_floor", splits);
      return new FloorTarget(admin.getDescriptor(t), admin.getRegions(t).size());
    }
  }

  /** One round of both floors, printed: {Spark floor seconds, raw floor seconds}. */
  private static double[] floorRound(
      JavaSparkContext jsc,
      String snap,
      int minPartitions,
      FloorTarget target,
      int round,
      int rounds)
      throws Exception {
    int cores = Runtime.getRuntime().availableProcessors();
    JvmTime j0 = JvmTime.now();
    HFileFloor.Pass s =
        WriteFloor.spark(
            jsc,
            SharedHBase.conf(),
            snap,
            minPartitions,
            target.descriptor(),
            target.regions(),
            floorDir());
    JvmTime j1 = JvmTime.now();
    HFileFloor.Pass r =
        WriteFloor.raw(
            SharedHBase.conf(), snap, cores, target.descriptor(), target.regions(), floorDir());
    JvmTime j2 = JvmTime.now();
    if (s.cells() != r.cells()) {
      throw new IllegalStateException(
          "the Spark floor wrote " + s.cells() + " cells, the raw floor " + r.cells());
    }
    System.out.printf(
        "BENCH floor round %d%s: read + HFile write in source order %.2f s (%s), without Spark"
            + " %.2f s (%s; %d store files, %d threads, %,d cells)%n",
        round,
        round <= WarmRounds.warm(rounds) ? " (warm-up)" : "",
        s.seconds(),
        j1.since(j0),
        r.seconds(),
        j2.since(j1),
        r.files(),
        cores,
        r.cells());
    return new double[] {s.seconds(), r.seconds()};
  }

  /** The floors' steady rounds, in seconds. */
  record Floors(double[] spark, double[] raw) {
    double sparkMedian() {
      return WarmRounds.median(spark);
    }

    double rawMedian() {
      return WarmRounds.median(raw);
    }
  }

  private static Path floorDir() {
    return new Path(SharedHBase.runRoot().resolve("bench-floor-" + System.nanoTime()).toUri());
  }

  /** The snapshot read as the in-order path reads it, its rows counted. */
  static Pass streamedPass(JavaSparkContext jsc, String snap, int minPartitions) throws Exception {
    return timed(
        () -> {
          try (RegionRead rr =
              RegionReader.snapshot(snap)
                  .minPartitions(minPartitions)
                  .open(jsc, SharedHBase.conf())) {
            return StreamedCount.rows(rr);
          }
        });
  }

  private static void sameRows(Pass streamed, HFileFloor.Pass raw) {
    if (streamed.rows() != raw.rows()) {
      throw new IllegalStateException(
          "the streamed read counted " + streamed.rows() + " rows, the raw pass " + raw.rows());
    }
  }

  /** A fresh target pre-split at {@code splits}, family d (the benches' targets). */
  static TableName target(Admin admin, String prefix, List<byte[]> splits) throws Exception {
    TableName t = SharedHBase.uniqueTable(prefix);
    TableCreator.table(t)
        .families(List.of(FamilySpec.parse("d")))
        .splitPoints(splits)
        .create(admin);
    return t;
  }
}
