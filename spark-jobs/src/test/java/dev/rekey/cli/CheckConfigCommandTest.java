package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** check-config in-process on the shipped example files (no cluster contact). */
@Tag("unit")
class CheckConfigCommandTest {
  private static final Path EXAMPLES = SharedHBase.rekeyHome().resolve("conf/check-config");

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  @Test
  void goodExampleIsClean() {
    CliRun r = run("check-config", "--conf", EXAMPLES.resolve("hbase-site.good.xml").toString());
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("0 violation(s), 0 warning(s): clean"), r.out());
  }

  @Test
  void badExampleExits3WithEveryRule(@TempDir Path tmp) throws Exception {
    Path json = tmp.resolve("findings.json");
    CliRun r =
        run(
            "check-config",
            "--conf",
            EXAMPLES.resolve("hbase-site.bad.xml").toString(),
            "--json",
            json.toString());
    assertEquals(3, r.code(), r.out() + r.err());
    for (String key :
        new String[] {
          "hbase.client.operation.timeout",
          "hbase.rpc.timeout",
          "hbase.client.retries.number",
          "hbase.client.scanner.caching",
          "import.wal.durability",
          "hbase.mapreduce.scan.cacheblocks"
        }) {
      assertTrue(r.out().contains(" " + key + " = "), key + " in\n" + r.out());
    }
    assertTrue(r.out().contains("4 violation(s), 2 warning(s)"), r.out());
    assertTrue(
        Files.readString(json).contains("\"key\" : \"import.wal.durability\""),
        Files.readString(json));
  }

  @Test
  void missingFileIsAUsageError() {
    CliRun r = run("check-config", "--conf", "/no/such/hbase-site.xml");
    assertEquals(2, r.code());
    assertTrue(
        r.err().contains("Cannot read HBase configuration /no/such/hbase-site.xml: no such file"),
        r.err());
  }

  @Test
  void brokenXmlNamesTheFile(@TempDir Path tmp) throws Exception {
    Path broken = Files.writeString(tmp.resolve("hbase-site.xml"), "<configuration><property>");
    CliRun r = run("check-config", "--conf", broken.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("Cannot read HBase configuration " + broken + ": "), r.err());
  }
}
