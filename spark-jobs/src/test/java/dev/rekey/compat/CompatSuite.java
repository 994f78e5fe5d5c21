package dev.rekey.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rekey.admin.createtable.CreateTableIT;
import dev.rekey.admin.replicate.ReplicateIT;
import dev.rekey.common.TimeWindow;
import dev.rekey.embedded.HBaseVersion;
import dev.rekey.embedded.TestServer;
import dev.rekey.jobs.repair.MigrationScenarios;
import dev.rekey.jobs.scan.ReportFile;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.ScanResult;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.ClusterSide;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The compatibility tier: rekey as built (its HBase client, Spark and Hadoop) against a real
 * embedded server of another HBase version ({@code rekey hbase start --hbase-version}), one version
 * per subclass, one server at a time (started before the class, stopped after it). Each test is a
 * cell of docs/compatibility.md ({@link Cell}) and reuses the e2e tier's scenarios, each ending in
 * a natural-key, every-cell comparison; {@link CompatRecords} records every cell run.
 *
 * <p>Run alone: {@code bin/test -Dgroups=compat} (not part of {@code bin/test}).
 */
@Tag("compat")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(CompatRecords.class)
abstract class CompatSuite implements CompatTarget {
  private TestServer server;
  private ClusterSide side;
  private MigrationScenarios.Backfilled backfilled;
  private Path dir;

  /** The HBase release of this class's server. */
  abstract HBaseVersion version();

  @Override
  public String component() {
    return "hbase";
  }

  @Override
  public String release() {
    return version().maven();
  }

  @BeforeAll
  void startServer() throws Exception {
    long t0 = System.nanoTime();
    Throwable failure = null;
    try {
      dir = Files.createTempDirectory("compat-" + version().maven());
      server =
          new TestServer(
              SharedHBase.runRoot().resolve("hbase-" + version().maven()),
              "compat-" + version().maven(),
              version());
      side =
          new ClusterSide(
              "HBase " + version(),
              server.connection(),
              server.conf(),
              server.server().clientSite());
      try (Admin admin = side.connection().getAdmin()) {
        // as its build names itself: a -hadoop3 build reports 2.5.13-hadoop3, 2.4's 2.4.18
        assertEquals(
            version().maven(),
            admin.getClusterMetrics().getHBaseVersion(),
            "the server reports the version it was started as");
      }
    } catch (Throwable t) {
      failure = t;
      throw t;
    } finally {
      CompatRecords.record(this, "server start", failure, (System.nanoTime() - t0) / 1e9);
    }
  }

  @AfterAll
  void stopServer() {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  @Order(1)
  @Cell("create-table")
  void createTable() throws Exception {
    CreateTableIT.saltSplitTableWithFamilySettings(side.connection());
  }

  @Test
  @Order(2)
  @Cell("client")
  void clientWritesAndReads() throws Exception {
    MigrationScenarios.dualWrites(side, side);
  }

  @Test
  @Order(3)
  @Cell("snapshot → backfill → bulk load")
  void backfillOfItsSnapshotBulkLoadedIntoIt() throws Exception {
    backfilled = MigrationScenarios.backfill(side, side, dir.resolve("backfill"));
  }

  @Test
  @Order(4)
  @Cell("snapshot → scan")
  void scanOfItsSnapshot() throws Exception {
    assumeTrue(backfilled != null, "needs the backfill cell's snapshot");
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    ScanResult r =
        new ScanJob(
                SharedSpark.session(),
                side.conf(),
                ScanOptions.builder()
                    .snapshot(backfilled.snapshot())
                    .layout(v1)
                    .window(TimeWindow.ALL)
                    .report(ReportFile.load(ScanCheck.report(dir.resolve("report"))))
                    .out(dir.resolve("scan"))
                    .build())
            .execute();
    assertEquals(600, r.rows());
    ScanCheck.assertNewestCellsOf(
        side.connection(), backfilled.v1(), v1, r.reports().get(0).path());
  }

  @Test
  @Order(5)
  @Cell("reconcile + repair")
  void reconcileAndRepair() throws Exception {
    assumeTrue(backfilled != null, "needs the backfill cell's tables");
    MigrationScenarios.damageReconcileAndRepair(side, side, backfilled, dir.resolve("repair"));
  }

  @Test
  @Order(6)
  @Cell("replication endpoint")
  void replicationEndpointInItsRegionServer() throws Exception {
    ReplicateIT.everyPutAndDeleteReachesTheNewKey(side.connection());
  }
}
