package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.RekeyProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/rekey's class-data-sharing archive: written by a Spark command as it exits, promoted by the
 * next command once verified, used from then on; an archive cut short (its writer killed while
 * writing) is thrown away rather than mapped, which would crash the JVM.
 */
@Tag("e2e")
class ClassDataSharingIT {
  private static final String[] DECODE = {
    "key", "decode", "--layout", "telemetry-v1", "0000019ac1f0000000112233445566778899aabbccddeeff"
  };

  @TempDir Path cds;

  @Test
  void archiveIsWrittenVerifiedUsedAndACutShortOneIsDropped() throws Exception {
    // a Spark command (here stopped at its options, so it is quick) writes the archive as its JVM
    // exits
    RekeyProcess.Result usage = run("reconcile", "--no-such-option");
    assertEquals(2, usage.exitCode(), usage.all());
    Path part = only(".part");
    assertTrue(Files.size(part) > 0);

    // the next command verifies and promotes it, and runs
    assertDecodes(run(DECODE));
    Path archive = only(".jsa");
    assertEquals(
        part.getFileName().toString().replaceAll("\\.\\d+\\.part$", ".jsa"),
        archive.getFileName().toString());
    assertDecodes(run(DECODE));

    // classes come from the archive ("(top)" is the dynamic archive on top of the JDK's own),
    // except under Flight
    // Recorder, whose class-file load hook crashes Java 17 together with a dynamic archive
    assertTrue(
        runWith("-Xlog:class+load=info", DECODE).stdout().contains("shared objects file (top)"));
    RekeyProcess.Result profiled =
        runWith(
            "-XX:StartFlightRecording=filename=" + cds.resolve("x.jfr") + " -Xlog:class+load=info",
            DECODE);
    assertEquals(0, profiled.exitCode(), profiled.all());
    assertTrue(!profiled.stdout().contains("shared objects file (top)"), "no archive under JFR");
    Files.deleteIfExists(cds.resolve("x.jfr"));

    // a writer that died half-way (no such pid any more) left a truncated archive: dropped, nothing
    // crashes
    byte[] whole = Files.readAllBytes(archive);
    Files.delete(archive);
    Path cut =
        archive.resolveSibling(
            archive.getFileName().toString().replace(".jsa", ".2147483646.part"));
    Files.write(cut, java.util.Arrays.copyOf(whole, whole.length / 3));
    assertDecodes(run(DECODE));
    assertTrue(
        files(".part").isEmpty() && files(".jsa").isEmpty(), "the cut-short archive is removed");
  }

  private RekeyProcess.Result run(String... args) throws IOException, InterruptedException {
    return runWith("", args);
  }

  private RekeyProcess.Result runWith(String javaOpts, String... args)
      throws IOException, InterruptedException {
    ProcessBuilder pb = RekeyProcess.builder(args);
    pb.environment().put("REKEY_CDS_DIR", cds.toString());
    pb.environment().put("REKEY_JAVA_OPTS", javaOpts);
    return RekeyProcess.run(pb, 120);
  }

  private static void assertDecodes(RekeyProcess.Result r) {
    assertEquals(0, r.exitCode(), r.all());
    assertTrue(r.stdout().contains("deviceId: 00112233445566778899aabbccddeeff"), r.all());
    assertTrue(!r.all().contains("cds"), "no CDS messages in the output: " + r.all());
  }

  private Path only(String suffix) throws IOException {
    List<Path> found = files(suffix);
    assertEquals(1, found.size(), "one *" + suffix + " in " + cds + ": " + found);
    return found.get(0);
  }

  private List<Path> files(String suffix) throws IOException {
    try (Stream<Path> s = Files.list(cds)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).toList();
    }
  }
}
