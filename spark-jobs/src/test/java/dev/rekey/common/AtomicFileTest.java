package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class AtomicFileTest {
  @TempDir Path dir;

  @Test
  void replacesTheFileAndLeavesNoTmpBehind() throws Exception {
    Path f = dir.resolve("sub/report.html");
    AtomicFile.write(f, "one");
    AtomicFile.write(f, "two");
    assertEquals("two", Files.readString(f));
    try (var files = Files.list(f.getParent())) {
      assertEquals(1, files.count(), "only report.html");
    }
  }

  @Test
  void jsonIsIndentedWithAFinalNewline() throws Exception {
    Path f = dir.resolve("r.json");
    AtomicFile.writeJson(f, Map.of("rows", 3));
    assertEquals("{\n  \"rows\" : 3\n}\n", Files.readString(f));
  }

  @Test
  void anUnwritableDirectoryIsNamedWithTheNextStep() throws Exception {
    Path file = dir.resolve("x");
    Files.writeString(file, "a file, not a directory");
    RekeyException e =
        assertThrows(RekeyException.class, () -> AtomicFile.write(file.resolve("r.json"), "{}"));
    assertTrue(
        e.getMessage().startsWith("Cannot write " + file.resolve("r.json") + ": "), e.getMessage());
    assertTrue(e.getMessage().endsWith("(check the directory exists and is writable)"));
  }

  @Test
  void onAHadoopFilesystemTheFileIsReplacedToo() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path f = new org.apache.hadoop.fs.Path(dir.toUri().toString(), "_m.json");
    AtomicFile.write(fs, f, "one".getBytes(StandardCharsets.UTF_8));
    AtomicFile.write(fs, f, "two".getBytes(StandardCharsets.UTF_8));
    assertEquals("two", Files.readString(dir.resolve("_m.json")));
    assertTrue(Files.notExists(dir.resolve("_m.json.tmp")));
  }
}
