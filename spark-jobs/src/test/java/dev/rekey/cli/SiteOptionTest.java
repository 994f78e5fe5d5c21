package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.testing.SiteFiles;
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

  private static BackfillCommand backfill(String... more) {
    BackfillCommand c = new BackfillCommand();
    new CommandLine(c)
        .parseArgs(
            TargetOptionsTest.args(
                "--source-snapshot s --source-layout telemetry-v1 --target-table t2"
                    + " --target-layout telemetry-v2",
                more));
    c.options();
    return c;
  }

  @Test
  void theNewNameAndTheOldAliasNameTheSameCluster(@TempDir Path dir) throws Exception {
    Path old = SiteFiles.withQuorum(dir, "old.xml", "old-zk");
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
    String old = SiteFiles.withQuorum(dir, "old.xml", "old-zk").toString();
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
    Path neu = SiteFiles.withQuorum(dir, "new.xml", "new-zk");
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
    Path old = SiteFiles.withQuorum(dir, "old.xml", "old-zk");
    Path neu = SiteFiles.withQuorum(dir, "new.xml", "new-zk");
    CommandLine cl = new CommandLine(new ReconcileCommand());
    String[] sides = {"--source-hbase-site", old.toString(), "--new-hbase-site", neu.toString()};
    cl.parseArgs(
        TargetOptionsTest.args("--old-table t1 --old-layout telemetry-v1 --bucket 1h", sides));
    assertEquals(List.of(old, neu), OtherClusterKerberos.of(cl.getCommandSpec()));
  }
}
