package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** check-config in-process on the shipped example files (no cluster contact). */
@Tag("unit")
class CheckConfigCommandTest {
  private static final Path EXAMPLES = Path.of(System.getProperty("rekey.home", "..")).resolve("conf/check-config");

  private static String[] run(String... args) {
    CommandLine cl = Rekey.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  @Test
  void goodExampleIsClean() {
    String[] r = run("check-config", "--conf", EXAMPLES.resolve("hbase-site.good.xml").toString());
    assertEquals("0", r[0], r[1] + r[2]);
    assertTrue(r[1].contains("0 violation(s), 0 warning(s): clean"), r[1]);
  }

  @Test
  void badExampleExits3WithEveryRule(@TempDir Path tmp) throws Exception {
    Path json = tmp.resolve("findings.json");
    String[] r = run("check-config", "--conf", EXAMPLES.resolve("hbase-site.bad.xml").toString(), "--json", json.toString());
    assertEquals("3", r[0], r[1] + r[2]);
    for (String key : new String[] {"hbase.client.operation.timeout", "hbase.rpc.timeout", "hbase.client.retries.number",
        "hbase.client.scanner.caching", "import.wal.durability", "hbase.mapreduce.scan.cacheblocks"}) {
      assertTrue(r[1].contains(" " + key + " = "), key + " in\n" + r[1]);
    }
    assertTrue(r[1].contains("4 violation(s), 2 warning(s)"), r[1]);
    assertTrue(Files.readString(json).contains("\"key\" : \"import.wal.durability\""), Files.readString(json));
  }

  @Test
  void missingFileIsAUsageError() {
    String[] r = run("check-config", "--conf", "/no/such/hbase-site.xml");
    assertEquals("2", r[0]);
    assertTrue(r[2].contains("Cannot read HBase configuration /no/such/hbase-site.xml: no such file"), r[2]);
  }

  @Test
  void brokenXmlNamesTheFile(@TempDir Path tmp) throws Exception {
    Path broken = Files.writeString(tmp.resolve("hbase-site.xml"), "<configuration><property>");
    String[] r = run("check-config", "--conf", broken.toString());
    assertEquals("2", r[0]);
    assertTrue(r[2].contains("Cannot read HBase configuration " + broken + ": "), r[2]);
  }
}
