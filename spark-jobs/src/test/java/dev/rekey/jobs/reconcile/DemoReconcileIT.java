package dev.rekey.jobs.reconcile;

import static dev.rekey.jobs.reconcile.TelemetryFixture.GEN;
import static dev.rekey.jobs.reconcile.TelemetryFixture.HOUR;
import static dev.rekey.jobs.reconcile.TelemetryFixture.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.demo.DemoReconcile;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's reconcile step on small tables: green, a deletion caught with its natural keys,
 * restored, green.
 */
@Tag("e2e")
class DemoReconcileIT {
  @Test
  void deletedRowsAreCaughtAndRestoredWithTheirTimestamps(@TempDir Path dir) throws Exception {
    List<TelemetryReading> readings = TelemetryFixture.readings();
    TableName v1 = TelemetryFixture.v1Table(readings);
    TableName v2 = TelemetryFixture.v2Table(TelemetryFixture.v2Puts(readings));
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);

    DemoReconcile.Outcome o =
        new DemoReconcile(out, dir)
            .run(
                SharedSpark.session(),
                SharedHBase.conf(),
                SharedHBase.connection(),
                v1,
                v2,
                TelemetryFixture.V1,
                TelemetryFixture.V2,
                GEN,
                START,
                START + 6 * HOUR);
    String text = buf.toString(StandardCharsets.UTF_8);
    assertEquals(0, o.before(), text);
    assertEquals(3, o.afterDelete(), text);
    assertEquals(0, o.afterRepair(), text);
    assertEquals(DemoReconcile.FAULTS, o.deletedRowKeys().size());
    List<String> want =
        List.of(400L, 401L, 402L).stream()
            .map(i -> Long.toString(GEN.reading(i).ts()))
            .collect(Collectors.toList());
    assertEquals(
        want,
        o.reportedMissing().stream().map(m -> m.get("ts")).sorted().collect(Collectors.toList()),
        text);
    assertTrue(text.contains("missing in new: deviceId="), text);
    assertEquals(0, o.repair(), text);
    assertTrue(text.contains("repair exit code 0: the 3 rows put back"), text);
    assertTrue(text.contains("their regions were major-compacted first"), text);
    assertTrue(Files.isRegularFile(dir.resolve("2-after-delete").resolve("repair.html")));
    assertTrue(Files.isRegularFile(dir.resolve("2-after-delete").resolve("reconcile.html")));
  }

  @Test
  void skippedWithoutTheNewTable(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    DemoReconcile.Outcome o =
        new DemoReconcile(new PrintStream(buf, true, StandardCharsets.UTF_8), dir)
            .run(
                SharedSpark.session(),
                SharedHBase.conf(),
                SharedHBase.connection(),
                TableName.valueOf("no_v1"),
                TableName.valueOf("no_v2"),
                TelemetryFixture.V1,
                TelemetryFixture.V2,
                GEN,
                START,
                START + HOUR);
    assertEquals(null, o);
    assertTrue(buf.toString(StandardCharsets.UTF_8).contains("skipped: no_v2 does not exist"));
  }
}
