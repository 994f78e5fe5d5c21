package dev.rekey.jobs.reconcile;

import static dev.rekey.jobs.reconcile.TelemetryFixture.HOUR;
import static dev.rekey.jobs.reconcile.TelemetryFixture.START;
import static dev.rekey.jobs.reconcile.TelemetryFixture.V1;
import static dev.rekey.jobs.reconcile.TelemetryFixture.V2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.Versions;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.VersionedTables;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Reconcile sees every version: an old table whose every tenth reading was corrected twice (3
 * versions of v) against a new table that holds the same rows with only the newest version of each
 * column — what a backfill that reads one version produces — differs; against one holding every
 * version, it matches.
 */
@Tag("e2e")
class ReconcileVersionsIT {
  private static TableName old;
  private static TableName newestOnly;
  private static TableName allVersions;

  @BeforeAll
  static void tables() throws Exception {
    List<TelemetryReading> readings =
        TelemetryFixture.readings().subList(0, 400); // the first two hours
    List<Put> oldPuts = new ArrayList<>();
    List<Put> newestPuts = new ArrayList<>();
    List<Put> allPuts = new ArrayList<>();
    for (int i = 0; i < readings.size(); i++) {
      TelemetryReading r = readings.get(i);
      oldPuts.add(LegacyTelemetryTable.put(r));
      allPuts.add(TelemetryFixture.v2Put(r));
      if (i % 10 == 0) {
        TelemetryReading corrected =
            new TelemetryReading(r.ts(), r.deviceId(), r.value() + 2, r.status());
        for (int k = 1; k <= 2; k++) {
          oldPuts.add(correction(LegacyTelemetryTable.rowKey(r), r, k));
          allPuts.add(correction(TelemetryFixture.v2Key(r), r, k));
        }
        // the newest version only: the value of the second correction at its timestamp, the status
        // as it was
        newestPuts.add(TelemetryFixture.v2Put(r, r.ts() + 2, corrected.value()));
      } else {
        newestPuts.add(TelemetryFixture.v2Put(r));
      }
    }
    old = table("rcv_v1", null, oldPuts);
    newestOnly = table("rcv_newest", V2.splitPoints(16), newestPuts);
    allVersions = table("rcv_all", V2.splitPoints(16), allPuts);
  }

  private static Put correction(byte[] key, TelemetryReading r, int k) {
    return new Put(key)
        .addColumn(
            LegacyTelemetryTable.FAMILY,
            LegacyTelemetryTable.VALUE,
            r.ts() + k,
            Bytes.toBytes(r.value() + k));
  }

  private static TableName table(String name, List<byte[]> splits, List<Put> puts)
      throws IOException {
    return VersionedTables.create(name, LegacyTelemetryTable.FAMILY, 3, splits, puts);
  }

  private static ReconcileResult run(TableName neu, Versions versions) {
    return new Reconcile(
            SharedSpark.session(),
            SharedHBase.conf(),
            ReconcileIT.opts(SideSpec.table("old", old.getNameAsString(), V1), neu)
                .to(START + 2 * HOUR)
                .digest(true)
                .versions(versions)
                .build())
        .execute();
  }

  @Test
  void lostOlderVersionsAreAMismatchInCellsAndDigest() {
    ReconcileResult r = run(newestOnly, Versions.ALL);
    assertEquals(3, r.exitCode());
    for (int h = 0; h < 2; h++) {
      TimeBucketComparison b = r.bucket(h);
      assertEquals(b.old().rows(), b.neu().rows(), "the same rows");
      assertEquals(
          b.old().cells() - 2 * 20,
          b.neu().cells(),
          "20 corrected rows per hour, 2 older versions each");
      assertFalse(b.matches(), "hour " + h);
    }
  }

  @Test
  void everyVersionCopiedMatches() {
    ReconcileResult r = run(allVersions, Versions.ALL);
    assertTrue(r.matches(), () -> r.buckets().toString());
    assertEquals(2 * 200 * 2 + 2 * 20 * 2, r.bucket(0).old().cells() + r.bucket(1).old().cells());
  }

  @Test
  void versionsOneComparesTheNewestOnly() {
    assertTrue(run(newestOnly, Versions.NEWEST).matches());
  }
}
