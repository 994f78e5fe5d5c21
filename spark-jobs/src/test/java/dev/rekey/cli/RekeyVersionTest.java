package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RekeyVersionTest {
  private static final RekeyVersion.Matrix MATRIX =
      RekeyVersion.Matrix.parse(
          "# hbase spark hadoop\n2.6.1 3.5.9 3.3.6\n\n2.5.13 3.4.4 3.3.6 # later\n");

  @Test
  void theShippedMatrixHoldsTodaysTestedSetAndVersionPrintsThreeLinesAtLeast() {
    assertEquals(
        java.util.Optional.empty(),
        RekeyVersion.Matrix.parse(text())
            .warning(Map.of("hbase", "2.6.1-hadoop3", "spark", "3.5.9", "hadoop", "3.3.6")));
    String[] lines = new RekeyVersion().getVersion();
    assertTrue(lines[0].matches("rekey \\S+ \\(commit .+\\)"), String.join("\n", lines));
    assertTrue(lines[1].startsWith("built against: Spark 3.5.9"), lines[1]);
    // the test's classpath is the build's: Spark 3.5.9 and Hadoop 3.3.6 found
    assertTrue(lines[2].startsWith("found at run time: Spark 3.5.9, HBase 2.6.1"), lines[2]);
  }

  private static String text() {
    try (var in = RekeyVersion.class.getResourceAsStream(RekeyVersion.MATRIX)) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aTestedCombinationGivesNoWarningWhateverItsSuffix() {
    assertEquals(
        java.util.Optional.empty(),
        MATRIX.warning(
            Map.of(
                "hbase", "2.6.1-hadoop3 (rekey's client)", "spark", "3.5.9", "hadoop", "3.3.6")));
    assertEquals(
        java.util.Optional.empty(),
        MATRIX.warning(Map.of("hbase", "2.5.13-hadoop3", "spark", "3.4.4", "hadoop", "3.3.6")));
  }

  @Test
  void anUntestedCombinationWarnsAndNamesTheTestedOnes() {
    // 2.6.10 is not 2.6.1; and each part tested alone is not enough
    for (Map<String, String> found :
        List.of(
            Map.of("hbase", "2.6.10", "spark", "3.5.9", "hadoop", "3.3.6"),
            Map.of("hbase", "2.6.1", "spark", "3.4.4", "hadoop", "3.3.6"),
            Map.of("hbase", "2.6.1", "spark", "none", "hadoop", "3.3.6"))) {
      String w = MATRIX.warning(found).orElseThrow();
      assertTrue(w.startsWith("WARNING: these versions are outside the tested matrix"), w);
      assertTrue(w.contains("HBase 2.6.1 / Spark 3.5.9 / Hadoop 3.3.6"), w);
    }
  }

  @Test
  void aMalformedMatrixLineIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> RekeyVersion.Matrix.parse("2.6.1 3.5.9"));
    assertTrue(e.getMessage().contains("2.6.1 3.5.9"), e.getMessage());
  }

  @Test
  void aReleaseStampWinsOverTheBuildsVersion() {
    Properties build = new Properties();
    build.putAll(
        Map.of(
            "version",
            "0.1.0-SNAPSHOT",
            "spark",
            "3.5.9",
            "scala",
            "2.12",
            "hbase",
            "2.6.1-hadoop3",
            "hadoop",
            "3.3.6"));
    Properties release = new Properties();
    release.putAll(Map.of("version", "0.4.0", "commit", "abc1234"));
    List<String> lines =
        RekeyVersion.lines(
            build, release, Map.of("spark", "3.5.1", "hbase", "2.6.1", "hadoop", "3.3.4"), MATRIX);
    assertEquals("rekey 0.4.0 (commit abc1234)", lines.get(0));
    assertEquals(
        "built against: Spark 3.5.9 (Scala 2.12), HBase 2.6.1-hadoop3, Hadoop 3.3.6", lines.get(1));
    assertEquals("found at run time: Spark 3.5.1, HBase 2.6.1, Hadoop 3.3.4", lines.get(2));
    assertTrue(lines.get(3).startsWith("WARNING"), lines.toString());
    assertEquals(
        "rekey 0.1.0-SNAPSHOT (commit unknown (not a release))",
        RekeyVersion.lines(build, new Properties(), Map.of(), MATRIX).get(0));
  }
}
