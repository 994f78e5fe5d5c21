package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rekey.common.Poll;
import dev.rekey.demo.ClusterSubmit;
import dev.rekey.demo.DemoTables;
import dev.rekey.demo.TableContents;
import dev.rekey.embedded.ClusterStack;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The pseudo-distributed cluster, end to end and as a user drives it: {@code rekey cluster start},
 * the demo's backfill / analyze / reconcile / scan through the cluster's spark-submit (standalone
 * cluster deploy mode and YARN), a RegionServer killed while a scan runs, {@code rekey cluster
 * stop}. Tier {@code cluster}: excluded from the default suite (it costs minutes, see
 * docs/cluster.md); run it with {@code bin/test -Dgroups=cluster}.
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PseudoClusterIT {
  private static final String ROWS = "20000";
  private static final Path DIR = ClusterTier.DIR;
  private static ClusterStack cluster;

  @BeforeAll
  static void start() throws Exception {
    if (ClusterTier.onHosts()) {
      // the several-host stack its runner started (SeveralHostsTierIT), seen from its gateway
      cluster = ClusterTier.start();
      return;
    }
    cluster = new PseudoCluster(DIR, System.out::println);
    if (cluster.processes().stream().noneMatch(s -> s.pid().isPresent())) {
      // each run starts from an empty cluster: no tables, staging dirs or reports of an earlier run
      try (var walk = Files.walk(DIR)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (java.nio.file.NoSuchFileException e) {
        // first run
      }
    }
    ClusterTier.rekey("cluster", "start");
  }

  @AfterAll
  static void stop() throws Exception {
    if (ClusterTier.onHosts()) {
      return; // its runner stops the stack
    }
    ClusterTier.rekey("cluster", "stop");
    assertTrue(
        cluster.processes().stream().noneMatch(s -> s.pid().isPresent()),
        "every process of the cluster is gone after stop: " + cluster.processes());
  }

  @Test
  @Order(1)
  void statusListsEveryProcessWithItsPidAndPortAndTheClientConfig() throws Exception {
    RekeyProcess.Result r = RekeyProcess.run(120, "cluster", "status");
    assertEquals(0, r.exitCode(), r.all());
    // written out here, not taken from the stack: a role the launcher drops must fail this
    String roles =
        ClusterTier.onHosts()
            ? "namenode zookeeper hbase-master resourcemanager spark-master datanode-1"
                + " regionserver-1 nodemanager-1 spark-worker-1 datanode-2 regionserver-2"
                + " nodemanager-2 spark-worker-2"
            : "namenode datanode zookeeper hbase-master regionserver-1 regionserver-2"
                + " resourcemanager nodemanager spark-master spark-worker";
    for (String role : roles.split(" ")) {
      assertTrue(
          r.stdout()
              .lines()
              // the several-host stack's lines start with the host and its address
              .anyMatch(
                  l -> l.matches("(\\S+\\s+\\S+\\s+)?" + role + "\\s+\\d+\\s+\\d+\\s+.*\\.log")),
          role + " listed with pid, port and log:\n" + r.stdout());
    }
    assertTrue(r.stdout().contains("client config: " + cluster.clientSite()), r.stdout());
    assertTrue(
        Files.readString(cluster.clientSite())
            .contains(ClusterTier.onHosts() ? "hdfs://master:" : "hdfs://127.0.0.1:"),
        "HBase is rooted on HDFS");
  }

  @Test
  @Order(2)
  void demoRunsEveryJobThroughSparkSubmitOnTheCluster() throws Exception {
    RekeyProcess.Result r =
        RekeyProcess.run(3600, "demo", "--cluster", "--rows", ROWS, "--devices", "50");
    System.out.println(r.all());
    assertEquals(0, r.exitCode(), r.all());
    String out = r.stdout();
    assertTrue(
        out.matches("(?s).*driver driver-\\S+: FINISHED \\(staging hdfs://.*"),
        "backfill ran as a standalone cluster-mode driver with HDFS staging:\n" + out);
    // both tables from one read: 16 regions each, every one verified, every row accounted for
    assertEquals(32, out.lines().filter(l -> l.trim().endsWith("VERIFIED")).count(), out);
    String rows = String.format("%,d", Integer.parseInt(ROWS));
    for (String table : List.of("telemetry_v2", "telemetry_by_device")) {
      assertTrue(
          out.contains(
              "Backfill of " + table + " from snapshot telemetry_v1_snap (staging hdfs://"),
          out);
    }
    assertTrue(
        out.lines()
            .filter(l -> l.contains(" = written "))
            .allMatch(l -> l.contains("read " + rows + " = written " + rows + " + quarantined 0")),
        out);
    assertTrue(
        out.contains("16 buckets' last regions sit on 2 of 2 RegionServer(s)"),
        "analyze saw the salt tails on both servers:\n" + out);
    assertEquals(
        2,
        out.lines().filter(l -> l.contains("MATCH: all 24 buckets agree")).count(),
        "telemetry_v1 matches telemetry_v2 and telemetry_by_device:\n" + out);
    // the planted damage found and put back in both tables (3 rows of 2 cells; 3 changed cells)
    assertTrue(out.contains("deleted 3 rows of telemetry_v2"), out);
    assertTrue(out.contains("changed 3 readings' values in telemetry_by_device"), out);
    assertTrue(
        out.contains("repair: 6 cells put, 0 deleted; every repaired bucket matches now"), out);
    assertTrue(
        out.contains("repair: 3 cells put, 0 deleted; every repaired bucket matches now"), out);
    assertTrue(
        out.contains("same readings, newest first, on both tables: yes"),
        "one device's history is the same from both tables:\n" + out);
    assertTrue(out.contains("Scanned table telemetry_v2"), out);
    // the entity-first events table's day: every region read, the other days' files skipped
    assertTrue(
        out.matches("(?s).*store files: [\\d,]+ read, [1-9][\\d,]* skipped by time range.*"),
        "the day's scan of events_v2 skipped the other days' store files:\n" + out);
    assertTrue(
        Files.readString(DIR.resolve("demo/logs/scan-events.log")).contains("application_"),
        "the events scan ran as a YARN application");
    assertTrue(
        Files.readString(DIR.resolve("demo/logs/scan.log")).contains("application_"),
        "the scan ran as a YARN application");
    // and this test's own client of the cluster: the old table equals each new one by natural key
    try (Connection conn = ClusterTier.connect(cluster)) {
      Map<String, List<String>> old =
          TableContents.byNaturalKey(
              conn, DemoTables.TELEMETRY_V1, Layouts.shipped("telemetry-v1"));
      assertEquals(Integer.parseInt(ROWS), old.size());
      assertEquals(
          old,
          TableContents.byNaturalKey(
              conn, DemoTables.TELEMETRY_V2, Layouts.shipped("telemetry-v2")));
      assertEquals(
          old,
          TableContents.byNaturalKey(
              conn, DemoTables.TELEMETRY_BY_DEVICE, Layouts.shipped("telemetry-by-device")));
    }
  }

  /**
   * A telemetry-v2 table pre-split by salt on the cluster, created through `rekey create-table`.
   */
  private static String createSaltedTarget(String table) throws Exception {
    RekeyProcess.Result created =
        RekeyProcess.run(
            120,
            "create-table",
            "--hbase-site",
            cluster.clientSite().toString(),
            "--table",
            table,
            "--layout",
            "telemetry-v2",
            "--splits",
            "salt",
            "--family",
            "d");
    assertEquals(0, created.exitCode(), created.all());
    return table;
  }

  @Test
  @Order(3)
  void backfillCommitsNoDuplicateOrPartialHFileWhenAnExecutorIsKilledMidWrite() throws Exception {
    String target = createSaltedTarget("telemetry_v2_executor_kill");
    // staging where the test sees task attempts' files appear: local on the single host, HDFS on
    // several
    String staging = ClusterTier.scratch(cluster, "it-staging-executor-kill");
    Path jar = SharedHBase.sparkJar();
    ClusterSubmit submit = new ClusterSubmit(cluster.sparkSubmit(), jar, DIR.resolve("it-logs"));
    AtomicLong killed = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    CompletableFuture<Void> killer =
        CompletableFuture.runAsync(
            () -> killAnExecutorOnceHFilesAreBeingWritten(staging, killed, done));
    List<String> lines = new ArrayList<>();
    ClusterSubmit.Outcome o =
        submit.run(
            "backfill-executor-kill",
            cluster.sparkMasterUrl().orElseThrow(),
            false,
            backfillArgs(target, staging),
            lines::add);
    done.set(true);
    killer.join();
    String out = String.join("\n", lines);
    assertTrue(killed.get() > 0, "an executor was killed while HFiles were being written:\n" + out);
    assertTrue(
        o.ok(), "the backfill finished despite the lost executor (see " + o.log() + "):\n" + out);
    // one committed HFile per region, every row verified in the table: no duplicate or partial file
    // was loaded
    assertEquals(16, out.lines().filter(l -> l.trim().endsWith("VERIFIED")).count(), out);
    assertTrue(out.contains("16 HFiles; write"), out);
    assertTrue(
        out.contains(
            "read "
                + String.format("%,d", Integer.parseInt(ROWS))
                + " = written "
                + String.format("%,d", Integer.parseInt(ROWS))),
        out);
  }

  /** Polls the staging dir; at the first write task attempt's file, SIGKILLs the executor JVMs. */
  private static void killAnExecutorOnceHFilesAreBeingWritten(
      String staging, AtomicLong killed, AtomicBoolean done) {
    pollUntil(
        () -> {
          if (killed.get() == 0 && attemptFileUnder(staging)) {
            ProcessHandle.allProcesses()
                .filter(
                    p -> {
                      String cmd = PseudoCluster.commandLine(p);
                      return cmd.contains("CoarseGrainedExecutorBackend")
                          && cmd.contains(DIR.toString());
                    })
                // every executor: the one writing is among them, whichever it is (a small source
                // is read by one task)
                .forEach(
                    p -> {
                      p.destroyForcibly();
                      killed.set(p.pid());
                    });
          }
          return killed.get() != 0 || done.get();
        });
  }

  /**
   * True once a write task attempt's file exists: under {@code attempts/} (the in-source-order
   * path, the default here) or the HFile output committer's {@code _temporary/} (the sorted path).
   */
  /** The demo's backfill of telemetry_v1_snap into {@code target}, on the cluster. */
  private static List<String> backfillArgs(String target, String staging) {
    Path layouts = SharedHBase.rekeyHome().resolve("conf/layouts");
    return ClusterSubmit.backfillDemo(
        List.of("--hbase-site", cluster.clientSite().toString()),
        layouts.resolve("telemetry-v1.yaml").toString(),
        target,
        layouts.resolve("telemetry-v2.yaml").toString(),
        staging);
  }

  private static boolean attemptFileUnder(String staging) {
    try {
      return ClusterTier.anyFileUnder(
          staging, p -> p.contains("/attempts/") || p.contains("/_temporary/"));
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      return false; // files come and go while the job runs: look again
    }
  }

  /** The backfill links the files it loads under {@code load/} of its staging right before. */
  private static boolean loadBegun(String staging) {
    try {
      return ClusterTier.exists(staging + "/load");
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /** Polls every 20 ms (a fault is injected the moment its trigger shows) for up to 30 min. */
  private static void pollUntil(Poll.Condition c) {
    try {
      Poll.until(
          c,
          Duration.ofMinutes(30),
          Duration.ofMillis(20),
          () -> new IllegalStateException("the job neither started nor ended in 30 min"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  @Order(4)
  void backfillFinishesOrResumesAfterARegionServerKilledDuringItsLoadAndTheTablesReconcile()
      throws Exception {
    String target = createSaltedTarget("telemetry_v2_load_kill");
    String staging = ClusterTier.scratch(cluster, "it-staging-load-kill");
    Path jar = SharedHBase.sparkJar();
    ClusterSubmit submit = new ClusterSubmit(cluster.sparkSubmit(), jar, DIR.resolve("it-logs"));
    Path layouts = SharedHBase.rekeyHome().resolve("conf/layouts");
    List<String> args = new ArrayList<>(backfillArgs(target, staging));
    AtomicLong killed = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    // the backfill links the files it hands to BulkLoadHFiles under load/ right before the call:
    // kill then
    CompletableFuture<Void> killer =
        CompletableFuture.runAsync(
            () ->
                pollUntil(
                    () -> {
                      if (killed.get() == 0 && loadBegun(staging)) {
                        killed.set(cluster.kill("regionserver-2"));
                      }
                      return killed.get() != 0 || done.get();
                    }));
    List<String> lines = new ArrayList<>();
    ClusterSubmit.Outcome first =
        submit.run(
            "backfill-load-kill", cluster.sparkMasterUrl().orElseThrow(), false, args, lines::add);
    done.set(true);
    killer.join();
    assertTrue(
        killed.get() > 0,
        "regionserver-2 was killed as the load began:\n" + String.join("\n", lines));
    ClusterSubmit.Outcome last = first;
    if (!first.ok() || lines.stream().noneMatch(l -> l.contains("verified=true"))) {
      args.add("--resume");
      lines.add("---- resume ----");
      last =
          submit.run(
              "backfill-load-kill-resume",
              cluster.sparkMasterUrl().orElseThrow(),
              false,
              args,
              lines::add);
    }
    String out = String.join("\n", lines);
    assertTrue(
        last.ok(), "the backfill (or its --resume) finished (see " + last.log() + "):\n" + out);
    assertTrue(out.contains("verified=true"), out);
    ClusterSubmit.Outcome rec =
        submit.run(
            "reconcile-load-kill",
            cluster.sparkMasterUrl().orElseThrow(),
            false,
            ClusterSubmit.reconcileDemoDay(
                List.of("--hbase-site", cluster.clientSite().toString()),
                layouts.resolve("telemetry-v1.yaml").toString(),
                target,
                layouts.resolve("telemetry-v2.yaml").toString(),
                DIR.resolve("it-reconcile-load-kill")),
            lines::add);
    assertTrue(rec.ok(), "digest-equal after the resumed backfill:\n" + String.join("\n", lines));
    assertTrue(
        String.join("\n", lines).contains("MATCH: all 24 buckets agree"), String.join("\n", lines));
    // the next fault needs two servers again
    cluster.restart("regionserver-2", java.time.Duration.ofSeconds(120));
  }

  @Test
  @Order(5)
  void scanSurvivesARegionServerKilledWhileItRuns() throws Exception {
    // the demo's nightly scan of the day, on the cluster's filesystem (ClusterDemo)
    String clean = cluster.defaultFs().orElseThrow() + "/rekey-demo/nightly/scan/summary.json";
    assertTrue(ClusterTier.exists(clean), "needs the demo's clean scan");
    String out = ClusterTier.scratch(cluster, "it-scan-killed");
    Path jar = SharedHBase.sparkJar();
    ClusterSubmit submit = new ClusterSubmit(cluster.sparkSubmit(), jar, DIR.resolve("it-logs"));
    AtomicLong killed = new AtomicLong();
    List<String> lines = new ArrayList<>();
    ClusterSubmit.Outcome o =
        submit.run(
            "scan-killed",
            cluster.sparkMasterUrl().orElseThrow(),
            false,
            List.of(
                "scan",
                "--hbase-site",
                cluster.clientSite().toString(),
                "--table",
                "telemetry_v2",
                "--layout",
                SharedHBase.rekeyHome().resolve("conf/layouts/telemetry-v2.yaml").toString(),
                "--day",
                "2026-11-29",
                "--report",
                SharedHBase.rekeyHome().resolve("sql/device_window_counts.sql").toString(),
                "--out",
                out),
            line -> {
              lines.add(line);
              // the driver prints this line as it starts the region reads: kill one of the two
              // servers now
              if (line.contains("scanning table") && killed.get() == 0) {
                killed.set(cluster.kill("regionserver-1"));
              }
            });
    assertTrue(
        killed.get() > 0,
        "regionserver-1 was killed during the scan:\n" + String.join("\n", lines));
    assertTrue(
        o.ok(),
        "the scan finished despite the dead server (see "
            + o.log()
            + "):\n"
            + String.join("\n", lines));
    assertFalse(cluster.process("regionserver-1").isPresent());
    assertEquals(
        withoutTimings(clean),
        withoutTimings(out + "/summary.json"),
        "the same report as the clean run");
  }

  /**
   * A scan summary without what differs between two runs of the same scan: timings and the output
   * paths.
   */
  private static JsonNode withoutTimings(String summary) throws Exception {
    JsonNode n = new ObjectMapper().readTree(ClusterTier.read(summary));
    strip(n);
    return n;
  }

  private static void strip(JsonNode n) {
    if (n instanceof ObjectNode o) {
      for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (f.toLowerCase().contains("millis")
            || f.toLowerCase().contains("seconds")
            || f.equals("path")
            || f.equals("out")
            || f.toLowerCase().contains("html")
            || f.toLowerCase().contains("dir")) {
          it.remove();
        }
      }
    }
    n.forEach(PseudoClusterIT::strip);
  }
}
