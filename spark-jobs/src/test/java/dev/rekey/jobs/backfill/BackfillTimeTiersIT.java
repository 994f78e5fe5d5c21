package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.TimeWindow;
import dev.rekey.demo.EventGenerator;
import dev.rekey.demo.EventsTable;
import dev.rekey.jobs.backfill.plan.TierRequest;
import dev.rekey.jobs.scan.ReportFile;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.ScanResult;
import dev.rekey.read.StoreFiles;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code backfill --time-tiers P1D} from a time-first events table into the entity-first events-v2
 * layout (sorted path: a hash prefix): each target region gets one HFile per day, every cell and
 * version arrives, and the nightly report of one day, read from a snapshot of the target, skips the
 * other days' files and gives the same report as a read that opens every file.
 */
@Tag("e2e")
class BackfillTimeTiersIT {
  private static final int DAYS = 3;
  private static final int PER_DAY = 200;
  private static final int REGIONS = 2;

  /** The legacy key: event time first, then the user. */
  private static final KeyLayout EVENTS_V1 =
      KeyLayout.parse(
          "name: events-v1\ntime: ts\nprefix:\n  kind: none\nfields:\n  - name: ts\n"
              + "    type: long\n    signed: false\n  - name: userId\n    type: string\n",
          "events-v1");

  private static ScanResult nightly(String snapshot, TimeWindow day, boolean skip, KeyLayout l) {
    Configuration conf = new Configuration(SharedHBase.conf());
    conf.setBoolean(StoreFiles.SKIP_BY_TIME, skip);
    return new ScanJob(
            SharedSpark.session(),
            conf,
            ScanOptions.builder()
                .snapshot(snapshot)
                .layout(l)
                .window(day)
                .report(
                    ReportFile.load(
                        ReportFile.resolve("user_daily_activity", SharedHBase.rekeyHome())))
                .out(
                    SharedHBase.runRoot()
                        .resolve("tiers-it")
                        .resolve((skip ? "skip-" : "every-") + System.nanoTime()))
                .build())
        .execute();
  }

  private static List<String> report(ScanResult r) {
    List<String> out = new ArrayList<>();
    for (Row row :
        SharedSpark.session().read().parquet(r.reports().get(0).path()).collectAsList()) {
      out.add(row.toString());
    }
    out.sort(null);
    return out;
  }

  @Test
  void aDailyTieredBackfillLetsTheNightlyReportReadOnlyItsDaysFiles() throws Exception {
    EventGenerator gen = EventGenerator.days(PER_DAY, 20, DAYS);
    TableName source = SharedHBase.uniqueTable("tiers_events_v1");
    TableName target = SharedHBase.uniqueTable("tiers_events_v2");
    KeyLayout v2 = Layouts.shipped("events-v2");
    String sourceSnap = source.getNameAsString() + "_snap";
    String targetSnap = target.getNameAsString() + "_snap";
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      EventsTable.create(admin, source, EVENTS_V1, 1);
      EventsTable.write(SharedHBase.connection(), source, EVENTS_V1, gen);
      admin.flush(source); // one file holding every day
      admin.snapshot(sourceSnap, source);
      EventsTable.create(admin, target, v2, REGIONS);
    }
    List<String> progress = new ArrayList<>();
    BackfillOptions.Builder opts = dailyTiers(sourceSnap, target, v2);
    // written, not loaded; then --resume loads and verifies the tier files as the ledger lists them
    BackfillResult written =
        new Backfill(SharedSpark.session(), SharedHBase.conf(), opts.noLoad(true).build())
            .execute(progress::add);
    assertTrue(!written.loaded(), String.join("\n", progress));
    assertEquals(0, SharedHBase.storeFileCount(target));
    BackfillResult r =
        new Backfill(
                SharedSpark.session(), SharedHBase.conf(), opts.noLoad(false).resume(true).build())
            .execute(progress::add);
    assertEquals(new Accounting(DAYS * PER_DAY, DAYS * PER_DAY, 0, 0), written.accounting());
    assertEquals(written.accounting(), r.accounting());
    assertTrue(r.loaded() && r.verified(), String.join("\n", progress));
    assertTrue(
        progress.stream().anyMatch(l -> l.startsWith("Time tiers: 3 time tiers of P1D")),
        String.join("\n", progress));
    // one HFile per day in each region (the events span exactly the three days)
    assertEquals(DAYS * REGIONS, SharedHBase.storeFileCount(target));

    // natural key by natural key, every cell and version, timestamps included
    Map<String, List<String>> old = TableContents.byNaturalKey(source, EVENTS_V1);
    Map<String, List<String>> neu = TableContents.byNaturalKey(target, v2);
    assertEquals(DAYS * PER_DAY, old.size());
    assertEquals(old, neu);

    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.snapshot(targetSnap, target);
    }
    TimeWindow lastDay = TimeWindow.ofDay("2026-11-29");
    ScanResult skipping = nightly(targetSnap, lastDay, true, v2);
    ScanResult every = nightly(targetSnap, lastDay, false, v2);
    assertEquals(PER_DAY, skipping.rows());
    assertEquals(every.rows(), skipping.rows());
    assertEquals(every.cells(), skipping.cells());
    assertEquals(report(every), report(skipping));
    assertTrue(!report(skipping).isEmpty());
    // the day's file of each region read, the other days' skipped; every file read otherwise
    assertEquals(REGIONS, skipping.storeFiles().read(), skipping.storeFilesLine());
    assertEquals((DAYS - 1) * REGIONS, skipping.storeFiles().skipped(), skipping.storeFilesLine());
    assertEquals(DAYS * REGIONS, every.storeFiles().read(), every.storeFilesLine());
    assertEquals(0, every.storeFiles().skipped());
    assertEquals(
        every.storeFiles().bytesRead(),
        skipping.storeFiles().bytesRead() + skipping.storeFiles().bytesSkipped());
  }

  /**
   * Versions of one cell in different days' files, and a column deleted after the window: a row's
   * versions straddle tier files, and the day's read that skips files returns what a read of every
   * file returns; every version arrives with its timestamp.
   */
  @Test
  void versionsStraddlingTiersArriveAndTheDaysReadSkipsNothingItNeeds() throws Exception {
    EventGenerator gen = EventGenerator.days(50, 10, 2); // 2026-11-28 and 2026-11-29
    TableName source = SharedHBase.uniqueTable("tiers_ver_v1");
    TableName target = SharedHBase.uniqueTable("tiers_ver_v2");
    KeyLayout v2 = Layouts.shipped("events-v2");
    long day = 86_400_000L;
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      for (TableName t : List.of(source, target)) {
        KeyLayout l = t.equals(source) ? EVENTS_V1 : v2;
        admin.createTable(
            org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(t)
                .setColumnFamily(
                    org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(
                            EventsTable.FAMILY)
                        .setMaxVersions(3)
                        .build())
                .build(),
            t.equals(source) ? new byte[0][] : l.splitPoints(REGIONS).toArray(new byte[0][]));
      }
      EventsTable.write(SharedHBase.connection(), source, EVENTS_V1, gen);
      try (org.apache.hadoop.hbase.client.Table t = SharedHBase.connection().getTable(source)) {
        for (int i = 0; i < gen.events(); i += 5) {
          EventGenerator.Event e = gen.event(i);
          byte[] row = EventsTable.rowKey(EVENTS_V1, e);
          // a newer version of the event's type a day later (its second day's tier, or past the
          // span)
          t.put(
              new org.apache.hadoop.hbase.client.Put(row)
                  .addColumn(
                      EventsTable.FAMILY,
                      EventsTable.TYPE,
                      e.ts() + day,
                      org.apache.hadoop.hbase.util.Bytes.toBytes("fixed")));
          if (i % 10 == 0) {
            // its amount deleted later still: every version of cents gone from both tables
            t.delete(
                new org.apache.hadoop.hbase.client.Delete(row)
                    .addColumns(EventsTable.FAMILY, EventsTable.CENTS, e.ts() + 2 * day));
          }
        }
      }
      admin.flush(source);
      admin.snapshot(source.getNameAsString() + "_snap", source);
    }
    BackfillResult r =
        new Backfill(
                SharedSpark.session(),
                SharedHBase.conf(),
                dailyTiers(source.getNameAsString() + "_snap", target, v2).build())
            .execute(l -> {});
    assertTrue(r.loaded() && r.verified());
    // the newest versions run into a third day (the span's last tier)
    assertEquals(3 * REGIONS, SharedHBase.storeFileCount(target));
    Map<String, List<String>> old = TableContents.byNaturalKey(source, EVENTS_V1);
    Map<String, List<String>> neu = TableContents.byNaturalKey(target, v2);
    assertEquals(old, neu);
    assertTrue(TableContents.cells(neu) > 2L * gen.events(), "versions arrived");

    String snap = target.getNameAsString() + "_snap";
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.snapshot(snap, target);
    }
    // the first day: its cells' newer versions and markers are in the next days' files
    for (String d : List.of("2026-11-28")) {
      ScanResult skipping = nightly(snap, TimeWindow.ofDay(d), true, v2);
      ScanResult every = nightly(snap, TimeWindow.ofDay(d), false, v2);
      assertEquals(every.rows(), skipping.rows(), d);
      assertEquals(every.cells(), skipping.cells(), d);
      assertEquals(report(every), report(skipping), d);
      assertTrue(skipping.storeFiles().skipped() > 0, d + ": " + skipping.storeFilesLine());
    }
  }

  /** A backfill of the events snapshot into {@code target} with one tier a day. */
  private static BackfillOptions.Builder dailyTiers(
      String snapshot, TableName target, KeyLayout layout) {
    return BackfillOptions.builder()
        .sourceSnapshot(snapshot)
        .sourceLayout(EVENTS_V1)
        .targetTable(target.getNameAsString())
        .targetLayout(layout)
        .staging(
            SharedHBase.runRoot()
                .resolve("backfill-staging")
                .resolve(target.getNameAsString())
                .toString())
        .timeTiers(TierRequest.parse("P1D"));
  }
}
