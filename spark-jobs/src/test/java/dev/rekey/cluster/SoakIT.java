package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.client.Column;
import dev.rekey.client.DualWriteException;
import dev.rekey.client.DualWriter;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.Poll;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The bounded soak on the two-server stack: a writer dual-writes at a steady rate (its event clock
 * runs 360 times wall time, so an hour of data closes every 10 s), the old table holding a day of
 * history written before; a snapshot of the old table taken after the writer started is backfilled
 * into the new one (before the first round); {@code reconcile --via-snapshot --digest} runs every
 * two minutes on the closed hours, the history's included; one RegionServer is SIGKILLed half-way
 * and started again while the writer goes on (a failed flush is written again); the scan job runs
 * once. At the end every closed hour reconciles green and every acknowledged row is in both tables,
 * which are equal by natural key, every cell and version.
 *
 * <p>Tag {@code soak}: minutes, so it runs only when asked, {@code mvn verify -pl spark-jobs -am
 * -Dgroups=soak -Dit.test=SoakIT} ({@code -Drekey.soak.minutes=N}, default 10). It writes its
 * record to docs/soak.md (docs/reliability.md, row 70).
 */
@Tag("soak")
class SoakIT {
  private static final Path DIR = SharedHBase.runRoot().resolve("cluster");
  private static final TableName OLD = TableName.valueOf("soak_v1");
  private static final TableName NEW = TableName.valueOf("soak_v2");
  private static final byte[] D = Bytes.toBytes("d");
  private static final byte[] V = Bytes.toBytes("v");
  private static final long HOUR = 3_600_000L;
  private static final long DAY = 24 * HOUR;

  /** Rows per wall second, and event time per row: 1,000 rows an hour, an hour per 10 s. */
  private static final int RATE = 100;

  private static final long SPACING = 3_600;
  private static final int BATCH = 100;
  private static final int DEVICES = 50;

  /** The dual writes' first hour; the history is the day before it. */
  private static final long H0 = TelemetryGenerator.DEFAULT_START + DAY;

  private final List<String> log = new ArrayList<>();
  private final long t0 = System.nanoTime();

  @Test
  void tenMinutesOfDualWritesBackfillReconcilesAndARegionServerKillEndGreenWithNothingLost()
      throws Exception {
    int minutes = Integer.getInteger("rekey.soak.minutes", 10);
    Instant started = Instant.now();
    RekeyProcess.Result up = RekeyProcess.run(600, "cluster", "start");
    assertEquals(0, up.exitCode(), up.all());
    PseudoCluster cluster = new PseudoCluster(DIR, System.out::println);
    String site = cluster.clientSite().toString();
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    TelemetryGenerator history = new TelemetryGenerator(24_000, DEVICES, H0 - DAY, DAY);
    TelemetryGenerator live =
        new TelemetryGenerator(100_000_000L, DEVICES, H0, 100_000_000L * SPACING);
    Path out = DIR.resolve("soak");
    List<String> rounds = new ArrayList<>();
    AtomicLong acked = new AtomicLong(); // rows 0..acked-1 of `live` are acknowledged
    AtomicBoolean stop = new AtomicBoolean();
    List<String> failedFlushes = new ArrayList<>();
    try (Connection conn = ConnectionFactory.createConnection(HBaseConfigs.load(Path.of(site)))) {
      try (Admin admin = conn.getAdmin()) {
        ClusterTier.dropIfPresent(admin, List.of(OLD, NEW));
        for (String s : List.of("soak_v1_snap")) {
          admin.listSnapshots().stream()
              .filter(d -> d.getName().equals(s))
              .findFirst()
              .ifPresent(
                  d -> {
                    try {
                      admin.deleteSnapshot(s);
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  });
        }
        LegacyTelemetryTable.create(admin, OLD, new byte[][] {Bytes.toBytes(H0)});
        admin.createTable(
            TableDescriptorBuilder.newBuilder(NEW)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
                .build(),
            v2.splitPoints(16).toArray(new byte[0][]));
        dev.rekey.demo.RegionSpread.interleave(admin, NEW);
        dev.rekey.demo.RegionSpread.interleave(admin, OLD);
      }
      LegacyTelemetryTable.write(conn, OLD, history, s -> {});
      note("history: %,d rows of the day before %s in %s only", history.rows(), hour(H0), OLD);

      long writerStart = System.nanoTime();
      CompletableFuture<Void> writer =
          CompletableFuture.runAsync(
              () -> write(conn, v1, v2, live, writerStart, acked, stop, failedFlushes));
      note("writer started: %d rows/s, one event hour per 10 s", RATE);

      // a snapshot taken after the writer started, backfilled into the new table
      sleepUntil(Duration.ofMinutes(1));
      try (Admin admin = conn.getAdmin()) {
        admin.snapshot("soak_v1_snap", OLD);
      }
      note("snapshot soak_v1_snap of %s taken (%,d rows acknowledged)", OLD, acked.get());
      long b0 = System.nanoTime();
      RekeyProcess.Result backfill =
          RekeyProcess.run(
              900,
              "backfill",
              "--hbase-site",
              site,
              "--source-snapshot",
              "soak_v1_snap",
              "--source-layout",
              "telemetry-v1",
              "--target-table",
              NEW.getNameAsString(),
              "--target-layout",
              "telemetry-v2");
      note(
          "backfill: exit %d in %.0f s: %s",
          backfill.exitCode(), secs(b0), lastLine(backfill.stdout()));
      assertEquals(0, backfill.exitCode(), backfill.all());

      boolean killed = false;
      boolean scanned = false;
      for (int round = 1; round * 2 <= minutes; round++) {
        Duration at = Duration.ofMinutes(2L * round);
        if (!killed && at.toMinutes() > minutes / 2) {
          sleepUntil(Duration.ofSeconds(minutes * 30L));
          long pid = cluster.kill("regionserver-1");
          note("regionserver-1 (pid %d) SIGKILLed", pid);
          // down until the master has seen it go (its ZooKeeper session expired), not for a guess
          try (Admin admin = conn.getAdmin()) {
            Poll.until(
                () -> admin.getRegionServers().size() == 1,
                Duration.ofSeconds(120),
                Duration.ofMillis(500),
                () -> new IllegalStateException("the master still lists the killed RegionServer"));
          }
          cluster.restart("regionserver-1", Duration.ofSeconds(180));
          note("regionserver-1 started again");
          killed = true;
        }
        if (!scanned && round == 2) {
          long s0 = System.nanoTime();
          RekeyProcess.Result scan =
              RekeyProcess.run(
                  900,
                  "scan",
                  "--hbase-site",
                  site,
                  "--table",
                  NEW.getNameAsString(),
                  "--layout",
                  "telemetry-v2",
                  "--from",
                  Long.toString(H0 - DAY),
                  "--to",
                  Long.toString(closedHoursEnd(acked.get())),
                  "--out",
                  out.resolve("scan").toString());
          note("scan: exit %d in %.0f s: %s", scan.exitCode(), secs(s0), rowsLine(scan.stdout()));
          assertEquals(0, scan.exitCode(), scan.all());
          scanned = true;
        }
        sleepUntil(at);
        rounds.add(reconcile(site, H0 - DAY, closedHoursEnd(acked.get()), out, round));
      }
      stop.set(true);
      writer.join();
      long rows = acked.get();
      note(
          "writer stopped: %,d rows acknowledged in %.0f s, %d flushes failed and were written again",
          rows, secs(writerStart), failedFlushes.size());

      String last = reconcile(site, H0 - DAY, closedHoursEnd(rows), out, 0);
      rounds.add(last);
      assertTrue(last.startsWith("exit 0"), "every closed hour reconciles green: " + last);

      Map<String, List<String>> newRows = TableContents.byNaturalKey(conn, NEW, v2);
      Map<String, List<String>> oldRows = TableContents.byNaturalKey(conn, OLD, v1);
      long missing = 0;
      for (long i = 0; i < rows; i++) {
        TelemetryReading r = live.reading(i);
        String key = TableContents.naturalKey(v2, v2.encode(fields(r)));
        if (!newRows.containsKey(key) || !oldRows.containsKey(key)) {
          missing++;
        }
      }
      note(
          "acknowledged rows missing from either table: %d; old %,d rows, new %,d rows",
          missing, oldRows.size(), newRows.size());
      assertEquals(0, missing, "every acknowledged row is in both tables");
      assertEquals(oldRows, newRows, "both tables equal by natural key, every cell and version");
      record(started, minutes, rows, history.rows(), rounds);
    } finally {
      stop.set(true);
      RekeyProcess.Result down = RekeyProcess.run(300, "cluster", "stop");
      System.out.println(down.all());
    }
  }

  /** Dual-writes `live` rows in acknowledged batches at {@link #RATE}, until stopped. */
  private void write(
      Connection conn,
      KeyLayout v1,
      KeyLayout v2,
      TelemetryGenerator live,
      long start,
      AtomicLong acked,
      AtomicBoolean stop,
      List<String> failedFlushes) {
    try (DualWriter w = DualWriter.builder(conn).oldTable(OLD, v1).newTable(NEW, v2).build()) {
      for (long from = 0; !stop.get(); from += BATCH) {
        // a failed flush names its rows; the batch written again (same timestamps) is idempotent
        while (true) {
          try {
            for (long i = from; i < from + BATCH; i++) {
              TelemetryReading r = live.reading(i);
              w.mutate(fields(r), List.of(Column.at(D, V, r.ts(), Bytes.toBytes(r.value()))));
            }
            w.flush();
            break;
          } catch (DualWriteException e) {
            synchronized (failedFlushes) {
              failedFlushes.add(e.failures().size() + " rows");
            }
          }
        }
        acked.set(from + BATCH);
        long due = start + (from + BATCH) * 1_000_000_000L / RATE;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException("the soak's writer stopped: " + e, e);
    }
  }

  /** One reconcile of [from, to) by the hour, digests on, the live tables through snapshots. */
  private String reconcile(String site, long from, long to, Path out, int round) throws Exception {
    long r0 = System.nanoTime();
    RekeyProcess.Result r =
        RekeyProcess.run(
            900,
            "reconcile",
            "--hbase-site",
            site,
            "--old-table",
            OLD.getNameAsString(),
            "--old-layout",
            "telemetry-v1",
            "--new-table",
            NEW.getNameAsString(),
            "--new-layout",
            "telemetry-v2",
            "--via-snapshot",
            "--digest",
            "--bucket",
            "1h",
            "--from",
            Long.toString(from),
            "--to",
            Long.toString(to),
            "--out",
            out.resolve("reconcile-" + (round == 0 ? "final" : "round-" + round)).toString());
    String line =
        String.format(
            "exit %d, %d closed hours [%s, %s), %.0f s: %s",
            r.exitCode(), (to - from) / HOUR, hour(from), hour(to), secs(r0), verdict(r.stdout()));
    note("reconcile %s: %s", round == 0 ? "final" : "round " + round, line);
    if (r.exitCode() != 0 && r.exitCode() != 3) {
      System.out.println(r.all());
    }
    return line;
  }

  /** The end of the last hour every row of which is acknowledged. */
  private static long closedHoursEnd(long ackedRows) {
    long end = H0 + ackedRows * SPACING;
    return end - Math.floorMod(end - H0, HOUR);
  }

  private static Map<String, Object> fields(TelemetryReading r) {
    return Map.of("ts", r.ts(), "deviceId", r.deviceId());
  }

  private void sleepUntil(Duration at) throws InterruptedException {
    long wait = t0 + at.toNanos() - System.nanoTime();
    if (wait > 0) {
      Thread.sleep(wait / 1_000_000);
    }
  }

  private double secs(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  private void note(String format, Object... args) {
    String line = String.format("%5.0f s  %s", secs(t0), String.format(format, args));
    log.add(line);
    System.out.println("soak: " + line);
  }

  private static String hour(long millis) {
    return Instant.ofEpochMilli(millis).toString().replace(":00:00Z", "Z");
  }

  private static String lastLine(String out) {
    List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1).trim();
  }

  /** Reconcile's verdict line ("MATCH: all N buckets agree ..." or "MISMATCH: ..."). */
  private static String verdict(String out) {
    return out.lines()
        .map(String::trim)
        .filter(l -> l.startsWith("MATCH") || l.startsWith("MISMATCH"))
        .findFirst()
        .orElse(lastLine(out));
  }

  private static String rowsLine(String out) {
    return out.lines().filter(l -> l.contains("rows")).findFirst().orElse(lastLine(out)).trim();
  }

  /** docs/soak.md: this run's record, written by the run itself. */
  private void record(Instant started, int minutes, long rows, long history, List<String> rounds)
      throws Exception {
    StringBuilder b = new StringBuilder();
    b.append("# The bounded soak: its last run\n\n")
        .append(
            "Written by `SoakIT` (the bounded soak, tag `soak`, run only when asked; docs/reliability.md, row 70) at the end of a run that passed:\n")
        .append(
            "`mvn -B verify -pl spark-jobs -am -Dgroups=soak -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false")
        .append(
            " -Dit.test=SoakIT -Dfailsafe.failIfNoSpecifiedTests=false` (`-Drekey.soak.minutes=N`, default 10).\n\n")
        .append(
            String.format(
                "- started %s, %d minutes of dual writes, %.0f s in all (cluster start included)%n",
                started, minutes, secs(t0)))
        .append(
            String.format(
                "- rows: %,d of history in the old table only, %,d dual-written and acknowledged%n",
                history, rows))
        .append(
            String.format(
                "- reconcile rounds (`reconcile --via-snapshot --digest --bucket 1h`; exit 0 green, 3 a mismatch):%n"));
    for (String r : rounds) {
      b.append("  - ").append(r).append('\n');
    }
    b.append("\n## The run, line by line\n\n```\n");
    log.forEach(l -> b.append(l).append('\n'));
    b.append("```\n");
    Files.writeString(SharedHBase.rekeyHome().resolve("docs/soak.md"), b.toString());
  }
}
