package dev.rekey.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The release tarball (bin/rekey-release, from this build's jars): what it holds, what its jobs'
 * jar leaves to the cluster, the version stamped in it, and that bin/rekey from it needs no Maven:
 * {@code --version} and {@code config} run with no mvn on the PATH and an empty HOME, and a job
 * without any Spark says how to get one.
 */
@Tag("e2e")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReleaseTarballIT {
  private final Path work = SharedHBase.rekeyHome().resolve("target/release-it");
  private Path tarball;
  private Set<String> entries;

  @BeforeAll
  void build() throws Exception {
    tarball = Releases.build(work.resolve("out"), false);
    RekeyProcess.Result list =
        RekeyProcess.run(new ProcessBuilder("tar", "-tzvf", tarball.toString()), 120);
    assertEquals(0, list.exitCode(), list.all());
    entries = new TreeSet<>();
    for (String line : list.stdout().lines().toList()) {
      String[] cols = line.trim().split("\\s+");
      String path = cols[cols.length - 1];
      entries.add(path);
      if (path.equals(Releases.NAME + "/bin/rekey")) {
        assertTrue(cols[0].startsWith("-rwxr-xr-x"), "bin/rekey is executable: " + line);
      }
    }
  }

  @Test
  void theTarballHoldsWhatAGatewayNeedsAndNoBuild() {
    String r = Releases.NAME + "/";
    for (String e :
        List.of(
            "bin/rekey",
            "bin/lib/collector.sh",
            "conf/rekey.properties",
            "conf/log4j2.properties",
            "conf/hbase-site.cluster-example.xml",
            "conf/layouts/telemetry-v1.yaml",
            "conf/layouts/telemetry-v2.yaml",
            "sql/device_window_counts.sql",
            "sql/user_daily_activity.sql",
            "docs/production.md",
            "docs/reference/README.md",
            "README.md",
            "LICENSE",
            "NOTICE",
            "RELEASE",
            "lib/rekey-spark-jobs-0.4.0-spark3.5_2.12.jar",
            "lib/rekey-client-0.4.0.jar",
            "lib/rekey-rowkey-0.4.0.jar",
            "lib/rekey-replication-0.4.0-hbase2.6.jar",
            "maven/rekey-rowkey-0.4.0.jar",
            "maven/rekey-rowkey-0.4.0.pom",
            "maven/rekey-client-0.4.0.jar",
            "maven/rekey-client-0.4.0.pom",
            "maven/rekey-bom-0.4.0.pom")) {
      assertTrue(entries.contains(r + e), "missing " + e + " in " + entries);
    }
    for (String e : entries) {
      assertTrue(e.startsWith(r), "outside " + r + ": " + e);
      assertTrue(!e.contains("SNAPSHOT"), "a snapshot name: " + e);
      assertTrue(!e.endsWith("pom.xml") && !e.contains("/.rekey") && !e.contains("/target/"), e);
      assertTrue(!e.contains("lib/demo/"), "the demo kit is its own tarball: " + e);
    }
  }

  @Test
  void theJobsJarLeavesSparkAndHadoopToTheClusterAndCarriesTheReleaseStamp() throws Exception {
    Path dir = Releases.unpack(tarball, work.resolve("jar-check"));
    try (ZipFile jar =
        new ZipFile(dir.resolve("lib/rekey-spark-jobs-0.4.0-spark3.5_2.12.jar").toFile())) {
      assertNotNull(jar.getEntry("dev/rekey/cli/Rekey.class"));
      assertNotNull(
          jar.getEntry("org/apache/hadoop/hbase/mapreduce/TableSnapshotInputFormat.class"));
      assertNull(jar.getEntry("org/apache/spark/SparkContext.class"), "Spark is the cluster's");
      assertNull(jar.getEntry("org/apache/hadoop/fs/FileSystem.class"), "Hadoop is the cluster's");
      assertNull(jar.getEntry("scala/Option.class"), "Scala is the cluster's");
      Properties stamp = new Properties();
      stamp.load(jar.getInputStream(jar.getEntry("dev/rekey/release.properties")));
      assertEquals("0.4.0", stamp.getProperty("version"));
      assertTrue(stamp.getProperty("commit").matches("[0-9a-f]{7,}(-dirty)?"), stamp.toString());
    }
    String release = Files.readString(dir.resolve("RELEASE"), StandardCharsets.UTF_8);
    assertTrue(release.contains("version=0.4.0\n"), release);
    assertTrue(
        release.contains("hbase=2.6.1-hadoop3\n") && release.contains("spark=3.5.9\n"), release);
    String pom = Files.readString(dir.resolve("maven/rekey-client-0.4.0.pom"));
    assertTrue(
        pom.contains("<artifactId>rekey-client</artifactId>\n  <version>0.4.0</version>"), pom);
    assertTrue(!pom.contains("<parent>") && !pom.contains("SNAPSHOT"), pom);
    assertTrue(Files.readString(dir.resolve("LICENSE")).contains("Apache License"));
    assertTrue(Files.readString(dir.resolve("NOTICE")).contains("Protocol Buffers"));
  }

  @Test
  void binRekeyFromTheReleaseRunsWithoutMavenOrSpark() throws Exception {
    Path dir = Releases.unpack(tarball, work.resolve("no-maven"));
    Path bin = Releases.pathWithoutMaven(work.resolve("no-maven-bin"));
    Path home = Files.createDirectories(work.resolve("empty-home"));
    RekeyProcess.Result version =
        RekeyProcess.run(
            Releases.inRelease(dir, bin, home, Map.of(), List.of("bin/rekey", "--version")), 120);
    assertEquals(0, version.exitCode(), version.all());
    assertTrue(version.stdout().startsWith("rekey 0.4.0 (commit "), version.all());
    assertTrue(
        version
            .stdout()
            .contains("built against: Spark 3.5.9 (Scala 2.12), HBase 2.6.1-hadoop3, Hadoop 3.3.6"),
        version.all());
    // no Spark here: found none, which is outside the tested matrix
    assertTrue(version.stdout().contains("found at run time: Spark none"), version.all());
    assertTrue(
        version.stdout().contains("WARNING: these versions are outside the tested matrix"),
        version.all());

    RekeyProcess.Result job =
        RekeyProcess.run(
            Releases.inRelease(
                dir,
                bin,
                home,
                Map.of(),
                List.of(
                    "bin/rekey",
                    "scan",
                    "--table",
                    "t",
                    "--layout",
                    "events-v2",
                    "--day",
                    "2026-11-29")),
            120);
    assertEquals(2, job.exitCode(), job.all());
    assertTrue(job.stderr().contains("rekey: no Spark found: set SPARK_HOME"), job.all());
    assertTrue(job.stderr().contains("rekey-0.4.0-demo.tar.gz"), job.all());
    // nothing was built or fetched: no ~/.m2, no build dir
    assertTrue(!Files.exists(home.resolve(".m2")), "an empty HOME stays empty");
    assertTrue(!Files.exists(dir.resolve(".rekey/build.log")));
  }
}
