package dev.rekey.jobs.backfill;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;

/**
 * A legacy telemetry table with generated rows, its snapshot, and an empty 16-region telemetry-v2
 * target.
 */
final class BackfillFixture {
  final TelemetryGenerator gen;
  final TableName source;
  final String snapshot;
  final TableName target;
  final Path staging;
  private final String targetFamily;

  BackfillFixture(String name, int rows, int devices) throws Exception {
    this(name, rows, devices, 1, "d:bloom=row,encoding=fast_diff");
  }

  /**
   * A source family keeping {@code sourceVersions} versions, and a target family from a {@code
   * --family} spec.
   */
  BackfillFixture(String name, int rows, int devices, int sourceVersions, String targetFamily)
      throws Exception {
    this(name, rows, devices, sourceVersions, targetFamily, 1);
  }

  /**
   * As above, the source created in {@code sourceRegions} regions, equal slices of the day (the
   * legacy key leads with the time), as a long-lived legacy table is split.
   */
  BackfillFixture(
      String name,
      int rows,
      int devices,
      int sourceVersions,
      String targetFamily,
      int sourceRegions)
      throws Exception {
    gen = TelemetryGenerator.oneDay(rows, devices);
    source = SharedHBase.uniqueTable(name + "_v1");
    target = SharedHBase.uniqueTable(name + "_v2");
    snapshot = source.getNameAsString() + "_snap";
    this.targetFamily = targetFamily;
    staging = SharedHBase.runRoot().resolve("backfill-staging").resolve(target.getNameAsString());
    Admin admin = SharedHBase.connection().getAdmin();
    org.apache.hadoop.hbase.client.TableDescriptor legacy =
        org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(source)
            .setColumnFamily(
                org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(
                        LegacyTelemetryTable.FAMILY)
                    .setMaxVersions(sourceVersions)
                    .build())
            .build();
    if (sourceRegions > 1) {
      admin.createTable(legacy, daySlices(sourceRegions));
    } else {
      admin.createTable(legacy);
    }
    LegacyTelemetryTable.write(SharedHBase.connection(), source, gen, s -> {});
    createTarget(admin);
  }

  private void createTarget(Admin admin) throws Exception {
    TableCreator.table(target)
        .families(List.of(FamilySpec.parse(targetFamily)))
        .splitPoints(SplitPoints.salt(16))
        .create(admin);
  }

  /** Drops the target and creates it again, empty, as the demo does on each run. */
  void recreateTarget() throws Exception {
    Admin admin = SharedHBase.connection().getAdmin();
    admin.disableTable(target);
    admin.deleteTable(target);
    createTarget(admin);
  }

  /** Split points cutting the generated day into {@code n} equal slices of time. */
  private static byte[][] daySlices(int n) {
    byte[][] splits = new byte[n - 1][];
    for (int i = 1; i < n; i++) {
      splits[i - 1] =
          org.apache.hadoop.hbase.util.Bytes.toBytes(
              TelemetryGenerator.DEFAULT_START + i * 86_400_000L / n);
    }
    return splits;
  }

  void snapshot() throws Exception {
    Admin admin = SharedHBase.connection().getAdmin();
    admin.flush(source);
    admin.snapshot(snapshot, source);
  }

  /**
   * Progress that kills the driver (throws "driver killed") right after the ledger recorded the
   * {@code n}th region as loaded; the loader loads a few regions at a time, so those loading with
   * it finish and are recorded too.
   */
  static java.util.function.Consumer<String> driverKilledAfterLoading(int n) {
    int[] loaded = {0};
    return s -> {
      if (s.startsWith("  loaded region ") && ++loaded[0] == n) {
        throw new RuntimeException("driver killed");
      }
    };
  }

  /** The target holds every cell of the source, by natural key, each version and timestamp. */
  void assertTablesEqual() throws Exception {
    org.junit.jupiter.api.Assertions.assertEquals(
        dev.rekey.testing.TableContents.byNaturalKey(source, Layouts.shipped("telemetry-v1")),
        dev.rekey.testing.TableContents.byNaturalKey(target, Layouts.shipped("telemetry-v2")));
  }

  /** The ledger in the staging dir: the manifest the last run wrote there. */
  Manifest ledger() throws Exception {
    Staging dir = new Staging(staging.toString(), SharedHBase.conf());
    return dir.readJson(dir.manifest(), Manifest.class);
  }

  BackfillOptions.Builder options() {
    return BackfillOptions.builder()
        .sourceSnapshot(snapshot)
        .sourceLayout(Layouts.shipped("telemetry-v1"))
        .targetTable(target.getNameAsString())
        .targetLayout(Layouts.shipped("telemetry-v2"))
        .staging(staging.toString());
  }
}
