package dev.rekey.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SparkDistributionTest {
  @Test
  void aVersionThatIsNotAReleaseIsRefusedWithAnExample() {
    EmbeddedHBaseException e =
        assertThrows(EmbeddedHBaseException.class, () -> new SparkDistribution("3.4"));
    assertTrue(e.getMessage().startsWith("Cannot use Spark version '3.4': not a release version"));
    assertThrows(EmbeddedHBaseException.class, () -> new SparkDistribution("3.4.4 -Dx=y"));
  }

  @Test
  void thePomIsThatReleasesSparkCoreAndSqlForScala212() {
    String pom = new SparkDistribution("3.4.4").pom();
    assertTrue(
        pom.contains("<artifactId>spark-core_2.12</artifactId><version>3.4.4</version>"), pom);
    assertTrue(
        pom.contains("<artifactId>spark-sql_2.12</artifactId><version>3.4.4</version>"), pom);
    // the versions its distribution ships, not Maven's nearest
    assertTrue(
        pom.contains(
            "<artifactId>spark-parent_2.12</artifactId><version>3.4.4</version>\n"
                + "        <type>pom</type><scope>import</scope>"),
        pom);
  }

  @Test
  void theHadoopOfADistributionIsItsClientApis() {
    assertEquals(
        "3.3.4",
        SparkDistribution.hadoopOf(
            List.of(
                Path.of("/m2/org/apache/spark/spark-core_2.12-3.4.4.jar"),
                Path.of("/m2/org/apache/hadoop/hadoop-client-api-3.3.4.jar"),
                Path.of("/m2/org/apache/hadoop/hadoop-client-runtime-3.3.4.jar"))));
    assertEquals("none", SparkDistribution.hadoopOf(List.of(Path.of("/x/scala-library.jar"))));
  }
}
