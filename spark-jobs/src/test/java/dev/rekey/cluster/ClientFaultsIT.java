package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.client.BucketReadException;
import dev.rekey.client.Column;
import dev.rekey.client.DualWriteException;
import dev.rekey.client.DualWriter;
import dev.rekey.client.FailedWrite;
import dev.rekey.client.LayoutReader;
import dev.rekey.client.MergedScan;
import dev.rekey.client.ReadQuery;
import dev.rekey.client.ReadSwitch;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.Poll;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.RegionSpread;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.embedded.ClusterStack;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.TableContents;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The client library's promises with a RegionServer SIGKILLed under it, on the pseudo-distributed
 * cluster (two RegionServers on HDFS): a merged bucket read is complete and in order or fails, a
 * dual writer's acknowledged rows are in both tables, a shadow read with the new table down is
 * served from the old one and counted. Tier {@code cluster} (bin/test -Dgroups=cluster).
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClientFaultsIT {
  private static final Path DIR = ClusterTier.DIR;
  private static final TableName OLD = TableName.valueOf("client_faults_v1");
  private static final TableName NEW = TableName.valueOf("client_faults_v2");
  private static final byte[] D = Bytes.toBytes("d");
  private static final byte[] V = Bytes.toBytes("v");
  private static final long DAY = 24L * 3600 * 1000;

  private static ClusterStack cluster;
  private static Connection conn;
  private static final KeyLayout v1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout v2 = Layouts.shipped("telemetry-v2");

  @BeforeAll
  static void start() throws Exception {
    cluster = ClusterTier.start();
    conn = ClusterTier.connect(cluster);
    try (Admin admin = conn.getAdmin()) {
      ClusterTier.dropIfPresent(admin, List.of(OLD, NEW));
      LegacyTelemetryTable.create(
          admin, OLD, new byte[][] {Bytes.toBytes(TelemetryGenerator.DEFAULT_START + DAY / 2)});
      admin.createTable(
          TableDescriptorBuilder.newBuilder(NEW)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
              .build(),
          v2.splitPoints(16).toArray(new byte[0][]));
      RegionSpread.interleave(admin, NEW);
      RegionSpread.interleave(admin, OLD);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    ClusterTier.stop(conn);
  }

  /** Every test leaves both RegionServers running and every region online. */
  @AfterEach
  void bothRegionServersBack() throws Exception {
    for (String rs : List.of("regionserver-1", "regionserver-2")) {
      cluster.restart(rs, Duration.ofSeconds(180));
    }
    Poll.until(
        () -> {
          try (Admin admin = conn.getAdmin()) {
            return admin.getRegionServers().size() == 2
                && admin.isTableAvailable(OLD)
                && admin.isTableAvailable(NEW)
                && admin.getClusterMetrics().getRegionStatesInTransition().isEmpty();
          }
        },
        Duration.ofMinutes(3),
        Duration.ofMillis(500),
        () -> new IllegalStateException("regions not back online within 3 min"));
  }

  @Test
  @Order(1)
  void aMergedBucketReadWithARegionServerKilledIsCompleteAndInOrderOrFails() throws Exception {
    TelemetryGenerator gen = TelemetryGenerator.oneDay(40_000, 200);
    writeBoth(gen, 0, gen.rows());
    ReadQuery day =
        ReadQuery.window(TelemetryGenerator.DEFAULT_START, TelemetryGenerator.DEFAULT_START + DAY);
    try (LayoutReader reader = LayoutReader.open(conn, NEW, v2)) {
      List<String> clean = keys(reader.scan(day));
      assertEquals(gen.rows(), clean.size(), "a clean read returns every row");

      List<String> underFault = new ArrayList<>();
      Optional<BucketReadException> failed = Optional.empty();
      long killed = 0;
      try (MergedScan rows = reader.open(day)) {
        while (rows.hasNext()) {
          underFault.add(Bytes.toHex(rows.next().getRow()));
          if (underFault.size() == 2_000) {
            killed = cluster.kill("regionserver-1"); // mid-read: 14 of 16 buckets still streaming
          }
        }
      } catch (BucketReadException e) {
        failed = Optional.of(e);
      }
      assertTrue(killed > 0, "a RegionServer was killed during the read");
      System.out.println(
          "read under the kill: "
              + failed.map(e -> "failed: " + e.getMessage()).orElse(underFault.size() + " rows"));
      if (failed.isPresent()) {
        assertTrue(
            failed.get().getMessage().contains(NEW.getNameAsString()),
            "the failure names the table: " + failed.get().getMessage());
      } else {
        assertEquals(
            clean,
            underFault,
            "a read that completes returns exactly the clean read's rows, in order");
      }
    }
  }

  @Test
  @Order(2)
  void dualWriterAcknowledgedRowsAreInBothTablesAfterARegionServerKilled() throws Exception {
    TelemetryGenerator gen = TelemetryGenerator.oneDay(30_000, 300);
    int batch = 500;
    Set<Long> acknowledged = new HashSet<>();
    List<String> failures = new ArrayList<>();
    long killedAt = -1;
    try (DualWriter writer = DualWriter.builder(conn).oldTable(OLD, v1).newTable(NEW, v2).build()) {
      for (long from = 0; from < gen.rows(); from += batch) {
        if (from == 10L * batch) {
          killedAt = cluster.kill("regionserver-2");
        }
        // a failed flush names its rows; the same batch written again (same timestamps) is
        // idempotent, so the writer retries it until it is acknowledged
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (true) {
          try {
            for (long i = from; i < from + batch; i++) {
              TelemetryReading r = gen.reading(i);
              writer.mutate(fields(r), List.of(Column.at(D, V, r.ts(), Bytes.toBytes(r.value()))));
            }
            writer.flush();
            break;
          } catch (DualWriteException e) {
            for (FailedWrite f : e.failures()) {
              assertTrue(f.table() != null && f.naturalKey() != null, f.describe());
            }
            failures.add(e.failures().size() + " rows, e.g. " + e.failures().get(0).describe());
            assertTrue(System.nanoTime() < deadline, "the batch was not acknowledged in 3 min");
          }
        }
        for (long i = from; i < from + batch; i++) {
          acknowledged.add(i);
        }
      }
    }
    assertTrue(killedAt > 0, "a RegionServer was killed during the writes");
    System.out.println("flushes that failed and were written again: " + failures);
    assertEquals(gen.rows(), acknowledged.size());
    Map<String, List<String>> old = TableContents.byNaturalKey(conn, OLD, v1);
    Map<String, List<String>> next = TableContents.byNaturalKey(conn, NEW, v2);
    for (long i = 0; i < gen.rows(); i++) {
      TelemetryReading r = gen.reading(i);
      String key = TableContents.naturalKey(v2, v2.encode(fields(r)));
      assertTrue(next.containsKey(key), "acknowledged row " + key + " is in " + NEW);
    }
    assertEquals(old, next, "both tables hold the same rows, cells and timestamps");
  }

  @Test
  @Order(3)
  void shadowReadsWithTheNewTablesRegionServerDownAreServedFromTheOldTableAndCounted()
      throws Exception {
    ServerName oldServer;
    ServerName newServer;
    try (Admin admin = conn.getAdmin()) {
      List<ServerName> servers = new ArrayList<>(admin.getRegionServers());
      servers.sort(java.util.Comparator.comparing(ServerName::getPort));
      ServerName rs2 = serverOf("regionserver-2", servers);
      newServer = rs2;
      oldServer = servers.get(0).equals(rs2) ? servers.get(1) : servers.get(0);
      moveAll(admin, NEW, newServer);
      moveAll(admin, OLD, oldServer);
    }
    Configuration failFast = HBaseConfigs.load(cluster.clientSite());
    failFast.setInt("hbase.client.retries.number", 1);
    failFast.setInt("hbase.rpc.timeout", 2_000);
    failFast.setInt("hbase.client.operation.timeout", 3_000);
    TelemetryGenerator gen = TelemetryGenerator.oneDay(40_000, 200);
    try (Connection newConn = ConnectionFactory.createConnection(failFast);
        LayoutReader oldReader = LayoutReader.open(conn, OLD, v1);
        LayoutReader newReader = LayoutReader.open(newConn, NEW, v2)) {
      ReadSwitch reads = new ReadSwitch(oldReader, newReader, ReadSwitch.Mode.SHADOW);
      cluster.kill("regionserver-2");
      for (int i = 0; i < 50; i++) {
        TelemetryReading r = gen.reading(i * 97L);
        Optional<Result> served = reads.get(fields(r));
        assertTrue(served.isPresent(), "read " + i + " served from the old table");
        assertEquals(
            r.value(),
            Bytes.toLong(served.get().getValue(D, V)),
            "the old table's value is served");
      }
      ReadSwitch.Stats stats = reads.stats();
      assertEquals(50, stats.reads());
      assertTrue(stats.shadowErrors() > 0, "new-table failures are counted: " + stats.line());
      assertFalse(stats.agreed(), stats.line());
      assertEquals(
          0, stats.mismatchedRows(), "a failed new-table read is not compared: " + stats.line());
    }
  }

  /**
   * A Spark job's dual write ({@link dev.rekey.dualwrite.SparkDualWrite}) whose executor is
   * SIGKILLed mid-partition, after that partition's first rows reached both tables: Spark runs the
   * lost tasks again on a new executor, the retry writes the same cells with the same timestamps
   * (the job's one stamp for cells given none), and both tables end equal by natural key, every
   * cell and version: nothing lost, no version twice.
   */
  @Test
  @Order(4)
  void sparkDualWriteWithAnExecutorKilledMidPartitionLosesNothingAndWritesNoVersionTwice()
      throws Exception {
    TableName old = TableName.valueOf("client_faults_sdw_v1");
    TableName neu = TableName.valueOf("client_faults_sdw_v2");
    // a second new table, the device-history one: every record goes to both new tables
    TableName history = TableName.valueOf("client_faults_sdw_by_device");
    KeyLayout byDevice = Layouts.shipped("telemetry-by-device");
    try (Admin admin = conn.getAdmin()) {
      for (TableName t : List.of(old, neu, history)) {
        if (admin.tableExists(t)) {
          admin.disableTable(t);
          admin.deleteTable(t);
        }
      }
      LegacyTelemetryTable.create(
          admin, old, new byte[][] {Bytes.toBytes(TelemetryGenerator.DEFAULT_START + DAY / 2)});
      admin.createTable(
          TableDescriptorBuilder.newBuilder(neu)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
              .build(),
          v2.splitPoints(16).toArray(new byte[0][]));
      admin.createTable(
          TableDescriptorBuilder.newBuilder(history)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
              .build(),
          byDevice.splitPoints(8).toArray(new byte[0][]));
    }
    int rows = 8_000;
    Path work = DIR.resolve("it-dual-write-kill");
    Path markers = work.resolve("markers");
    java.nio.file.Files.createDirectories(work);
    try (var walk = java.nio.file.Files.walk(markers)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (java.nio.file.NoSuchFileException e) {
      // first run
    }
    Path app =
        dev.rekey.testing.TestJar.of(
            work.resolve("dual-write-app.jar"),
            DualWriteApp.class,
            DualWriteApp.Part.class,
            DualWriteApp.Records.class);
    String jars = SharedHBase.sparkJar() + ":" + app;
    Path layouts = SharedHBase.rekeyHome().resolve("conf/layouts");
    List<String> cmd =
        List.of(
            cluster.sparkSubmit().toString(),
            "--master",
            cluster.sparkMasterUrl().orElseThrow(),
            "--deploy-mode",
            "client",
            "--class",
            DualWriteApp.class.getName(),
            "--conf",
            "spark.driver.extraClassPath=" + jars,
            "--conf",
            "spark.executor.extraClassPath=" + jars,
            app.toString(),
            cluster.clientSite().toString(),
            old.getNameAsString(),
            layouts.resolve("telemetry-v1.yaml").toString(),
            neu.getNameAsString(),
            layouts.resolve("telemetry-v2.yaml").toString(),
            Integer.toString(rows),
            "4",
            markers.toString(),
            history.getNameAsString(),
            layouts.resolve("telemetry-by-device.yaml").toString());
    Path log = work.resolve("spark-submit.log");
    Process submit =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Path marker = markers.resolve("half-p0");
    Poll.until(
        () -> java.nio.file.Files.isRegularFile(marker) || !submit.isAlive(),
        Duration.ofMinutes(5),
        Duration.ofMillis(200),
        () ->
            new IllegalStateException("partition 0 did not reach its half-way point; see " + log));
    assertTrue(submit.isAlive(), "the job waits at partition 0's half-way point; see " + log);
    long pid = Long.parseLong(java.nio.file.Files.readString(marker).trim());
    long writtenBeforeKill = TableContents.byNaturalKey(conn, neu, v2).size();
    ProcessHandle executor = ProcessHandle.of(pid).orElseThrow();
    assertTrue(
        PseudoCluster.commandLine(executor).contains("CoarseGrainedExecutorBackend"),
        "the marker names an executor JVM");
    executor.destroyForcibly();
    assertTrue(submit.waitFor(10, java.util.concurrent.TimeUnit.MINUTES), "the job ends; " + log);
    String out = java.nio.file.Files.readString(log);
    System.out.println(
        "rows in the new table when the executor was killed: "
            + writtenBeforeKill
            + "; the job: "
            + out.lines().filter(l -> l.startsWith("written=")).findFirst().orElse("?"));
    assertEquals(0, submit.exitValue(), "the job succeeds after the kill; see " + log);
    assertTrue(out.contains("written=" + rows), "every record written once it succeeded: " + log);
    assertTrue(writtenBeforeKill > 0, "the killed task had written rows, which its retry rewrote");
    assertTrue(
        out.contains("ExecutorLostFailure")
            || out.contains("lost executor")
            || out.contains("Lost executor"),
        "Spark saw the executor lost: " + log);

    Map<String, List<String>> oldRows = TableContents.byNaturalKey(conn, old, v1);
    Map<String, List<String>> newRows = TableContents.byNaturalKey(conn, neu, v2);
    assertEquals(rows, oldRows.size(), "every record is in " + old);
    assertEquals(rows, TableContents.cells(oldRows), "one version per record in " + old);
    assertEquals(rows, TableContents.cells(newRows), "one version per record in " + neu);
    assertEquals(oldRows, newRows, "both tables: same natural keys, cells and timestamps");
    Map<String, List<String>> historyRows = TableContents.byNaturalKey(conn, history, byDevice);
    assertEquals(rows, TableContents.cells(historyRows), "one version per record in " + history);
    assertEquals(oldRows, historyRows, "the history table too: same keys, cells and timestamps");
    TelemetryGenerator gen = TelemetryGenerator.oneDay(rows, DualWriteApp.DEVICES);
    for (long i = 0; i < rows; i += 97) {
      TelemetryReading r = gen.reading(i);
      String key = TableContents.naturalKey(v2, v2.encode(fields(r)));
      assertTrue(newRows.containsKey(key), "record " + i + " (" + key + ") is in " + neu);
    }
  }

  private static Map<String, Object> fields(TelemetryReading r) {
    return Map.of("ts", r.ts(), "deviceId", r.deviceId());
  }

  private static void writeBoth(TelemetryGenerator gen, long from, long to) throws IOException {
    try (DualWriter writer = DualWriter.builder(conn).oldTable(OLD, v1).newTable(NEW, v2).build()) {
      for (long i = from; i < to; i++) {
        TelemetryReading r = gen.reading(i);
        writer.mutate(fields(r), List.of(Column.at(D, V, r.ts(), Bytes.toBytes(r.value()))));
      }
      writer.flush();
    }
  }

  private static List<String> keys(List<Result> rows) {
    return rows.stream().map(r -> Bytes.toHex(r.getRow())).toList();
  }

  /**
   * The server the cluster's role runs, by its host and RPC port (on the single host the port alone
   * tells the two apart, and HBase may name the host otherwise than the cluster does).
   */
  private static ServerName serverOf(String role, List<ServerName> servers) {
    ClusterStack.Endpoint at = cluster.endpoint(role).orElseThrow();
    List<ServerName> onPort = servers.stream().filter(s -> s.getPort() == at.port()).toList();
    return (onPort.size() == 1
            ? onPort.stream()
            : onPort.stream().filter(s -> s.getHostname().equals(at.host())))
        .findFirst()
        .orElseThrow(() -> new AssertionError(role + " (" + at + ") not in " + servers));
  }

  private static void moveAll(Admin admin, TableName table, ServerName to) throws IOException {
    for (RegionInfo r : admin.getRegions(table)) {
      admin.move(r.getEncodedNameAsBytes(), to);
    }
  }
}
