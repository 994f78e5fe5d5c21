package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.LayoutFiles;
import dev.rekey.demo.ClusterSubmit;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.embedded.LocalSparkCluster;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The same jar and command line on a real Spark standalone cluster (master + worker processes,
 * executors in their own JVMs that get HBase and rekey only from the application jar): a backfill
 * through bin/rekey --master spark://.
 */
@Tag("e2e")
class StandaloneClusterIT {
  private static final int ROWS = 2_000;
  private static LocalSparkCluster cluster;
  private static String masterUrl;

  @BeforeAll
  static void startCluster() throws Exception {
    SharedHBase.server();
    cluster = new LocalSparkCluster(SharedHBase.runRoot().resolve("spark"), System.out::println);
    masterUrl =
        cluster.start(SharedHBase.sparkDistributionJars(), 1, "1g", Duration.ofSeconds(120));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.stop();
    }
  }

  @Test
  void backfillRunsOnExecutorsOfAStandaloneCluster() throws Exception {
    TableName source = SharedHBase.uniqueTable("cluster_v1");
    TableName target = SharedHBase.uniqueTable("cluster_v2");
    String snapshot = source.getNameAsString() + "_snap";
    TelemetryGenerator gen = TelemetryGenerator.oneDay(ROWS, 20);
    KeyLayout v2 = LayoutFiles.load("telemetry-v2", "test");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      LegacyTelemetryTable.create(admin, source);
      try (Table t = SharedHBase.connection().getTable(source)) {
        List<Put> puts = new ArrayList<>();
        for (long i = 0; i < ROWS; i++) {
          puts.add(LegacyTelemetryTable.put(gen.reading(i)));
        }
        t.put(puts);
      }
      ClusterTier.snapshotAndSaltedTarget(admin, source, snapshot, target, v2);
    }

    Path staging = SharedHBase.runRoot().resolve("cluster-staging-" + target.getNameAsString());
    RekeyProcess.Result r =
        RekeyProcess.run(
            600,
            ClusterSubmit.backfill(
                    ClusterTier.onStandalone(masterUrl, SharedHBase.sparkJar().toString()),
                    snapshot,
                    "telemetry-v1",
                    target.getNameAsString(),
                    "telemetry-v2",
                    staging.toString())
                .toArray(String[]::new));
    assertEquals(0, r.exitCode(), r.all());
    assertTrue(
        r.stdout().contains("read 2,000 = written 2,000 + quarantined 0 + filtered 0"), r.all());
    assertTrue(
        Files.list(SharedHBase.runRoot().resolve("spark/work")).findAny().isPresent(),
        "the worker ran executors for the application");

    try (Table t = SharedHBase.connection().getTable(target)) {
      for (long i = 0; i < ROWS; i += 97) {
        TelemetryReading reading = gen.reading(i);
        byte[] key = v2.encode(Map.of("ts", reading.ts(), "deviceId", reading.deviceId()));
        Result row = t.get(new Get(key));
        assertArrayEquals(
            Bytes.toBytes(reading.value()),
            row.getValue(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE),
            "row " + i);
        assertEquals(
            reading.ts(),
            row.getColumnLatestCell(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE)
                .getTimestamp());
      }
    }
  }
}
