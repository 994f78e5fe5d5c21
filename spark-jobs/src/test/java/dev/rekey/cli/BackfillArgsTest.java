package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arguments a Spark command refuses before Spark or HBase start: exit 2 and one line saying why.
 */
@Tag("unit")
class BackfillArgsTest {
  private static CliRun backfill(String table, String... more) {
    String[] base = {
      "backfill",
      "--source-snapshot",
      "s",
      "--source-layout",
      "telemetry-v1",
      "--target-table",
      table,
      "--target-layout",
      "telemetry-v2"
    };
    String[] args = new String[base.length + more.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    return CliRun.of(args);
  }

  @Test
  void anIllegalTableNameIsAUsageError() {
    CliRun r = backfill("no such table");
    assertEquals(2, r.code(), r.err());
    assertTrue(
        r.err().contains("Cannot backfill 'no such table': not a valid table name ("), r.err());
    assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
  }

  @Test
  void aMalformedHBaseSiteNamesTheFileAndTheParserPosition(@TempDir Path dir) throws Exception {
    Path site = dir.resolve("hbase-site.xml");
    Files.writeString(
        site,
        "<configuration>\n  <property><name>hbase.zookeeper.quorum</name>\n</configuration>\n");
    CliRun r = backfill("fine_table", "--hbase-site", site.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(
        r.err()
            .contains(
                "Cannot read HBase configuration "
                    + site
                    + ": not a valid Hadoop configuration file: "
                    + "line 3, column "),
        r.err());
    assertTrue(
        r.err().contains("(fix the XML, or pass the cluster's hbase-site.xml with --hbase-site)"),
        r.err());
    assertEquals(1, r.err().strip().lines().count(), "one line, no stack trace: " + r.err());
  }

  private static String[] targets(String... targets) {
    String[] base = {"backfill", "--source-snapshot", "s", "--source-layout", "telemetry-v1"};
    String[] args = new String[base.length + targets.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(targets, 0, args, base.length, targets.length);
    return args;
  }

  @Test
  void severalTargetsAreCheckedEachBeforeSparkStarts() {
    CliRun noTarget = CliRun.of(targets());
    assertEquals(2, noTarget.code(), noTarget.err());
    assertTrue(
        noTarget
            .err()
            .contains("give --target-table T --target-layout L, or --target TABLE=LAYOUT"),
        noTarget.err());
    CliRun malformed = CliRun.of(targets("--target", "t2"));
    assertEquals(2, malformed.code(), malformed.err());
    assertTrue(
        malformed.err().contains("Invalid --target 't2': expected TABLE=LAYOUT"), malformed.err());
    CliRun twice =
        CliRun.of(targets("--target", "t2=telemetry-v2", "--target", "t2=telemetry-by-device"));
    assertEquals(2, twice.code(), twice.err());
    assertTrue(
        twice.err().contains("Cannot backfill t2: it is given twice as a target"), twice.err());
    CliRun both =
        CliRun.of(
            targets(
                "--target",
                "t2=telemetry-v2",
                "--target-table",
                "t3",
                "--target-layout",
                "telemetry-v2"));
    assertEquals(2, both.code(), both.err());
    assertTrue(both.err().contains("not both"), both.err());
    // a layout whose fields the source lacks is named with its target
    CliRun misfit = CliRun.of(targets("--target", "t2=telemetry-v2", "--target", "t3=events-v2"));
    assertEquals(2, misfit.code(), misfit.err());
    assertTrue(misfit.err().contains("Cannot backfill t3 from snapshot s: "), misfit.err());
  }

  @Test
  void aTimeTiersValueThatIsNotADurationIsAUsageErrorNamingIt() {
    CliRun r = backfill("fine_table", "--time-tiers", "daily");
    assertEquals(2, r.code(), r.err());
    assertTrue(
        r.err().contains("Cannot parse --time-tiers daily: give an ISO-8601 duration (P1D"),
        r.err());
    assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
  }
}
