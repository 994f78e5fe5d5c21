package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.load.LoadRecords;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * RegionServer I/O errors during the load, injected for real on the shared HBase server ({@link
 * LoadFaults}): retried by the loader with {@code hbase.bulkload.retries.retryOnIOException}, or a
 * failure naming the region and its cause that a {@code --resume} completes. Each ends with both
 * tables equal by natural key, every version.
 */
@Tag("e2e")
class BackfillLoadErrorsIT {
  private static BackfillResult run(
      BackfillOptions o, Configuration conf, Consumer<String> progress) throws Exception {
    return new Backfill(SharedSpark.session(), conf, o).execute(progress);
  }

  /**
   * The client's RPC layer retries a failed request (3 retries here); the loader then gives up, or,
   * with hbase.bulkload.retries.retryOnIOException, queues the files again.
   */
  private static Configuration loaderRetries(boolean retryOnIOException) {
    Configuration c = new Configuration(SharedHBase.conf());
    c.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 3);
    c.setBoolean("hbase.bulkload.retries.retryOnIOException", retryOnIOException);
    return c;
  }

  @Test
  void aRegionServerIoErrorDuringTheLoadIsRetriedWithRetryOnIOException() throws Exception {
    BackfillFixture f = new BackfillFixture("bflioretry", 1_500, 10);
    f.snapshot();
    // region 3 fails its first four bulk-load requests: more than the RPC layer retries
    Path control = LoadFaults.arm(f.target, new byte[] {3}, 4, "io");
    StringBuilder out = new StringBuilder();
    BackfillResult r =
        run(f.options().build(), loaderRetries(true), s -> out.append(s).append('\n'));
    assertTrue(r.verified(), r.lines().toString());
    assertEquals(0, LoadFaults.left(control), "every injected failure was hit");
    // a target with a coprocessor: HBase 2.6.1 changes its attributes only by reopening its
    // regions, so the load's record does that, and says so
    assertTrue(
        out.toString().contains("without reopening its regions (a table with coprocessors"),
        out.toString());
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      String record = admin.getDescriptor(f.target).getValue(LoadRecords.key(f.snapshot));
      assertTrue(record.contains("\"state\":\"VERIFIED\""), record);
    }
    f.assertTablesEqual();
  }

  @Test
  void aRegionServerIoErrorWithoutRetryFailsWithTheRegionAndCauseAndAResumeCompletes()
      throws Exception {
    BackfillFixture f = new BackfillFixture("bflionoretry", 1_500, 10);
    f.snapshot();
    Path control = LoadFaults.arm(f.target, new byte[] {3}, 4, "io");
    RekeyException e =
        assertThrows(
            RekeyException.class, () -> run(f.options().build(), loaderRetries(false), s -> {}));
    assertTrue(
        e.getMessage().startsWith("Cannot load region 3 of " + f.target + ": "), e.getMessage());
    assertTrue(
        e.getMessage().contains("injected bulk-load fault")
            && e.getMessage().endsWith("fix the cause and rerun with --resume)")
            && !e.getMessage().contains("\n"),
        e.getMessage());
    Manifest m = f.ledger();
    assertEquals(RegionState.WRITTEN, m.regions().get(3).state(), "the ledger keeps it unloaded");

    LoadFaults.set(control, 0, "io");
    BackfillResult r = run(f.options().resume(true).build(), loaderRetries(false), s -> {});
    assertTrue(r.verified(), r.lines().toString());
    f.assertTablesEqual();
  }
}
