package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.jobs.common.ExitCodes;
import dev.rekey.jobs.common.RekeyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The two sides' site options: one spelling everywhere (--old-hbase-site, --new-hbase-site), the
 * older names still accepted and shown in --help as aliases (no Spark, no HBase).
 */
@Tag("unit")
class SiteOptionTest {
  private static final String[] BACKFILL = {
    "--source-snapshot", "s", "--source-layout", "telemetry-v1",
    "--target-table", "t2", "--target-layout", "telemetry-v2"
  };

  private static Path site(Path dir, String name, String quorum) throws Exception {
    return Files.writeString(
        dir.resolve(name),
        "<configuration><property><name>hbase.zookeeper.quorum</name><value>"
            + quorum
            + "</value></property></configuration>");
  }

  private static BackfillCommand backfill(String... more) {
    BackfillCommand c = new BackfillCommand();
    String[] args = java.util.Arrays.copyOf(BACKFILL, BACKFILL.length + more.length);
    System.arraycopy(more, 0, args, BACKFILL.length, more.length);
    new CommandLine(c).parseArgs(args);
    c.options();
    return c;
  }

  @Test
  void theNewNameAndTheOldAliasNameTheSameCluster(@TempDir Path dir) throws Exception {
    Path old = site(dir, "old.xml", "old-zk");
    for (String option : List.of("--old-hbase-site", "--source-hbase-site")) {
      BackfillCommand c = backfill(option, old.toString());
      assertEquals(old, c.sourceSite.site().file(), option);
      assertEquals("old-zk", c.sourceSite.site().conf().get("hbase.zookeeper.quorum"));
      assertEquals(List.of(old), c.sourceSite.otherHBaseSites(), option);
    }
    assertNull(backfill().sourceSite.site(), "none given: the command's own cluster");
  }

  @Test
  void theNameAndItsAliasTogetherAreAUsageError(@TempDir Path dir) throws Exception {
    String old = site(dir, "old.xml", "old-zk").toString();
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> backfill("--old-hbase-site", old, "--source-hbase-site", old));
    assertEquals(ExitCodes.USAGE, e.exitCode());
    assertEquals(
        "Give --old-hbase-site or its alias --source-hbase-site, not both (they name the same"
            + " cluster)",
        e.getMessage());
  }

  @Test
  void aMissingSiteFailsBeforeSparkStarts() {
    RekeyException e =
        assertThrows(RekeyException.class, () -> backfill("--source-hbase-site", "/no/such.xml"));
    assertEquals(ExitCodes.USAGE, e.exitCode());
    assertTrue(e.getMessage().startsWith("Cannot read HBase configuration /no/such.xml"));
  }

  @Test
  void replicateTakesTheNewSiteUnderEitherName(@TempDir Path dir) throws Exception {
    Path neu = site(dir, "new.xml", "new-zk");
    for (String option : List.of("--new-hbase-site", "--target-hbase-site")) {
      ReplicateCommand c = new ReplicateCommand();
      new CommandLine(c).parseArgs("status", option, neu.toString());
      assertEquals(neu, c.newSite.site().file(), option);
    }
  }

  @Test
  void helpShowsTheNewNamesWithTheirAliases() {
    for (String command : List.of("backfill", "reconcile", "repair")) {
      String help = CliRun.of(command, "--help").out();
      assertTrue(help.contains("--old-hbase-site=FILE"), command + ":\n" + help);
      assertTrue(help.contains("(alias: --source-hbase-site)"), command + ":\n" + help);
      assertFalse(help.contains("--source-hbase-site=FILE"), command + ":\n" + help);
    }
    for (String command : List.of("reconcile", "repair", "replicate")) {
      String help = CliRun.of(command, "--help").out();
      assertTrue(help.contains("--new-hbase-site=FILE"), command + ":\n" + help);
      assertTrue(help.contains("(alias: --target-hbase-site)"), command + ":\n" + help);
      assertFalse(help.contains("--target-hbase-site=FILE"), command + ":\n" + help);
    }
  }

  @Test
  void theKerberosCheckFindsTheSitesUnderEitherName(@TempDir Path dir) throws Exception {
    Path old = site(dir, "old.xml", "old-zk");
    Path neu = site(dir, "new.xml", "new-zk");
    CommandLine cl = new CommandLine(new ReconcileCommand());
    cl.parseArgs(
        "--old-table",
        "t1",
        "--old-layout",
        "telemetry-v1",
        "--bucket",
        "1h",
        "--source-hbase-site",
        old.toString(),
        "--new-hbase-site",
        neu.toString());
    assertEquals(List.of(old, neu), OtherClusterKerberos.of(cl.getCommandSpec()));
  }
}
