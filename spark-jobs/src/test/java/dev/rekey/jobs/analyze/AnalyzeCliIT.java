package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/rekey analyze as a user runs it (through SparkSubmit), against the test run's embedded HBase.
 */
@Tag("e2e")
class AnalyzeCliIT {
  @Test
  void analyzeThroughTheCli(@TempDir Path out) throws Exception {
    TableName t = SharedHBase.uniqueTable("cli_legacy");
    byte[] f = Bytes.toBytes("d");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(f))
              .build());
    }
    List<Put> puts = new ArrayList<>();
    for (KeySample k : GeneratedKeys.telemetry(Layouts.shipped("telemetry-v1"), 1000, 10)) {
      puts.add(new Put(k.key()).addColumn(f, Bytes.toBytes("v"), k.ts(), Bytes.toBytes(k.ts())));
    }
    try (Table table = SharedHBase.connection().getTable(t)) {
      table.put(puts);
    }
    RekeyProcess.Result r =
        RekeyProcess.run(
            300,
            "analyze",
            "--table",
            t.getNameAsString(),
            "--layout",
            "telemetry-v1",
            "--servers",
            "12",
            "--sample",
            "500",
            "--out",
            out.toString());
    assertEquals(0, r.exitCode(), r.all());
    assertTrue(r.stdout().contains("1,000 rows read, 500 sampled"), r.stdout());
    assertTrue(r.stdout().contains("verdict: HOTSPOT"), r.stdout());
    assertTrue(r.stdout().contains("recommendation: salt, N = 16, 16 regions"), r.stdout());
    assertTrue(
        Files.isRegularFile(out.resolve("analyze.json"))
            && Files.isRegularFile(out.resolve("analyze.html")));

    RekeyProcess.Result missing =
        RekeyProcess.run(
            300, "analyze", "--snapshot", "no_such_snapshot_" + ProcessHandle.current().pid());
    assertEquals(1, missing.exitCode(), missing.all());
    assertTrue(
        missing.stderr().contains("Cannot analyze snapshot no_such_snapshot_"), missing.stderr());
    assertTrue(
        missing.stderr().contains("it does not exist (list snapshots with `list_snapshots`"),
        missing.stderr());
  }
}
