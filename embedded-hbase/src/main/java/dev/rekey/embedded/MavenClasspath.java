package dev.rekey.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A classpath Maven resolves once from a pom rekey writes, cached in a directory: another HBase
 * release's server jars ({@link HBaseVersion}), another Spark release's distribution jars ({@link
 * SparkDistribution}). Needs {@code mvn} ($MAVEN_HOME/bin/mvn or on the PATH) on first use only.
 */
final class MavenClasspath {
  private MavenClasspath() {}

  /**
   * The runtime classpath of {@code pom}, from {@code dir/classpath.file} when every jar it names
   * still exists, else resolved now (its log: {@code dir/resolve.log}).
   *
   * @param what what the jars are, for messages ("the server jars of HBase 2.5.13-hadoop3")
   * @param hint what to check when Maven cannot resolve them
   */
  static String resolve(
      Path dir, String file, String pom, String what, String hint, Consumer<String> out)
      throws IOException {
    Path cp = dir.resolve(file);
    return Daemons.locked(
        dir,
        () -> {
          if (Files.exists(cp) && everyJarExists(Files.readString(cp).trim())) {
            return Files.readString(cp).trim();
          }
          Path log = dir.resolve("resolve.log");
          out.accept(String.format("Resolving %s with Maven (first use; log: %s)", what, log));
          Files.writeString(dir.resolve("pom.xml"), pom);
          Path tmp = dir.resolve(file + ".tmp");
          Files.deleteIfExists(tmp);
          List<String> cmd =
              List.of(
                  mvn(),
                  "-B",
                  "-q",
                  "-f",
                  dir.resolve("pom.xml").toString(),
                  "dependency:build-classpath",
                  "-Dmdep.outputFile=" + tmp);
          Process p =
              new ProcessBuilder(cmd)
                  .redirectErrorStream(true)
                  .redirectOutput(log.toFile())
                  .start();
          int code;
          try {
            code = p.waitFor();
          } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new EmbeddedHBaseException("Interrupted while resolving " + what);
          }
          if (code != 0 || !Files.exists(tmp)) {
            throw new EmbeddedHBaseException(
                String.format(
                    "Maven cannot resolve %s (%s). %s; full log: %s",
                    what, firstError(log), hint, log));
          }
          Files.move(tmp, cp, StandardCopyOption.REPLACE_EXISTING);
          return Files.readString(cp).trim();
        });
  }

  private static boolean everyJarExists(String classpath) {
    return !classpath.isEmpty()
        && Stream.of(classpath.split(java.io.File.pathSeparator))
            .allMatch(j -> Files.exists(Path.of(j)));
  }

  private static String mvn() {
    String home = System.getenv("MAVEN_HOME");
    return home != null && !home.isBlank() ? Path.of(home, "bin", "mvn").toString() : "mvn";
  }

  private static String firstError(Path log) {
    try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
      return lines
          .filter(l -> l.contains("[ERROR]"))
          .map(l -> l.replace("[ERROR]", "").trim())
          .filter(l -> !l.isEmpty())
          .findFirst()
          .orElse("no error line in the log");
    } catch (IOException | java.io.UncheckedIOException e) {
      return "no log";
    }
  }
}
