package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rekey.common.LayoutFiles;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.SharedHBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * `rekey get` and `rekey read` in-process against the shared server: merged order, jsonl, refusals,
 * exit codes.
 */
@Tag("e2e")
class ReadCommandIT {
  private static final long T0 = 1_764_374_400_000L;
  private static final int ROWS = 400;
  private static final KeyLayout V2 = LayoutFiles.load("telemetry-v2", "test");
  private static TableName table;

  @BeforeAll
  static void salted() throws Exception {
    table = SharedHBase.uniqueTable("cli_read");
    byte[][] splits = new byte[15][];
    for (int b = 1; b < 16; b++) {
      splits[b - 1] = new byte[] {(byte) b};
    }
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      LegacyTelemetryTable.create(admin, table, splits);
    }
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      long ts = T0 + i * 9_000L; // one reading every 9 s over the first hour
      puts.add(
          new Put(V2.encode(Map.of("ts", ts, "deviceId", device(i % 7))))
              .addColumn(
                  LegacyTelemetryTable.FAMILY,
                  LegacyTelemetryTable.VALUE,
                  ts,
                  Bytes.toBytes((long) i)));
    }
    try (Table t = SharedHBase.connection().getTable(table)) {
      t.put(puts);
    }
  }

  private static byte[] device(int i) {
    byte[] d = new byte[16];
    d[15] = (byte) i;
    return d;
  }

  private static String site() {
    return SharedHBase.server().clientSite().toString();
  }

  /** {@code rekey COMMAND --hbase-site ... --table <the test table> --layout LAYOUT ARGS}. */
  private static CliRun onTable(String command, String layout, String... args) {
    List<String> all =
        new ArrayList<>(
            List.of(
                command,
                "--hbase-site",
                site(),
                "--table",
                table.getNameAsString(),
                "--layout",
                layout));
    all.addAll(List.of(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  @Test
  void readPrintsTheWindowInNaturalOrderAsJsonl() throws Exception {
    CliRun r =
        onTable(
            "read",
            "telemetry-v2",
            "--from",
            Long.toString(T0 + 90_000),
            "--to",
            Long.toString(T0 + 900_000),
            "--format",
            "jsonl");
    assertEquals(0, r.code(), r.err());
    String[] lines = r.out().strip().split("\n");
    assertEquals(90, lines.length, "readings 10..99"); // ts = T0 + 9 s * i for i in [10, 100)
    ObjectMapper json = new ObjectMapper();
    for (int k = 0; k < lines.length; k++) {
      JsonNode row = json.readTree(lines[k]);
      int i = 10 + k;
      assertEquals(T0 + i * 9_000L, row.get("ts").asLong(), lines[k]);
      assertEquals(Hex.of(device(i % 7)), row.get("deviceId").asText());
      assertEquals(
          Hex.of(V2.encode(Map.of("ts", T0 + i * 9_000L, "deviceId", device(i % 7)))),
          row.get("key").asText());
      assertEquals(Hex.of(Bytes.toBytes((long) i)), row.get("cells").get(0).get("value").asText());
    }
    assertTrue(r.err().contains("90 rows from 16 scans"), r.err());
  }

  @Test
  void readLimitAndReverseGiveTheNewestRowsFirst() {
    CliRun r = onTable("read", "telemetry-v2", "--limit", "3", "--reverse");
    assertEquals(0, r.code(), r.err());
    String[] lines = r.out().strip().split("\n");
    assertEquals(3, lines.length, r.out());
    for (int k = 0; k < 3; k++) {
      assertTrue(lines[k].contains("ts=" + (T0 + (ROWS - 1 - k) * 9_000L)), lines[k]);
    }
  }

  @Test
  void getFindsARowByItsNaturalKeyAndExitsThreeWithoutOne() {
    long ts = T0 + 42 * 9_000L;
    CliRun hit = onTable("get", "telemetry-v2", "ts=" + ts, "deviceId=" + Hex.of(device(42 % 7)));
    assertEquals(0, hit.code(), hit.err());
    assertTrue(
        hit.out().startsWith(Hex.of(V2.encode(Map.of("ts", ts, "deviceId", device(0))))),
        hit.out());
    assertTrue(hit.out().contains("d:v@" + ts + "=0x" + Hex.of(Bytes.toBytes(42L))), hit.out());

    CliRun miss = onTable("get", "telemetry-v2", "ts=" + (ts + 1), "deviceId=" + Hex.of(device(0)));
    assertEquals(3, miss.code(), miss.out() + miss.err());
  }

  @Test
  void readsALayoutCannotServeAreRefusedWithTheReason() {
    CliRun r = onTable("read", "events-v2", "--from", "2026-11-29", "--to", "2026-11-30");
    assertEquals(2, r.code(), r.err());
    assertTrue(
        r.err()
            .contains(
                "Cannot read layout events-v2 by time window: its rows are ordered by a hash of "
                    + "[userId]"),
        r.err());
    CliRun noTable =
        CliRun.of(
            "read", "--hbase-site", site(), "--table", "no_such_table", "--layout", "telemetry-v2");
    assertEquals(2, noTable.code());
    assertTrue(noTable.err().contains("Cannot read no_such_table: no such table"), noTable.err());
  }
}
