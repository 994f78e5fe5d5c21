package dev.rekey.demo;

import dev.rekey.client.LayoutReader;
import dev.rekey.client.ReadQuery;
import dev.rekey.client.ReadSwitch;
import dev.rekey.rowkey.FieldValues;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The demo's read switch (after reconcile is green): readers go SHADOW (serve v1, compare with v2),
 * then NEW; then one hour read from v1 with one contiguous scan and from v2 with 16 merged bucket
 * scans prints the same rows.
 */
final class DemoReadSwitch {
  private static final long HOUR = 3_600_000L;
  private final PrintStream out;

  DemoReadSwitch(PrintStream out) {
    this.out = out;
  }

  /**
   * @return true when SHADOW saw no mismatch and both reads of the hour agree
   */
  boolean run(Connection conn, KeyLayout v1, KeyLayout v2, TelemetryGenerator gen)
      throws IOException {
    try (LayoutReader oldReader = LayoutReader.open(conn, DemoTables.TELEMETRY_V1, v1);
        LayoutReader newReader = LayoutReader.open(conn, DemoTables.TELEMETRY_V2, v2)) {
      ReadSwitch reads = new ReadSwitch(oldReader, newReader, ReadSwitch.Mode.SHADOW);
      long from = TelemetryGenerator.DEFAULT_START + 10 * HOUR;
      for (long i = 0; i < gen.rows(); i += Math.max(1, gen.rows() / 200)) {
        TelemetryReading r = gen.reading(i);
        reads.get(Map.of("ts", r.ts(), "deviceId", r.deviceId()));
      }
      reads.scan(ReadQuery.window(from, from + HOUR));
      ReadSwitch.Stats shadow = reads.stats();
      out.println("  SHADOW: " + shadow.line());
      shadow.samples().forEach(s -> out.println("    mismatch: " + s));
      reads.mode(ReadSwitch.Mode.NEW);
      out.println("  NEW: reads now served by " + DemoTables.TELEMETRY_V2);

      ReadQuery hour = ReadQuery.window(from, from + HOUR);
      List<Result> a = oldReader.scan(hour);
      List<Result> b = reads.scan(hour);
      out.printf(
          "  10:00-11:00 from %s (1 scan): %,d rows; from %s (%d bucket scans, merged): %,d rows%n",
          DemoTables.TELEMETRY_V1,
          a.size(),
          DemoTables.TELEMETRY_V2,
          newReader.plan(hour).ranges().size(),
          b.size());
      List<String> la = lines(v1, a);
      List<String> lb = lines(v2, b);
      for (int i = 0; i < Math.min(3, la.size()); i++) {
        out.println("    v1 " + la.get(i));
        out.println("    v2 " + lb.get(i));
      }
      boolean same = la.equals(lb);
      out.println("  same rows in the same order: " + (same ? "yes" : "NO"));
      return shadow.agreed() && same;
    }
  }

  private static List<String> lines(KeyLayout layout, List<Result> rows) {
    List<String> out = new ArrayList<>();
    for (Result r : rows) {
      out.add(
          FieldValues.format(layout, layout.decode(r.getRow()).fields())
              + " v="
              + Bytes.toLong(r.getValue(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE)));
    }
    return out;
  }
}
