package dev.rekey.demo;

import dev.rekey.admin.createtable.CreateTableResult;
import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.client.LayoutReader;
import dev.rekey.client.ReadQuery;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.reconcile.Reconcile;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.ReconcileResult;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.sql.SparkSession;

/**
 * The demo's second new table, telemetry_by_device (layout telemetry-by-device: {@code
 * md5(deviceId)[0..2] | deviceId | Long.MAX_VALUE - ts}): the device-history lookups' table, beside
 * the salted time-first telemetry_v2 for the window queries ("two tables written together"). It is
 * created with telemetry_v2, dual-written and backfilled in the same run, reconciled, and answers
 * "history of device X" with one range scan where telemetry_v2 needs its 16 buckets merged.
 */
final class DemoHistoryTable {
  /** Regions of the history table: its 2-byte hash prefix cut evenly. */
  static final int REGIONS = 16;

  private final PrintStream out;

  DemoHistoryTable(PrintStream out) {
    this.out = out;
  }

  static KeyLayout layout() {
    return dev.rekey.common.LayoutFiles.load("telemetry-by-device", "demo");
  }

  /** The history table, pre-split by its hash prefix: it must exist before the dual writes. */
  void create(Admin admin, KeyLayout byDevice) throws IOException {
    CreateTableResult created =
        TableCreator.table(DemoTables.TELEMETRY_BY_DEVICE)
            .families(List.of(FamilySpec.parse("d:bloom=row,encoding=fast_diff")))
            .splitPoints(byDevice.splitPoints(REGIONS))
            .create(admin);
    out.println("  " + created.summary() + " (hash-prefix splits: device histories)");
  }

  /** telemetry_v1 against the history table over the demo's day: must match. */
  void reconcile(
      SparkSession spark, Configuration conf, KeyLayout v1, KeyLayout byDevice, Path reportDir) {
    ReconcileResult r =
        new Reconcile(
                spark,
                conf,
                ReconcileOptions.builder()
                    .old(SideSpec.table("old", DemoTables.TELEMETRY_V1.getNameAsString(), v1))
                    .neu(
                        SideSpec.table(
                            "new", DemoTables.TELEMETRY_BY_DEVICE.getNameAsString(), byDevice))
                    .from(TelemetryGenerator.DEFAULT_START)
                    .to(TelemetryGenerator.DEFAULT_START + 24L * 3600 * 1000)
                    .bucket("1h")
                    .digest(true)
                    .out(reportDir.toAbsolutePath().toUri().toString())
                    .build())
            .execute();
    out.print(r.console());
    if (!r.matches()) {
      throw RekeyException.cannot(
          "Demo: %s and %s do not reconcile (report %s)",
          DemoTables.TELEMETRY_V1, DemoTables.TELEMETRY_BY_DEVICE, reportDir);
    }
  }

  /**
   * One device's history, newest first: one range scan of the history table against telemetry_v2's
   * 16 buckets of the day merged in key order, the device matched on each row. Both must give the
   * same readings; their times are printed. Returns the readings found.
   */
  int historyOfDevice(Connection conn, KeyLayout v2, KeyLayout byDevice, byte[] device)
      throws IOException {
    long t0 = System.nanoTime();
    List<String> fromHistory = new ArrayList<>();
    try (LayoutReader reader = LayoutReader.open(conn, DemoTables.TELEMETRY_BY_DEVICE, byDevice)) {
      for (Result r : reader.scan(ReadQuery.builder().where("deviceId", device).build())) {
        fromHistory.add(reading(byDevice, r));
      }
    }
    double historyMs = (System.nanoTime() - t0) / 1e6;

    long t1 = System.nanoTime();
    List<String> fromSalted = new ArrayList<>();
    // the device is not a leading field of telemetry-v2: inside the window the planner matches it
    // on each row of the 16 buckets' ranges (on the region servers), and the buckets are merged
    try (LayoutReader reader = LayoutReader.open(conn, DemoTables.TELEMETRY_V2, v2)) {
      for (Result r :
          reader.scan(
              ReadQuery.builder()
                  .where("deviceId", device)
                  .window(
                      TelemetryGenerator.DEFAULT_START,
                      TelemetryGenerator.DEFAULT_START + 24L * 3600 * 1000)
                  .build())) {
        fromSalted.add(reading(v2, r));
      }
    }
    Collections.reverse(
        fromSalted); // merged oldest first; the history table's order is newest first
    double saltedMs = (System.nanoTime() - t1) / 1e6;
    out.printf(
        "  device %s: %,d readings from %s in %.0f ms (one range scan); %,d from %s in %.0f ms"
            + " (%d buckets of the day merged, the device matched on each row)%n",
        Bytes.toHex(device).substring(0, 8) + "…",
        fromHistory.size(),
        DemoTables.TELEMETRY_BY_DEVICE,
        historyMs,
        fromSalted.size(),
        DemoTables.TELEMETRY_V2,
        saltedMs,
        v2.prefix().buckets());
    if (!fromHistory.equals(fromSalted)) {
      throw RekeyException.cannot(
          "Demo: the history of device %s differs between %s (%d readings) and %s (%d)",
          Bytes.toHex(device),
          DemoTables.TELEMETRY_BY_DEVICE,
          fromHistory.size(),
          DemoTables.TELEMETRY_V2,
          fromSalted.size());
    }
    out.println("  same readings, newest first, on both tables: yes");
    return fromHistory.size();
  }

  /** A reading as its time and every cell (every version, with its timestamp). */
  private static String reading(KeyLayout layout, Result r) {
    Map<String, Object> f = layout.decode(r.getRow()).fields();
    StringBuilder b = new StringBuilder().append(f.get("ts"));
    for (Cell c : r.rawCells()) {
      b.append(' ')
          .append(Bytes.toString(CellUtil.cloneQualifier(c)))
          .append('@')
          .append(c.getTimestamp())
          .append('=')
          .append(Bytes.toHex(CellUtil.cloneValue(c)));
    }
    return b.toString();
  }
}
