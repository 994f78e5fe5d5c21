package dev.rekey.compat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rekey.testing.SharedHBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The compatibility tier's own records: one line per cell run (what ran, on which versions, pass or
 * fail with the reason, seconds, date, commit, the command) appended to {@code
 * target/compat/results.jsonl}; {@code bin/compat-collect} copies them into {@code
 * docs/compat-records/} and writes the table of docs/compatibility.md from those, never by hand.
 */
final class CompatRecords
    implements TestWatcher, BeforeTestExecutionCallback, AfterTestExecutionCallback {
  /** One tier run: every record of this JVM carries it. */
  static final String RUN = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();

  private static final ObjectMapper JSON = new ObjectMapper();

  static Path file() {
    return SharedHBase.rekeyHome().resolve("target/compat/results.jsonl");
  }

  /**
   * Appends a record of {@code cell} of {@code target}'s row: {@code failure} null when it passed.
   */
  static void record(CompatTarget target, String cell, Throwable failure, double seconds) {
    ObjectNode r = JSON.createObjectNode();
    r.put("run", RUN);
    r.put("component", target.component());
    r.put("version", target.release());
    r.put("cell", cell);
    r.put("outcome", failure == null ? "pass" : "fail");
    if (failure != null) {
      r.put("reason", reason(failure));
    }
    r.put("seconds", Math.round(seconds * 10) / 10.0);
    r.put("recorded", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    r.put("commit", commit());
    r.put("command", Optional.ofNullable(System.getenv("REKEY_TEST_COMMAND")).orElse(""));
    ObjectNode with = r.putObject("client");
    with.put("hbase", org.apache.hadoop.hbase.util.VersionInfo.getVersion());
    with.put("spark", org.apache.spark.package$.MODULE$.SPARK_VERSION());
    with.put("hadoop", org.apache.hadoop.util.VersionInfo.getVersion());
    with.put("java", System.getProperty("java.version"));
    target.client().forEach(with::put);
    try {
      Files.createDirectories(file().getParent());
      Files.writeString(
          file(),
          JSON.writeValueAsString(r) + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The failure's first line, and its root cause's when that is another one. */
  static String reason(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String first = firstLine(t);
    return root == t ? first : first + " | root cause: " + firstLine(root);
  }

  private static String firstLine(Throwable t) {
    String m = String.valueOf(t.getMessage()).lines().findFirst().orElse("");
    m = m.length() > 300 ? m.substring(0, 300) + "..." : m;
    return t.getClass().getSimpleName() + ": " + m;
  }

  /** The checkout's commit, with "+modified" when files differ from it. */
  static String commit() {
    try {
      String head = git("rev-parse", "--short=12", "HEAD");
      return git("status", "--porcelain", "--untracked-files=no").isEmpty()
          ? head
          : head + "+modified";
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static String git(String... args) throws IOException {
    String[] cmd = new String[args.length + 3];
    cmd[0] = "git";
    cmd[1] = "-C";
    cmd[2] = SharedHBase.rekeyHome().toString();
    System.arraycopy(args, 0, cmd, 3, args.length);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    try {
      if (p.waitFor() != 0) {
        throw new IOException(out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    return out;
  }

  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(CompatRecords.class);

  @Override
  public void beforeTestExecution(ExtensionContext context) {
    context.getStore(NS).put("start", System.nanoTime());
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    long start = context.getStore(NS).getOrDefault("start", Long.class, System.nanoTime());
    context.getStore(NS).put("seconds", (System.nanoTime() - start) / 1e9);
  }

  @Override
  public void testSuccessful(ExtensionContext context) {
    write(context, null);
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    write(context, cause);
  }

  @Override
  public void testAborted(ExtensionContext context, Throwable cause) {
    write(context, cause);
  }

  private static void write(ExtensionContext context, Throwable cause) {
    Cell cell = context.getRequiredTestMethod().getAnnotation(Cell.class);
    Object suite = context.getRequiredTestInstance();
    if (cell == null || !(suite instanceof CompatTarget target)) {
      return;
    }
    double seconds = context.getStore(NS).getOrDefault("seconds", Double.class, 0.0);
    record(target, cell.value(), cause, seconds);
  }
}
