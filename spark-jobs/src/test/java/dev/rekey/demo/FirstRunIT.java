package dev.rekey.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a newcomer sees: {@code bin/rekey demo} in a run directory that has never held a server, no
 * HBASE_CONF_DIR, no server started for it. Every other e2e test runs against the shared server,
 * and every checkout that once ran one keeps its client site, so only this test sees a first run.
 */
@Tag("e2e")
class FirstRunIT {
  @Test
  void demoRunsFromAnEmptyRunDirectory() throws Exception {
    Files.createDirectories(SharedHBase.rekeyHome().resolve("target"));
    Path runDir = Files.createTempDirectory(SharedHBase.rekeyHome().resolve("target"), "first-run");
    EmbeddedHBase server = new EmbeddedHBase(runDir.resolve("hbase"), s -> {});
    try {
      ProcessBuilder pb =
          RekeyProcess.builder("demo", "--rows", "20000", "--devices", "50", "--stop");
      pb.environment().put("REKEY_RUN_DIR", runDir.toString());
      pb.environment().remove("HBASE_CONF_DIR");
      RekeyProcess.Result r = RekeyProcess.run(pb, 600);

      assertEquals(0, r.exitCode(), r.all());
      assertTrue(r.stdout().contains("Starting HBase"), "the demo starts its server:\n" + r.all());
      assertFalse(r.stdout().contains("already running"), r.stdout());
      // the snapshot holds the 20,000 legacy rows and the dual writer's first batch
      assertTrue(
          r.stdout().contains("read 20,100 = written 20,100 + quarantined 0 + filtered 0"),
          r.stdout());
      assertTrue(r.stdout().contains("== Done in "), r.stdout());
      assertTrue(r.stdout().contains("HBase stopped"), "--stop stops it:\n" + r.stdout());
      assertTrue(server.runningProcess().isEmpty(), "no server left running in " + runDir);
    } finally {
      server.stop(Duration.ofSeconds(60)); // a failed run must not leave its server behind
    }
  }
}
