package dev.rekey.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rekey.common.Json;
import dev.rekey.common.Poll;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The campaign's done-when: four tables (one with two targets, one in three shards) run by {@code
 * bin/rekey campaign run}, killed (SIGKILL) during the second table's backfill and run again, end
 * with every table reconciled green; an independent client finds each old table equal to its new
 * ones by natural key, every cell and version; and the store files show nothing loaded twice.
 */
@Tag("e2e")
class CampaignIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static final KeyLayout BY_DEVICE = Layouts.shipped("telemetry-by-device");
  private static final int ROWS = 1_500;

  /** A legacy table in {@code regions} day slices, 3 versions kept, every 5th reading twice. */
  private static TableName source(String prefix, int regions) throws Exception {
    TableName t = SharedHBase.uniqueTable(prefix);
    TelemetryGenerator gen = TelemetryGenerator.oneDay(ROWS, 20);
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = Bytes.toBytes(TelemetryGenerator.DEFAULT_START + i * 86_400_000L / regions);
    }
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(
          org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(
                  org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(
                          LegacyTelemetryTable.FAMILY)
                      .setMaxVersions(3)
                      .build())
              .build(),
          splits);
    }
    LegacyTelemetryTable.write(SharedHBase.connection(), t, gen, s -> {});
    List<Put> older = new ArrayList<>();
    for (long i = 0; i < ROWS; i += 5) {
      TelemetryReading r = gen.reading(i);
      older.add(
          new Put(LegacyTelemetryTable.rowKey(r))
              .addColumn(
                  LegacyTelemetryTable.FAMILY,
                  LegacyTelemetryTable.VALUE,
                  r.ts() - 1,
                  Bytes.toBytes(-1.0)));
    }
    try (Table table = SharedHBase.connection().getTable(t)) {
      table.put(older);
    }
    return t;
  }

  private static String target(String table, String layout, String splits) {
    return String.format(
        "      - table: %s%n        layout: %s%n        %s%n"
            + "        families: [\"d:versions=3,bloom=row\"]%n"
            + "        settings: {COMPACTION_ENABLED: \"false\"}%n",
        table, layout, splits);
  }

  private static String table(TableName source, String targets, String extra) {
    return String.format(
        "  - source: {table: %s}%n    old_layout: telemetry-v1%n    targets:%n%s"
            + "    reconcile: {bucket: 6h, digest: true}%n    repair: true%n%s",
        source, targets, extra);
  }

  private static JsonNode json(String text) throws java.io.IOException {
    return Json.MAPPER.readTree(text);
  }

  /** The state of {@code step} of table {@code id} in the state file, or "". */
  private static String stepStatus(Path state, String id, String step) throws java.io.IOException {
    if (!Files.exists(state)) {
      return "";
    }
    for (JsonNode t : json(Files.readString(state)).get("tables")) {
      if (t.get("id").asText().equals(id)) {
        for (JsonNode s : t.get("steps")) {
          if (s.get("step").asText().equals(step)) {
            return s.get("status").asText();
          }
        }
      }
    }
    return "";
  }

  @Test
  void aKilledCampaignRunAgainEndsGreenWithNothingLoadedTwice() throws Exception {
    TableName a = source("cpa", 1);
    TableName b = source("cpb", 1);
    TableName c = source("cpc", 3);
    TableName d = source("cpd", 1);
    Map<TableName, List<TableName>> targets = new java.util.LinkedHashMap<>();
    targets.put(a, List.of(TableName.valueOf(a + "_v2"), TableName.valueOf(a + "_dev")));
    for (TableName t : List.of(b, c, d)) {
      targets.put(t, List.of(TableName.valueOf(t + "_v2")));
    }
    Path dir = SharedHBase.runRoot().resolve("campaign-" + a.getNameAsString());
    String plan =
        String.format(
                "version: 1%nname: it%njobs_at_once: 1%nstaging_root: %s%nreport_root: %s%n"
                    + "tables:%n",
                dir.resolve("staging").toUri(), dir.resolve("reports"))
            + table(
                a,
                target(a + "_v2", "telemetry-v2", "splits: salt")
                    + target(a + "_dev", "telemetry-by-device", "regions: 4"),
                "")
            + table(b, target(b + "_v2", "telemetry-v2", "splits: salt"), "")
            + table(c, target(c + "_v2", "telemetry-v2", "splits: salt"), "    shards: 3\n")
            + table(d, target(d + "_v2", "telemetry-v2", "splits: salt"), "");
    Path planFile = dir.resolve("plan.yaml");
    Files.createDirectories(dir);
    Files.writeString(planFile, plan);
    Path state = dir.resolve("staging").resolve("it").resolve("_campaign").resolve("state.json");

    // the first run, killed while the second table's backfill runs
    Path out = dir.resolve("run1.txt");
    Process first =
        RekeyProcess.builder("campaign", "run", planFile.toString())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    try {
      Poll.until(
          () -> "RUNNING".equals(stepStatus(state, b.getNameAsString(), "backfill")),
          Duration.ofSeconds(240),
          Duration.ofMillis(50),
          () ->
              new IllegalStateException("the second table's backfill never began:\n" + read(out)));
    } finally {
      first.destroyForcibly();
      first.waitFor(30, TimeUnit.SECONDS);
    }
    assertEquals("DONE", stepStatus(state, a.getNameAsString(), "reconcile " + a + "_v2"));
    assertEquals("", stepStatus(state, c.getNameAsString(), "snapshot"), "table 3 not begun");

    // run again: resumes from the state
    RekeyProcess.Result again = RekeyProcess.run(300, "campaign", "run", planFile.toString());
    assertEquals(0, again.exitCode(), again.all());
    assertTrue(
        again.stderr().contains("create-table " + a + "_v2: ended in an earlier run"), again.all());
    assertTrue(again.stderr().contains("backfill: RUNNING in an earlier run"), again.all());

    RekeyProcess.Result status =
        RekeyProcess.run(120, "campaign", "status", planFile.toString(), "--json");
    assertEquals(0, status.exitCode(), status.all());
    JsonNode s = json(status.stdout());
    assertEquals("rekey.campaign.status", s.get("schema").asText());
    assertEquals("GREEN", s.get("verdict").asText());
    for (JsonNode t : s.get("tables")) {
      assertEquals("GREEN", t.get("verdict").asText(), t.toString());
    }
    JsonNode sharded = s.get("tables").get(2);
    assertEquals(3, sharded.get("shards").asInt());
    assertTrue(Files.exists(dir.resolve("reports").resolve("it").resolve("campaign.html")));

    // an independent client: every old table equals each of its new ones by natural key
    for (Map.Entry<TableName, List<TableName>> e : targets.entrySet()) {
      var old = TableContents.byNaturalKey(e.getKey(), V1);
      assertEquals(ROWS, old.size());
      for (TableName n : e.getValue()) {
        KeyLayout l = n.getNameAsString().endsWith("_dev") ? BY_DEVICE : V2;
        assertEquals(old, TableContents.byNaturalKey(n, l), n + " vs " + e.getKey());
      }
    }
    // nothing loaded twice: each target's store files are exactly what its recorded runs wrote
    // (compactions are off on the targets, so a second load would show as more files)
    for (Map.Entry<TableName, List<TableName>> e : targets.entrySet()) {
      for (TableName n : e.getValue()) {
        assertEquals(
            filesRecorded(dir, e.getKey(), n, targets.get(e.getKey()).size()),
            SharedHBase.storeFileCount(n),
            "store files of " + n);
      }
    }
  }

  /** HFiles every backfill run (each shard) wrote into {@code target}, as its results say. */
  private static int filesRecorded(Path dir, TableName source, TableName target, int targets)
      throws Exception {
    Path root = dir.resolve("staging").resolve("it").resolve(source.getNameAsString());
    // one target or several: <table dir>/backfill-<target> (and shard-i-of-N below it)
    Path staging = root.resolve("backfill-" + target.getNameAsString());
    List<Path> results;
    try (var files = Files.walk(staging)) {
      results = files.filter(p -> p.getFileName().toString().equals("_result.json")).toList();
    }
    assertTrue(!results.isEmpty(), "results under " + staging);
    int n = 0;
    for (Path r : results) {
      for (JsonNode region : json(Files.readString(r)).get("regions")) {
        n += region.get("files").asInt();
      }
    }
    return n;
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
