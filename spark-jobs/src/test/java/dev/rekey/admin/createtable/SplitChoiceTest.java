package dev.rekey.admin.createtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.plan.SplitFile;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class SplitChoiceTest {

  @Test
  void saltGivesOneRegionPerBucket() {
    List<byte[]> p = SplitChoice.choose(Layouts.shipped("telemetry-v2"), null, "salt");
    assertEquals(15, p.size());
    assertArrayEquals(new byte[] {1}, p.get(0));
    assertArrayEquals(new byte[] {15}, p.get(14));
    assertEquals(15, SplitChoice.choose(Layouts.shipped("telemetry-v2"), 16, "salt").size());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SplitChoice.choose(Layouts.shipped("telemetry-v2"), 8, "salt"));
    assertTrue(e.getMessage().contains("16 buckets"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SplitChoice.choose(Layouts.shipped("telemetry-v1"), null, "salt"));
    assertTrue(e.getMessage().contains("needs a salted layout"), e.getMessage());
  }

  @Test
  void regionsAloneUseTheLayoutsNaturalPoints() {
    assertEquals(
        Hex.of(SplitPoints.prefix(2, 64).get(0)),
        Hex.of(SplitChoice.choose(Layouts.shipped("events-v2"), 64, null).get(0)));
    assertEquals("0400", Hex.of(SplitChoice.choose(Layouts.shipped("events-v2"), 64, null).get(0)));
    assertEquals(
        SplitPoints.uniform(4).size(),
        SplitChoice.choose(Layouts.shipped("telemetry-v1"), 4, null).size());
    assertTrue(SplitChoice.choose(Layouts.shipped("telemetry-v1"), 1, null).isEmpty());
    assertThrows(
        IllegalArgumentException.class,
        () -> SplitChoice.choose(Layouts.shipped("telemetry-v1"), null, null));
  }

  @Test
  void uniformAndHexAreHBasesAlgorithms() {
    assertEquals(
        Hex.of(SplitPoints.uniform(8).get(3)),
        Hex.of(SplitChoice.choose(Layouts.shipped("telemetry-v1"), 8, "uniform").get(3)));
    assertEquals(
        "80000000",
        new String(SplitChoice.choose(Layouts.shipped("telemetry-v1"), 2, "hex").get(0)));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SplitChoice.choose(Layouts.shipped("telemetry-v1"), null, "uniform"));
    assertTrue(e.getMessage().contains("needs --regions"), e.getMessage());
  }

  @Test
  void hexOnARawBytePrefixIsRefusedWithAnalyzesReason() {
    for (String layout : new String[] {"telemetry-v2", "events-v2"}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> SplitChoice.choose(Layouts.shipped(layout), 16, "hex"),
              layout);
      assertTrue(
          e.getMessage()
              .startsWith(
                  "--splits hex puts HexStringSplit boundaries on layout " + layout + ", whose"),
          e.getMessage());
      assertTrue(
          e.getMessage().contains(dev.rekey.jobs.analyze.KeyStats.HEX_ON_RAW), e.getMessage());
    }
    // the same rule as analyze's simulation: a layout without a prefix is not judged
    assertEquals(15, SplitChoice.choose(Layouts.shipped("telemetry-v1"), 16, "hex").size());
  }

  @Test
  void splitFileRoundTrips(@TempDir Path dir) throws Exception {
    List<byte[]> points = SplitPoints.prefix(2, 16);
    Path f = dir.resolve("splits.txt");
    SplitFile.write(f, points); // what `rekey plan --out` writes
    List<byte[]> back = SplitChoice.choose(Layouts.shipped("events-v2"), null, f.toString());
    assertEquals(points.size(), back.size());
    for (int i = 0; i < points.size(); i++) {
      assertArrayEquals(points.get(i), back.get(i));
    }
    assertEquals(15, SplitChoice.choose(Layouts.shipped("events-v2"), 16, f.toString()).size());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SplitChoice.choose(Layouts.shipped("events-v2"), 4, f.toString()));
    assertTrue(e.getMessage().contains("does not match split file"), e.getMessage());
  }
}
