package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SparkSubmitLauncherTest {
  @Test
  void aLocalMasterGetsTheSmallMachineSettings() {
    for (String m : new String[] {"local", "local[2]", "local[*]", "local-cluster[2,1,1024]"}) {
      assertTrue(SparkSubmitLauncher.defaultsFor(m).contains("spark.sql.shuffle.partitions=8"), m);
      assertTrue(SparkSubmitLauncher.defaultsFor(m).contains("spark.ui.enabled=false"), m);
    }
  }

  @Test
  void aClusterKeepsTheUiAndSizesShufflesByTheData() {
    for (String m : new String[] {"yarn", "spark://master:7077", "k8s://https://api:6443"}) {
      assertFalse(
          SparkSubmitLauncher.defaultsFor(m).stream()
              .anyMatch(
                  c -> c.startsWith("spark.sql.shuffle.partitions=") || c.startsWith("spark.ui.")),
          m);
      assertTrue(SparkSubmitLauncher.defaultsFor(m).contains("spark.sql.adaptive.enabled=true"), m);
    }
  }

  private static final String JAR = "/opt/rekey/lib/rekey-spark-jobs-0.4.0-spark3.5_2.12.jar";

  @Test
  void yarnClientModeShipsTheJarAsRekeyJarOnTheExecutorsClassPath() {
    List<String> c =
        SparkSubmitLauncher.jarSettings("yarn", false, JAR, true, "/opt/rekey", List.of());
    assertTrue(c.contains("spark.driver.extraClassPath=" + JAR), c.toString());
    assertTrue(c.contains("spark.executor.extraClassPath=rekey.jar"), c.toString());
    assertTrue(c.contains("spark.yarn.dist.files=" + JAR + "#rekey.jar"), c.toString());
    // a client-mode driver started by spark-submit's launcher has the module flags: netty's and
    // the install's home only
    String opts = SparkSubmitLauncher.last(c, "spark.driver.extraJavaOptions");
    assertFalse(opts.contains("--add-opens"), opts);
    assertTrue(opts.contains("-Drekey.home=/opt/rekey"), opts);
    assertTrue(opts.contains("-Dio.netty.tryReflectionSetAccessible=true"), opts);
    // the user's own files stay, rekey's jar after them
    List<String> theirs =
        SparkSubmitLauncher.jarSettings(
            "yarn", false, JAR, true, null, List.of("spark.yarn.dist.files=hdfs:///a.yaml"));
    assertTrue(
        theirs.contains("spark.yarn.dist.files=hdfs:///a.yaml," + JAR + "#rekey.jar"),
        theirs.toString());
  }

  @Test
  void yarnClusterModeNamesTheApplicationJarAndGivesTheDriverJava17Flags() {
    List<String> c =
        SparkSubmitLauncher.jarSettings(
            "yarn", true, JAR, true, "/opt/rekey", List.of("spark.driver.extraJavaOptions=-Dx=1"));
    assertTrue(c.contains("spark.driver.extraClassPath=__app__.jar"), c.toString());
    assertTrue(c.contains("spark.executor.extraClassPath=__app__.jar"), c.toString());
    assertTrue(c.stream().noneMatch(s -> s.startsWith("spark.yarn.dist.files")), c.toString());
    String opts = SparkSubmitLauncher.last(c, "spark.driver.extraJavaOptions");
    assertTrue(opts.contains("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"), opts);
    assertTrue(opts.endsWith(" -Dx=1"), "the user's options last: " + opts);
  }

  @Test
  void standaloneNamesTheJarsPathAndWaitsForAClusterModeDriver() {
    List<String> client =
        SparkSubmitLauncher.jarSettings("spark://m:7077", false, JAR, false, null, List.of());
    assertEquals(
        List.of("spark.driver.extraClassPath=" + JAR, "spark.executor.extraClassPath=" + JAR),
        client);
    List<String> cluster =
        SparkSubmitLauncher.jarSettings("spark://m:7077", true, JAR, false, null, List.of());
    assertTrue(
        cluster.contains("spark.standalone.submit.waitAppCompletion=true"), cluster.toString());
    assertTrue(
        SparkSubmitLauncher.last(cluster, "spark.driver.extraJavaOptions").contains("--add-opens"));
  }

  @Test
  void aUserWhoNamesAClassPathGetsNoneOfRekeysAndALocalMasterInThisJvmNothing() {
    List<String> c =
        SparkSubmitLauncher.jarSettings(
            "yarn", false, JAR, false, null, List.of("spark.executor.extraClassPath=mine.jar"));
    assertTrue(
        c.stream().noneMatch(s -> s.contains("ClassPath") || s.contains("dist.files")),
        c.toString());
    assertEquals(
        List.of(), SparkSubmitLauncher.jarSettings("local[*]", false, JAR, false, null, List.of()));
    assertEquals(
        "spark.driver.extraClassPath=" + JAR,
        SparkSubmitLauncher.jarSettings("local[2]", false, JAR, true, null, List.of()).get(0));
  }
}
