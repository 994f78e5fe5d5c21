package dev.rekey.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.testing.ReadmeExamples;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What a newcomer sees: the README's demo example in a run directory that has never held a server
 * (no HBASE_CONF_DIR, no server started for it), then every other example of the README's Commands
 * table as written, in the table's order, against the demo's tables. Every other e2e test runs
 * against the shared server, and every checkout that once ran one keeps its client site, so only
 * this test sees a first run.
 */
@Tag("e2e")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FirstRunIT {
  /**
   * The examples this tier cannot run, and why: one list, kept short. ReadmeExamplesTest still
   * checks that their commands and options exist.
   */
  static final Map<String, String> NOT_RUN_HERE =
      Map.of(
          "bin/rekey cluster start",
          "starts the pseudo-distributed cluster (HDFS, two RegionServers, YARN; ~40 s, ~4 GB): the"
              + " cluster tier runs it (bin/test -Dgroups=cluster, PseudoClusterIT)",
          "bin/rekey demo --cluster --rows 200000",
          "needs that cluster: the cluster tier's PseudoClusterIT runs the cluster demo");

  /** Exit codes the README documents for its examples; every other example exits 0. */
  static final Map<String, Integer> EXPECTED_EXIT = Map.of("check-config", 3);

  private Path runDir;
  private Path workDir;
  private EmbeddedHBase server;
  private ReadmeExamples.Command demo;
  private RekeyProcess.Result demoRun;

  @BeforeAll
  void runTheReadmeDemoFromAnEmptyRunDirectory() throws Exception {
    Path target = SharedHBase.rekeyHome().resolve("target");
    Files.createDirectories(target);
    runDir = Files.createTempDirectory(target, "first-run");
    // the examples' relative paths (conf/, sql/, their outputs) as in a checkout, outputs kept
    // out of it
    workDir = Files.createDirectories(runDir.resolve("work"));
    for (String linked : List.of("conf", "sql")) {
      Files.createSymbolicLink(workDir.resolve(linked), SharedHBase.rekeyHome().resolve(linked));
    }
    server = new EmbeddedHBase(runDir.resolve("hbase"), s -> {});
    List<ReadmeExamples.Command> table =
        ReadmeExamples.of(SharedHBase.rekeyHome().resolve("README.md")).commandTable();
    demo = table.stream().filter(c -> c.name().equals("demo")).findFirst().orElseThrow();
    demoRun = run(demo);
  }

  @AfterAll
  void stopItsServers() throws Exception {
    if (workDir != null) {
      run(new ReadmeExamples.Command(List.of("spark-cluster", "stop"))); // the example's daemons
    }
    if (server != null) {
      server.stop(Duration.ofSeconds(60)); // whatever happened, no server is left behind
      assertTrue(server.runningProcess().isEmpty(), "no server left running in " + runDir);
    }
  }

  @Test
  @Order(1)
  void demoRunsFromAnEmptyRunDirectory() {
    assertEquals(0, demoRun.exitCode(), demo.line() + "\n" + demoRun.all());
    String out = demoRun.stdout();
    assertTrue(out.contains("Starting HBase"), "the demo starts its server:\n" + out);
    assertFalse(out.contains("already running"), out);
    // the snapshot holds the legacy rows and the dual writer's first batch
    long rows = Long.parseLong(demo.args().get(demo.args().indexOf("--rows") + 1));
    String read = String.format("%,d", rows + DemoDualWrites.FIRST_BATCH);
    assertTrue(
        out.contains("read " + read + " = written " + read + " + quarantined 0 + filtered 0"), out);
    assertTrue(out.contains("== Done in "), out);
  }

  @Test
  @Order(2)
  void everyCommandsTableExampleRunsAsWritten() throws Exception {
    List<String> failed = new ArrayList<>();
    int ran = 0;
    for (ReadmeExamples.Command c :
        ReadmeExamples.of(SharedHBase.rekeyHome().resolve("README.md")).commandTable()) {
      if (c.equals(demo) || NOT_RUN_HERE.containsKey(c.line())) {
        continue;
      }
      RekeyProcess.Result r = run(c);
      int expected = EXPECTED_EXIT.getOrDefault(c.name(), 0);
      if (r.exitCode() != expected) {
        failed.add(
            c.line() + "\n  exit " + r.exitCode() + ", expected " + expected + ":\n" + r.all());
      }
      ran++;
    }
    assertTrue(failed.isEmpty(), "README examples that do not work as written:\n" + failed);
    assertTrue(ran >= 12, "examples run: " + ran);
  }

  /**
   * The README's cluster section: the release that installs rekey, and any jar it names is built.
   */
  @Test
  @Order(3)
  void clusterSectionNamesTheBuiltJar() throws Exception {
    // the section sends users through a release (bin/rekey-release, ReleaseTarballIT checks what
    // it builds); a JAR= line it still shows must name a file the build makes
    String readme = Files.readString(SharedHBase.rekeyHome().resolve("README.md"));
    String section = readme.substring(readme.indexOf("## Running on a real cluster"));
    assertTrue(
        section.contains("bin/rekey-release "), "the cluster section names bin/rekey-release");
    assertTrue(Files.isExecutable(SharedHBase.rekeyHome().resolve("bin/rekey-release")));
    List<String> jars =
        ReadmeExamples.of(SharedHBase.rekeyHome().resolve("README.md"))
            .shellLines("## Running on a real cluster")
            .stream()
            .filter(l -> l.startsWith("JAR="))
            .map(l -> l.substring("JAR=".length()))
            .toList();
    for (String jar : jars) {
      assertTrue(Files.isRegularFile(SharedHBase.rekeyHome().resolve(jar)), "README's JAR=" + jar);
    }
  }

  /**
   * One example as a user types it in a checkout: bin/rekey with the run directory of this test,
   * outputs (and the backfill's default staging under the home directory) in its work directory.
   */
  private RekeyProcess.Result run(ReadmeExamples.Command c) throws Exception {
    ProcessBuilder pb = RekeyProcess.builder(c.args().toArray(new String[0]));
    pb.directory(workDir.toFile());
    pb.environment().put("REKEY_RUN_DIR", runDir.toString());
    pb.environment().remove("HBASE_CONF_DIR");
    pb.environment().put("REKEY_JAVA_OPTS", "-Duser.home=" + workDir);
    return RekeyProcess.run(pb, 600);
  }
}
