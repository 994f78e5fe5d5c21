package dev.rekey.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmarks under bench/ are single-file programs run with {@code java File.java} on demand,
 * never in the suite: nothing else compiles them, so a class they name that moved would go unseen
 * until the next benchmark run. They are compiled here (not run) against the test classpath, which
 * holds what their scripts give them (the jobs, the test helpers, Spark, Hadoop, HBase).
 */
@Tag("unit")
class BenchSourcesTest {
  private static final Path BENCH = Path.of("..").toAbsolutePath().normalize().resolve("bench");

  @Test
  void everyBenchSourceCompiles(@TempDir Path out) throws Exception {
    List<String> sources;
    try (Stream<Path> files = Files.walk(BENCH)) {
      sources = files.filter(f -> f.toString().endsWith(".java")).map(Path::toString).toList();
    }
    assertFalse(sources.isEmpty(), "no bench sources under " + BENCH);
    // surefire runs the tests from a manifest-only jar: the real classpath is in this property
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> args =
        new ArrayList<>(List.of("-proc:none", "-nowarn", "-cp", classpath, "-d", out.toString()));
    args.addAll(sources);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int rc = javac.run(null, null, errors, args.toArray(String[]::new));
    assertEquals(
        0, rc, "bench sources that no longer compile:\n" + errors.toString(StandardCharsets.UTF_8));
  }
}
