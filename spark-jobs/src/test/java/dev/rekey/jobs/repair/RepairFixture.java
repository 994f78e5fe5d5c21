package dev.rekey.jobs.repair;

import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import dev.rekey.testing.VersionedTables;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Readings of 20 devices over 3 hours (200 an hour) in a 1-region v1 table (ts | deviceId) and a
 * 16-region v2 table (salt | ts | deviceId), both keeping 3 versions; every tenth reading's value
 * was corrected twice, so it has 3 versions.
 */
final class RepairFixture {
  static final KeyLayout V1 = KeyLayout.load(Layouts.file("telemetry-v1"));
  static final KeyLayout V2 = KeyLayout.load(Layouts.file("telemetry-v2"));
  static final long HOUR = 3_600_000L;
  static final long START = TelemetryGenerator.DEFAULT_START;
  static final TelemetryGenerator GEN = new TelemetryGenerator(600, 20, START, 3 * HOUR);
  static final byte[] D = LegacyTelemetryTable.FAMILY;
  static final byte[] V = LegacyTelemetryTable.VALUE;
  static final byte[] S = LegacyTelemetryTable.STATUS;

  private RepairFixture() {}

  static TelemetryReading reading(long i) {
    return GEN.reading(i);
  }

  static byte[] v1Key(TelemetryReading r) {
    return LegacyTelemetryTable.rowKey(r);
  }

  static byte[] v2Key(TelemetryReading r) {
    return V2.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId()));
  }

  /** The cells of reading {@code i} under {@code key}: v (3 versions every tenth reading) and s. */
  static Put put(byte[] key, long i) {
    TelemetryReading r = reading(i);
    Put p = new Put(key);
    p.addColumn(D, V, r.ts(), Bytes.toBytes(r.value()));
    p.addColumn(D, S, r.ts(), Bytes.toBytes(r.status()));
    if (i % 10 == 0) {
      p.addColumn(D, V, r.ts() + 1, Bytes.toBytes(r.value() + 1));
      p.addColumn(D, V, r.ts() + 2, Bytes.toBytes(r.value() + 2));
    }
    return p;
  }

  /** A reading's two cells under {@code key}, stamped {@code ts} (a dual write stamps now). */
  static Put at(byte[] key, TelemetryReading r, long ts) {
    return new Put(key)
        .addColumn(D, V, ts, Bytes.toBytes(r.value()))
        .addColumn(D, S, ts, Bytes.toBytes(r.status()));
  }

  static TableName v1() throws IOException {
    return v1(SharedHBase.connection());
  }

  /** {@link #v1()} on another cluster's connection. */
  static TableName v1(org.apache.hadoop.hbase.client.Connection conn) throws IOException {
    List<Put> puts = new ArrayList<>();
    for (long i = 0; i < GEN.rows(); i++) {
      puts.add(put(v1Key(reading(i)), i));
    }
    return VersionedTables.create(conn, "rp_v1", D, 3, null, puts);
  }

  static TableName v2() throws IOException {
    List<Put> puts = new ArrayList<>();
    for (long i = 0; i < GEN.rows(); i++) {
      puts.add(put(v2Key(reading(i)), i));
    }
    return table("rp_v2", V2.splitPoints(16), puts);
  }

  /** An old table, its snapshot, and the new table a repair compares with it. */
  record Migration(TableName v1, String snapshot, TableName v2) {}

  /**
   * {@link #v1()} and its snapshot, and {@link #v2()} with the values of {@code readings} changed
   * (no delete markers): each changed reading a cell to repair.
   */
  static Migration changedValues(long... readings) throws Exception {
    TableName v1 = v1();
    String snap = snapshot(v1);
    TableName v2 = v2();
    try (Table t = table(v2)) {
      for (long i : readings) {
        changeValue(t, i);
      }
    }
    return new Migration(v1, snap, v2);
  }

  /** Reading {@code i}'s value changed in the new table, at its own timestamp. */
  static void changeValue(Table t, long i) throws IOException {
    TelemetryReading r = reading(i);
    t.put(new Put(v2Key(r)).addColumn(D, V, r.ts(), Bytes.toBytes(-1L)));
  }

  private static TableName table(String name, List<byte[]> splits, List<Put> puts)
      throws IOException {
    return VersionedTables.create(name, D, 3, splits, puts);
  }

  static String snapshot(TableName t) throws IOException {
    return snapshot(SharedHBase.connection(), t);
  }

  /** {@link #snapshot(TableName)} taken by another cluster. */
  static String snapshot(org.apache.hadoop.hbase.client.Connection conn, TableName t)
      throws IOException {
    String name = t.getNameAsString() + "_snap";
    try (Admin admin = conn.getAdmin()) {
      admin.snapshot(name, t);
    }
    return name;
  }

  /** When the snapshot {@code name} was taken (epoch millis). */
  static long snapshotTime(String name) throws IOException {
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      return admin.listSnapshots().stream()
          .filter(s -> s.getName().equals(name))
          .findFirst()
          .orElseThrow()
          .getCreationTime();
    }
  }

  static SideSpec oldTable(TableName t) {
    return SideSpec.table("old", t.getNameAsString(), V1);
  }

  static SideSpec oldSnapshot(String s) {
    return SideSpec.snapshot("old", s, V1);
  }

  static SideSpec newTable(TableName t) {
    return SideSpec.table("new", t.getNameAsString(), V2);
  }

  /** Options over the fixture's 3 hours, in 1h buckets, compared first. */
  static RepairOptions.Builder opts(SideSpec old, TableName neu, java.nio.file.Path out) {
    return RepairOptions.builder()
        .old(old)
        .neu(newTable(neu))
        .from(START)
        .to(START + 3 * HOUR)
        .bucket("1h")
        .out(out);
  }

  /** What {@link #killedAt} throws: the run's process dying there. */
  static final class Killed extends RuntimeException {}

  /** Progress that kills the run (throws {@link Killed}) at the first line {@code at} accepts. */
  static Consumer<String> killedAt(java.util.function.Predicate<String> at) {
    return line -> {
      if (at.test(line)) {
        throw new Killed();
      }
    };
  }

  static RepairResult repair(RepairOptions o) {
    return repair(o, s -> {});
  }

  static RepairResult repair(RepairOptions o, Consumer<String> progress) {
    return new Repair(SharedSpark.session(), SharedHBase.conf(), o).execute(progress);
  }

  static Map<String, List<String>> contents(TableName t, KeyLayout layout) throws IOException {
    return TableContents.byNaturalKey(t, layout);
  }

  static Table table(TableName t) throws IOException {
    return SharedHBase.connection().getTable(t);
  }
}
