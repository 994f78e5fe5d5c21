package dev.rekey.jobs.guardrails;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.read.PartitionFold;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The guardrail decisions, the tally's worst-N and the fold's measures, without a cluster. */
@Tag("unit")
class GuardrailsTest {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static final GuardrailLimits LIMITS =
      new GuardrailLimits(1_000, 100, 3, Short.MAX_VALUE, V1, V2, 2);

  private static RowShape row(int columns, long rowBytes, long cell, int keyBytes, String bad) {
    return new RowShape(new byte[] {1}, columns, rowBytes, cell, "d:v@1", keyBytes, bad);
  }

  @Test
  void aRowWithinEveryLimitBreaksNone() {
    assertEquals(List.of(), Guardrails.check(LIMITS, row(3, 1_000, 100, 25, null)));
  }

  @Test
  void eachLimitIsNamedWithItsMeasure() {
    List<Finding> f =
        Guardrails.check(LIMITS, row(4, 1_001, 101, Short.MAX_VALUE + 1, "too short"));
    assertEquals(
        List.of(
            Guardrail.ROW_TOO_BIG,
            Guardrail.CELL_TOO_BIG,
            Guardrail.ROW_TOO_WIDE,
            Guardrail.KEY_TOO_LONG,
            Guardrail.UNDECODABLE),
        f.stream().map(Finding::kind).toList());
    assertEquals(List.of(1_001L, 101L, 4L, 32_768L, 0L), f.stream().map(Finding::measure).toList());
    assertEquals("cell d:v@1 is 101 bytes over 100", f.get(1).detail());
    assertEquals("the rekeyed key of 32,768 bytes over 32,767", f.get(3).detail());
    assertEquals("too short", f.get(4).detail());
  }

  @Test
  void zeroMeansNoLimit() {
    GuardrailLimits none = new GuardrailLimits(0, 0, 0, Short.MAX_VALUE, null, null, 5);
    assertEquals(
        List.of(), Guardrails.check(none, row(1_000_000, Long.MAX_VALUE, 1L << 40, 9, null)));
  }

  @Test
  void theClustersLimitsComeFromItsConfUnlessACellSizeIsGiven() {
    Configuration conf = new Configuration(false);
    GuardrailLimits defaults = GuardrailLimits.of(conf, null, null, V1, null);
    assertEquals(HConstants.TABLE_MAX_ROWSIZE_DEFAULT, defaults.maxRowBytes());
    assertEquals(10_485_760L, defaults.maxCellBytes());
    assertEquals(0, defaults.maxColumns());
    conf.setLong(HConstants.TABLE_MAX_ROWSIZE_KEY, 5_000);
    conf.setLong("hbase.client.keyvalue.maxsize", 2_000);
    GuardrailLimits set = GuardrailLimits.of(conf, null, 50, V1, V2);
    assertEquals(5_000, set.maxRowBytes());
    assertEquals(2_000, set.maxCellBytes());
    assertEquals(50, set.maxColumns());
    assertEquals(700, GuardrailLimits.of(conf, 700L, null, V1, V2).maxCellBytes());
  }

  @Test
  void theTallyKeepsTheWorstPerKindWhateverTheMergeOrder() {
    List<long[]> rows = new ArrayList<>(); // {region, cell bytes, key byte}
    for (int i = 0; i < 40; i++) {
      rows.add(new long[] {i % 3, 90 + i * 7L % 50, i});
    }
    GuardrailTally whole = tally(rows);
    Collections.shuffle(rows, new Random(7));
    GuardrailTally a = tally(rows.subList(0, 17));
    GuardrailTally b = tally(rows.subList(17, 40));
    GuardrailTally merged = b.merge(a);
    assertEquals(whole.worst(Guardrail.CELL_TOO_BIG), merged.worst(Guardrail.CELL_TOO_BIG));
    assertEquals(whole.count(Guardrail.CELL_TOO_BIG), merged.count(Guardrail.CELL_TOO_BIG));
    assertEquals(40, merged.rows());
    List<GuardrailTally.Example> worst = merged.worst(Guardrail.CELL_TOO_BIG);
    assertEquals(2, worst.size());
    assertTrue(worst.get(0).measure() >= worst.get(1).measure());
    long max = 0;
    long over = 0;
    for (long[] r : rows) {
      max = Math.max(max, r[1]);
      over += r[1] > 100 ? 1 : 0;
    }
    assertEquals(max, worst.get(0).measure());
    assertEquals(over, merged.count(Guardrail.CELL_TOO_BIG));
    long[] per = merged.perRegion(Guardrail.CELL_TOO_BIG);
    assertEquals(over, per[0] + per[1] + per[2]);
  }

  @Test
  void undecodableKeysKeepTheFirstInKeyOrder() {
    GuardrailTally t = new GuardrailTally(1, 2);
    for (int k : new int[] {9, 3, 7, 1}) {
      t.add(0, new byte[] {(byte) k}, List.of(new Finding(Guardrail.UNDECODABLE, 0, "bad")));
    }
    assertEquals(
        List.of("01", "03"), t.worst(Guardrail.UNDECODABLE).stream().map(e -> e.keyHex()).toList());
  }

  private static GuardrailTally tally(List<long[]> rows) {
    GuardrailTally t = new GuardrailTally(3, 2);
    for (long[] r : rows) {
      RowShape s = new RowShape(new byte[] {(byte) r[2]}, 1, r[1], r[1], "d:v@1", 25, null);
      t.add((int) r[0], s.key(), Guardrails.check(LIMITS, s));
    }
    return t;
  }

  @Test
  void theFoldMeasuresColumnsCellsUnderTheTargetKeyAndUndecodableKeys() {
    byte[] good = V1.encode(Map.of("ts", 1_764_374_400_000L, "deviceId", new byte[16]));
    byte[] wide = V1.encode(Map.of("ts", 1_764_374_400_001L, "deviceId", new byte[16]));
    byte[] bad = Bytes.toBytes("not-a-v1-key");
    byte[] fam = Bytes.toBytes("d");
    GuardrailLimits limits = new GuardrailLimits(0, 200, 3, Short.MAX_VALUE, V1, V2, 5);
    PartitionFold.Sink<GuardrailTally> sink =
        new GuardrailFold(limits, List.of(new byte[0], new byte[] {(byte) 0x80})).open(0);
    // good: one column in two versions, one cell of 150 value bytes: under the v2 key (25 bytes: a
    // salt byte + v1 key)
    // its KeyValue is 8 + 25 + 1 + 1 + 12 + 150 = 197 bytes, within 200
    sink.startRow(good);
    sink.cell(new KeyValue(good, fam, Bytes.toBytes("v"), 2, new byte[150]));
    sink.cell(new KeyValue(good, fam, Bytes.toBytes("v"), 1, new byte[10]));
    sink.endRow();
    // wide: 4 columns, one of 160 value bytes (207 under the target key)
    sink.startRow(wide);
    for (String q : new String[] {"a", "b", "c", "v"}) {
      sink.cell(new KeyValue(wide, fam, Bytes.toBytes(q), 1, new byte[q.equals("v") ? 160 : 1]));
    }
    sink.endRow();
    sink.startRow(bad);
    sink.cell(new KeyValue(bad, fam, Bytes.toBytes("v"), 1, new byte[1]));
    sink.endRow();
    GuardrailTally t = sink.result();
    assertEquals(3, t.rows());
    assertEquals(1, t.count(Guardrail.ROW_TOO_WIDE));
    assertEquals(4, t.worst(Guardrail.ROW_TOO_WIDE).get(0).measure());
    assertEquals(Hex.of(wide), t.worst(Guardrail.ROW_TOO_WIDE).get(0).keyHex());
    assertEquals(1, t.count(Guardrail.CELL_TOO_BIG));
    assertEquals(207, t.worst(Guardrail.CELL_TOO_BIG).get(0).measure());
    assertEquals(
        "cell d:v@1 is 207 bytes over 200", t.worst(Guardrail.CELL_TOO_BIG).get(0).detail());
    assertEquals(1, t.count(Guardrail.UNDECODABLE));
    assertEquals(Hex.of(bad), t.worst(Guardrail.UNDECODABLE).get(0).keyHex());
    assertEquals(0, t.count(Guardrail.KEY_TOO_LONG));

    GuardrailReport r = GuardrailReport.of(limits, t, List.of("", "80"));
    assertTrue(r.found());
    assertEquals(Map.of("", 1L), r.kind(Guardrail.ROW_TOO_WIDE).regions());
    assertFalse(r.kind(Guardrail.ROW_TOO_BIG).rows() > 0);
    assertTrue(
        r.lines()
            .get(0)
            .endsWith(
                "1 cells over the cell size limit, 1 rows wider than the column limit, 1 keys the"
                    + " source layout cannot decode"),
        r.lines().toString());
    assertTrue(
        r.lines()
            .contains(
                "    key " + Hex.of(bad) + ": " + t.worst(Guardrail.UNDECODABLE).get(0).detail()));
  }
}
