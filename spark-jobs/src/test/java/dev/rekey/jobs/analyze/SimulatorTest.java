package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SimulatorTest {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  @Test
  void rekeyedToTheSaltedLayoutSpreadsAsComputedDirectly() {
    List<KeySample> s = GeneratedKeys.telemetry(V1, 8000, 80);
    Simulation sim =
        Simulator.simulate(V1, V2, SplitSpec.parse("natural", V2), GeneratedKeys.keys(s), 80_000);
    assertEquals(16, sim.regions());
    assertEquals(0, sim.unconvertible());
    long[] direct = new long[16];
    for (int i = 0; i < 8000; i++) {
      direct[
          V2.saltOf(
              Map.of("ts", GeneratedKeys.ts(i, 8000), "deviceId", GeneratedKeys.device(i % 80)))]++;
    }
    for (int r = 0; r < 16; r++) {
      assertEquals(
          direct[r] * 10, sim.predictedRows().get(r), "region " + r); // scaled 8,000 -> 80,000
    }
    assertEquals(Arrays.stream(direct).max().getAsLong() / 500.0, sim.maxOverMean(), 1e-12);
    assertTrue(sim.maxOverMean() < 1.3, "even: " + sim.maxOverMean());
    assertFalse(sim.hexSplitsOnRawKeys());
    assertTrue(sim.warnings().isEmpty(), sim.warnings().toString());
  }

  @Test
  void hexStringSplitOnARawPrefixIsFlagged() {
    KeyLayout events = Layouts.shipped("events-v2");
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 4000; i++) {
      keys.add(events.encode(Map.of("userId", "u" + i, "ts", 1_700_000_000_000L + i)));
    }
    Simulation sim = Simulator.simulate(null, null, SplitSpec.parse("hex:16", null), keys, 4000);
    assertTrue(sim.hexSplitsOnRawKeys());
    assertTrue(
        sim.warnings()
            .get(0)
            .startsWith(
                "HexStringSplit boundaries on a raw-byte prefix: almost every row in a "
                    + "handful of regions"),
        sim.warnings().get(0));
    // directly: raw bytes below '0' (0x30) all fall in region 1; above 'f' (0x66) all in the last
    long below =
        keys.stream()
            .filter(k -> Arrays.compareUnsigned(k, SplitPoints.hexString(16).get(0)) < 0)
            .count();
    assertEquals(below, sim.predictedRows().get(0));
    assertTrue(
        sim.regionsFor90Percent() <= 3, "90% of rows in " + sim.regionsFor90Percent() + " regions");
    // the same keys with the layout's own split points are even
    Simulation good =
        Simulator.simulate(
            null, null, new SplitSpec("prefix", SplitPoints.prefix(2, 16)), keys, 4000);
    assertFalse(good.hexSplitsOnRawKeys());
    assertTrue(good.maxOverMean() < 1.3, "" + good.maxOverMean());
  }

  @Test
  void undecodableKeysAreCountedNotDropped() {
    List<byte[]> keys = new ArrayList<>(GeneratedKeys.keys(GeneratedKeys.telemetry(V1, 100, 10)));
    keys.add(Hex.parse("0102"));
    Simulation sim = Simulator.simulate(V1, V2, SplitSpec.parse("natural", V2), keys, 101);
    assertEquals(1, sim.unconvertible());
    assertEquals(100, sim.sampledRows());
    assertTrue(
        sim.warnings().get(0).startsWith("1 of 101 sampled keys could not be rekeyed"),
        sim.warnings().toString());
  }
}
