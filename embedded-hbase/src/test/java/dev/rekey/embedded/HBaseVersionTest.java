package dev.rekey.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class HBaseVersionTest {
  @Test
  void theBuiltVersionIsNamedWithOrWithoutItsHadoopSuffix() {
    HBaseVersion built = HBaseVersion.built();
    assertEquals("2.6.1-hadoop3", built.maven());
    assertTrue(HBaseVersion.of("2.6.1").isBuilt());
    assertTrue(HBaseVersion.of("2.6.1-hadoop3").isBuilt());
    assertTrue(HBaseVersion.of(null).isBuilt());
    HBaseVersion other = HBaseVersion.of("2.5.13-hadoop3");
    assertFalse(other.isBuilt());
    assertEquals("2.5.13", other.release());
    assertEquals("2.5", other.line());
  }

  @Test
  void aVersionThatIsNotAReleaseIsRefusedWithAnExample() {
    EmbeddedHBaseException e =
        assertThrows(EmbeddedHBaseException.class, () -> HBaseVersion.of("2.5"));
    assertTrue(e.getMessage().startsWith("Cannot use HBase version '2.5': not a release version"));
    assertThrows(EmbeddedHBaseException.class, () -> HBaseVersion.of("2.5.13;rm -rf"));
  }

  @Test
  void theGeneratedPomLogsEveryLineThroughLog4j2() {
    String pom = new HBaseVersion("2.4.18").pom();
    assertTrue(pom.contains("<artifactId>hbase-server</artifactId><version>2.4.18</version>"), pom);
    assertTrue(pom.contains("<artifactId>hbase-zookeeper</artifactId><version>2.4.18</version>"));
    for (String excluded : new String[] {"slf4j-log4j12", "slf4j-reload4j", "reload4j"}) {
      assertTrue(pom.contains("<artifactId>" + excluded + "</artifactId></exclusion>"), excluded);
    }
    assertTrue(pom.contains("<artifactId>log4j-slf4j-impl</artifactId><version>2.20.0</version>"));
  }
}
