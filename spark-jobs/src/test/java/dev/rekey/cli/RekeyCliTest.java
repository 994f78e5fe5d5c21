package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.Layouts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The CLI's surface, in-process: help, per-command help, usage errors exit 2. */
@Tag("unit")
class RekeyCliTest {
  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  /** {@code rekey key ACTION --layout FILE ARGS}, FILE the shipped layout of that name. */
  private static CliRun key(String action, String layout, String... args) {
    List<String> all = new ArrayList<>(List.of("key", action, "--layout"));
    all.add(Layouts.file(layout).toString());
    all.addAll(List.of(args));
    return run(all.toArray(String[]::new));
  }

  @Test
  void helpListsEveryCommand() {
    CliRun r = run("--help");
    assertEquals(0, r.code());
    for (String name : Rekey.commandLine().getSubcommands().keySet()) {
      assertTrue(r.out().contains(name), "--help lists " + name + ":\n" + r.out());
    }
  }

  @Test
  void everyCommandHasHelp() {
    for (var e : Rekey.commandLine().getSubcommands().entrySet()) {
      if (e.getKey().equals("help")) {
        continue;
      }
      CliRun r = run(e.getKey(), "--help");
      assertEquals(0, r.code(), e.getKey() + " --help");
      assertTrue(r.out().contains("Usage: rekey " + e.getKey()), r.out());
    }
  }

  /**
   * bin/rekey records a class-data-sharing archive for the commands that load Spark: its list is
   * the commands that extend SparkCommand, no more, no fewer.
   */
  @Test
  void binRekeyListsExactlyTheSparkCommands() throws Exception {
    Set<String> spark = new TreeSet<>();
    Rekey.commandLine()
        .getSubcommands()
        .forEach(
            (name, cl) -> {
              if (cl.getCommand() instanceof SparkCommand<?>) {
                spark.add(name);
              }
            });
    Path script = Path.of(System.getProperty("rekey.home", "..")).resolve("bin/rekey");
    Matcher m =
        Pattern.compile("\\n\\s*([a-z|-]+)\\) spark=1 ;;").matcher(Files.readString(script));
    assertTrue(m.find(), "the Spark command pattern in " + script);
    assertEquals(spark, new TreeSet<>(List.of(m.group(1).split("\\|"))));
  }

  @Test
  void unknownOptionIsAUsageError() {
    CliRun r = run("demo", "--no-such-option");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("Unknown option: '--no-such-option'"), r.err());
  }

  @Test
  void unknownCommandIsAUsageError() {
    CliRun r = run("frobnicate");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("frobnicate"), r.err());
  }

  @Test
  void badValueNamesTheOption() {
    CliRun r = run("demo", "--rows", "many");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--rows"), r.err());
  }

  @Test
  void demoWritersAreDualOrReplicationAndReplicationOnlyOnTheEmbeddedServer() {
    CliRun bad = run("demo", "--writers", "both");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("--writers"), bad.err());
    CliRun cluster = run("demo", "--writers", "replication", "--cluster");
    assertEquals(2, cluster.code(), cluster.err());
    assertTrue(
        cluster.err().contains("--writers replication runs on the embedded HBase only"),
        cluster.err());
  }

  @Test
  void hbaseActionIsChecked() {
    CliRun r = run("hbase", "restart");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("start, stop, status"), r.err());
  }

  @Test
  void keyEncodeIsTheMd5PrefixTheTerminatedIdAndTheReversedTime() {
    // md5("alice")[0..2] = 63 84 | "alice" | 00 | Long.MAX_VALUE - 1700000000000
    CliRun r = key("encode", "events-v2", "userId=alice", "ts=1700000000000");
    assertEquals(0, r.code(), r.err());
    assertEquals("6384616c696365007ffffe74301a97ff", r.out().trim());
  }

  @Test
  void keyDecodePrintsSaltAndFields() {
    CliRun r = key("decode", "telemetry-v2", "010000018bcfe5680000112233445566778899aabbccddeeff");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("salt: 1"), r.out());
    assertTrue(r.out().contains("ts: 1700000000000"), r.out());
    assertTrue(r.out().contains("deviceId: 00112233445566778899aabbccddeeff"), r.out());
  }

  @Test
  void keyDecodeRejectsAWrongSaltNamingTheReason() {
    CliRun r = key("decode", "telemetry-v2", "020000018bcfe5680000112233445566778899aabbccddeeff");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("salt byte 0x02 does not match"), r.err());
  }

  @Test
  void keyEncodeNamesTheBadField() {
    CliRun r = key("encode", "telemetry-v1", "ts=abc", "deviceId=00");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("field 'ts'"), r.err());
  }

  @Test
  void keyVectorsChecksTheShippedLayouts() {
    for (String l : new String[] {"events-v2", "telemetry-v1", "telemetry-v2"}) {
      CliRun r = run("key", "vectors", "--layout", Layouts.file(l).toString());
      assertEquals(0, r.code(), l + ": " + r.out() + r.err());
      assertTrue(r.out().contains(" 0 failed"), r.out());
    }
  }

  @Test
  void missingLayoutFileIsAUsageError() {
    CliRun r = run("key", "encode", "--layout", "no/such.yaml", "a=b");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("no/such.yaml"), r.err());
  }
}
