package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class OutputDirTest {
  @Test
  void aPathWithoutSchemeIsLocalOnALocalMasterAndLeftToTheDefaultFilesystemOnACluster() {
    String cwd = Paths.get("").toAbsolutePath().toUri().toString();
    assertEquals(cwd + "scan-out", OutputDir.qualify("scan-out", true));
    assertEquals("file:///data/out", OutputDir.qualify("/data/out", true));
    assertEquals("scan-out", OutputDir.qualify("scan-out", false));
    assertEquals("/data/out", OutputDir.qualify("/data/out", false));
  }

  @Test
  void aUriIsTakenAsGivenOnAnyMaster() {
    for (boolean local : new boolean[] {true, false}) {
      assertEquals("hdfs:///user/me/out", OutputDir.qualify("hdfs:///user/me/out", local));
      assertEquals("s3a://bucket/out", OutputDir.qualify("s3a://bucket/out", local));
      assertEquals("file:///tmp/out", OutputDir.qualify("file:///tmp/out", local));
    }
  }

  @Test
  void aDefaultFilesystemQualifiesAPathWithoutScheme() {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "file:///");
    OutputDir d = OutputDir.of("/data/nightly", false, conf);
    assertEquals("file:/data/nightly", d.root().toString());
    assertEquals("/data/nightly/summary.json", d.display(d.resolve("summary.json")));
  }

  @Test
  void writesAtomicallyAndReadsBack(@TempDir Path tmp) throws Exception {
    OutputDir d = OutputDir.of(tmp.resolve("a/b").toString(), true, new Configuration()).create();
    d.write("summary.json", "{}\n");
    assertEquals("{}\n", Files.readString(tmp.resolve("a/b/summary.json")));
    assertTrue(Files.notExists(tmp.resolve("a/b/summary.json.tmp")));
  }

  @Test
  void anEmptyOrUnknownSchemeIsAUsageErrorNamingTheInput() {
    RekeyException e =
        assertThrows(RekeyException.class, () -> OutputDir.of(" ", true, new Configuration()));
    assertEquals(ExitCodes.USAGE, e.exitCode());
    e =
        assertThrows(
            RekeyException.class,
            () -> OutputDir.of("nosuchfs://x/out", false, new Configuration()));
    assertEquals(ExitCodes.USAGE, e.exitCode());
    assertTrue(e.getMessage().contains("'nosuchfs://x/out'"), e.getMessage());
  }
}
