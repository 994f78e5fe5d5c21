package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.jobs.analyze.Analyze;
import dev.rekey.jobs.analyze.AnalyzeOptions;
import dev.rekey.jobs.analyze.AnalyzeResult;
import dev.rekey.jobs.guardrails.Guardrail;
import dev.rekey.jobs.guardrails.GuardrailMode;
import dev.rekey.jobs.guardrails.GuardrailReport;
import dev.rekey.jobs.guardrails.GuardrailRequest;
import dev.rekey.read.Source;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A source table with three planted rows — an oversized cell, a wide row and an undecodable key —
 * among ordinary ones: analyze --guardrails names each with its count and key, a dry run reports
 * them from its own read, and backfill --guardrails strict refuses before any write.
 */
@Tag("e2e")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GuardrailsIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static final GuardrailRequest LIMITS = new GuardrailRequest(4_096L, 10);

  private BackfillFixture f;
  private byte[] bigCell;
  private byte[] wide;
  private byte[] undecodable;

  @BeforeAll
  void plant() throws Exception {
    f = new BackfillFixture("guard", 2_000, 20);
    long t = TelemetryGenerator.DEFAULT_START + 3_600_000L;
    bigCell = V1.encode(Map.of("ts", t, "deviceId", Bytes.toBytes("big-cell-device!")));
    wide = V1.encode(Map.of("ts", t + 1, "deviceId", Bytes.toBytes("a-very-wide-row!")));
    undecodable = Bytes.toBytes("not-a-v1-key");
    byte[] fam = LegacyTelemetryTable.FAMILY;
    Put wideRow = new Put(wide);
    for (int i = 0; i < 12; i++) {
      wideRow.addColumn(fam, Bytes.toBytes("c" + i), t, Bytes.toBytes(i));
    }
    try (Table table = SharedHBase.connection().getTable(f.source)) {
      table.put(
          List.of(
              new Put(bigCell).addColumn(fam, LegacyTelemetryTable.VALUE, t, new byte[5_000]),
              wideRow,
              new Put(undecodable).addColumn(fam, LegacyTelemetryTable.VALUE, t, new byte[8])));
    }
    f.snapshot();
  }

  private void assertNamesEachPlantedRow(GuardrailReport g) {
    assertTrue(g.found());
    assertEquals(2_003, g.rows());
    assertEquals(1, g.kind(Guardrail.CELL_TOO_BIG).rows(), g.lines().toString());
    assertEquals(Hex.of(bigCell), g.kind(Guardrail.CELL_TOO_BIG).worst().get(0).keyHex());
    assertEquals(1, g.kind(Guardrail.ROW_TOO_WIDE).rows(), g.lines().toString());
    assertEquals(Hex.of(wide), g.kind(Guardrail.ROW_TOO_WIDE).worst().get(0).keyHex());
    assertEquals(12, g.kind(Guardrail.ROW_TOO_WIDE).worst().get(0).measure());
    assertEquals(1, g.kind(Guardrail.UNDECODABLE).rows(), g.lines().toString());
    assertEquals(Hex.of(undecodable), g.kind(Guardrail.UNDECODABLE).worst().get(0).keyHex());
    assertEquals(0, g.kind(Guardrail.ROW_TOO_BIG).rows());
    assertEquals(0, g.kind(Guardrail.KEY_TOO_LONG).rows());
    String printed = String.join("\n", g.lines());
    for (byte[] k : List.of(bigCell, wide, undecodable)) {
      assertTrue(printed.contains("key " + Hex.of(k) + ": "), printed);
    }
  }

  @Test
  void analyzeNamesEachPlantedRowWithItsCountAndKey() {
    AnalyzeResult r =
        new Analyze(
                SharedSpark.session(),
                SharedHBase.conf(),
                AnalyzeOptions.builder()
                    .source(Source.snapshot(f.snapshot))
                    .layout(V1)
                    .guardrails(LIMITS)
                    .build())
            .execute();
    assertEquals(2_003, r.rowsRead());
    assertNamesEachPlantedRow(r.guardrails());
    assertTrue(r.console().contains("guardrails: 2,003 rows checked"), r.console());
    assertTrue(r.toJson().contains("\"CELL_TOO_BIG\""), r.toJson());
  }

  @Test
  void aDryRunReportsThemFromItsOwnRead() throws Exception {
    BackfillResult r = run(f.options().dryRun(true).guardrails(GuardrailMode.OFF, LIMITS).build());
    assertNamesEachPlantedRow(r.guardrails());
    assertEquals(0, rows(), "a dry run writes nothing");
  }

  @Test
  void strictRefusesBeforeAnyWrite() throws Exception {
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> run(f.options().guardrails(GuardrailMode.STRICT, LIMITS).build()));
    assertEquals(ExitCodes.REFUSED, e.exitCode(), e.getMessage());
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cannot backfill "
                    + f.target.getNameAsString()
                    + ": --guardrails strict found 1 cells over the cell size limit, 1 rows wider"
                    + " than the column limit, 1 keys the source layout cannot decode in snapshot "
                    + f.snapshot
                    + " (e.g. key "
                    + Hex.of(bigCell)),
        e.getMessage());
    assertTrue(e.getMessage().contains("nothing was written"), e.getMessage());
    assertEquals(0, rows(), "the target got nothing");
    assertFalse(hasFiles(f.staging), "no HFile, manifest or lock in the staging dir");
    // only the status file, which says the run failed
    assertTrue(
        Files.readString(f.staging.resolve(dev.rekey.common.JobStatus.FILE))
            .contains("\"state\" : \"failed\""));
  }

  private static BackfillResult run(BackfillOptions o) {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute();
  }

  private long rows() throws Exception {
    long n = 0;
    try (Table t = SharedHBase.connection().getTable(f.target);
        ResultScanner s = t.getScanner(new Scan())) {
      while (s.next() != null) {
        n++;
      }
    }
    return n;
  }

  private static boolean hasFiles(Path dir) throws Exception {
    if (!Files.exists(dir)) {
      return false;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      return all.anyMatch(
          p ->
              Files.isRegularFile(p)
                  // the status file and the local filesystem's checksum of it
                  && !p.getFileName()
                      .toString()
                      .matches(
                          "\\.?"
                              + java.util.regex.Pattern.quote(dev.rekey.common.JobStatus.FILE)
                              + "(\\.crc)?"));
    }
  }
}
