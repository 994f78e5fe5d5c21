package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.SiteFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cluster's site file as a job gets it: parsed once, copies out, Spark's settings over it. */
@Tag("unit")
class ClusterSiteTest {

  private static final SparkConf SPARK =
      new SparkConf(false)
          .set("spark.hadoop.hbase.zookeeper.quorum", "spark-zk")
          .set("spark.hadoop.fs.file.impl.disable.cache", "true");

  @Test
  void theOwnClusterTakesEverySparkHadoopSetting(@TempDir Path dir) throws Exception {
    ClusterSite own = ClusterSite.own(SiteFiles.withQuorum(dir, "own.xml", "own-zk"));
    assertEquals("own-zk", own.conf().get("hbase.zookeeper.quorum"));
    Configuration withSpark = own.conf(SPARK);
    assertEquals("spark-zk", withSpark.get("hbase.zookeeper.quorum"));
    assertEquals("true", withSpark.get("fs.file.impl.disable.cache"));
  }

  @Test
  void anotherClusterKeepsItsOwnAddress(@TempDir Path dir) throws Exception {
    ClusterSite other = ClusterSite.other(SiteFiles.withQuorum(dir, "old.xml", "old-zk"));
    Configuration withSpark = other.conf(SPARK);
    assertEquals("old-zk", withSpark.get("hbase.zookeeper.quorum"));
    assertEquals("true", withSpark.get("fs.file.impl.disable.cache"));
  }

  @Test
  void eachCallIsACopyOfOneParse(@TempDir Path dir) throws Exception {
    Path file = SiteFiles.withQuorum(dir, "s.xml", "zk1");
    ClusterSite s = ClusterSite.own(file);
    Configuration first = s.conf();
    first.set("hbase.zookeeper.quorum", "changed");
    Files.writeString(file, "<configuration/>"); // not read again
    Configuration second = s.conf();
    assertNotSame(first, second);
    assertEquals("zk1", second.get("hbase.zookeeper.quorum"));
    assertEquals(file, s.file());
  }

  @Test
  void aMissingOrMalformedFileIsAUsageErrorNamingIt(@TempDir Path dir) throws Exception {
    RekeyException missing =
        assertThrows(RekeyException.class, () -> ClusterSite.other(dir.resolve("none.xml")).conf());
    assertEquals(ExitCodes.USAGE, missing.exitCode());
    assertTrue(missing.getMessage().contains("none.xml: no such file"), missing.getMessage());
    Path broken = Files.writeString(dir.resolve("broken.xml"), "<configuration><property>");
    RekeyException malformed =
        assertThrows(RekeyException.class, () -> ClusterSite.own(broken).conf());
    assertTrue(
        malformed.getMessage().contains("not a valid Hadoop configuration file"),
        malformed.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ClusterSite.other(null));
  }
}
