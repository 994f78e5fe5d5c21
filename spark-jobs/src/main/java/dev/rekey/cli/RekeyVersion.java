package dev.rekey.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code rekey --version}: rekey's version and commit; the Spark, HBase and Hadoop versions it was
 * built against and those it finds at run time (the cluster's); a warning when what it finds is not
 * a combination of the tested matrix ({@code dev/rekey/tested-versions.txt}).
 *
 * <p>The version comes from {@code dev/rekey/release.properties} when a release stamped one into
 * the jar ({@code bin/rekey-release}), else from the build ({@code build.properties}, the poms'
 * version); the commit from the release stamp, else {@code rekey.commit} (bin/rekey passes the
 * checkout's HEAD).
 */
public final class RekeyVersion implements IVersionProvider {
  static final String BUILD = "/dev/rekey/build.properties";
  static final String RELEASE = "/dev/rekey/release.properties";
  static final String MATRIX = "/dev/rekey/tested-versions.txt";

  /** The three parts the matrix names, in its column order. */
  static final List<String> PARTS = List.of("hbase", "spark", "hadoop");

  @Override
  public String[] getVersion() {
    Properties build = resource(BUILD);
    Properties release = resource(RELEASE);
    Map<String, String> found = foundAtRunTime(build);
    return lines(build, release, found, Matrix.parse(text(MATRIX))).toArray(String[]::new);
  }

  /** The printed lines. Pure. */
  static List<String> lines(
      Properties build, Properties release, Map<String, String> found, Matrix matrix) {
    List<String> out = new ArrayList<>();
    String version = release.getProperty("version", build.getProperty("version", "unknown"));
    String commit =
        release.getProperty(
            "commit", System.getProperty("rekey.commit", "unknown (not a release)"));
    out.add("rekey " + version + " (commit " + commit + ")");
    out.add(
        String.format(
            "built against: Spark %s (Scala %s), HBase %s, Hadoop %s",
            build.getProperty("spark", "?"),
            build.getProperty("scala", "?"),
            build.getProperty("hbase", "?"),
            build.getProperty("hadoop", "?")));
    out.add(
        String.format(
            "found at run time: Spark %s, HBase %s, Hadoop %s",
            found.getOrDefault("spark", "?"),
            found.getOrDefault("hbase", "?"),
            found.getOrDefault("hadoop", "?")));
    matrix.warning(found).ifPresent(out::add);
    return out;
  }

  /**
   * The versions this JVM runs with: Spark's and Hadoop's from their jars on the classpath (the
   * cluster's, in a release run with SPARK_HOME); HBase's from $HBASE_HOME/lib when set (the
   * cluster's installation), else the HBase client classes inside rekey's jar.
   */
  static Map<String, String> foundAtRunTime(Properties build) {
    Map<String, String> found = new LinkedHashMap<>();
    found.put("spark", resource("/spark-version-info.properties").getProperty("version", "none"));
    String hbaseHome = System.getenv("HBASE_HOME");
    Optional<String> installed =
        hbaseHome == null ? Optional.empty() : hbaseInLib(Path.of(hbaseHome, "lib"));
    found.put(
        "hbase",
        installed
            .map(v -> v + " ($HBASE_HOME)")
            .orElseGet(
                () -> hbaseClient() + " (rekey's client; set HBASE_HOME for the cluster's)"));
    found.put("hadoop", hadoop());
    return found;
  }

  private static String hbaseClient() {
    // the shaded jar's own record of it: read without HBase's classes, which need Hadoop's
    String shaded =
        resource("/META-INF/maven/org.apache.hbase/hbase-common/pom.properties")
            .getProperty("version");
    if (shaded != null) {
      return shaded;
    }
    try {
      return org.apache.hadoop.hbase.util.VersionInfo.getVersion();
    } catch (LinkageError e) {
      return "none";
    }
  }

  private static String hadoop() {
    try {
      return org.apache.hadoop.util.VersionInfo.getVersion();
    } catch (LinkageError e) {
      return "none";
    }
  }

  private static final Pattern HBASE_COMMON = Pattern.compile("hbase-common-(\\d[^/]*?)\\.jar");

  /** The version of {@code hbase-common-V.jar} in an HBase installation's lib directory. */
  static Optional<String> hbaseInLib(Path lib) {
    if (!Files.isDirectory(lib)) {
      return Optional.empty();
    }
    try (Stream<Path> s = Files.list(lib)) {
      return s.map(p -> HBASE_COMMON.matcher(p.getFileName().toString()))
          .filter(Matcher::matches)
          .map(m -> m.group(1))
          .filter(v -> !v.contains("tests"))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static Properties resource(String name) {
    Properties p = new Properties();
    String text = text(name);
    if (text != null) {
      try {
        p.load(new StringReader(text));
      } catch (IOException e) {
        throw new IllegalStateException("Cannot read " + name + ": " + e.getMessage(), e);
      }
    }
    return p;
  }

  private static String text(String name) {
    try (InputStream in = RekeyVersion.class.getResourceAsStream(name)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The tested combinations: each line {@code HBASE SPARK HADOOP}; {@code #} starts a comment. A
   * version matches a tested one when it starts with it followed by nothing or a non-digit ({@code
   * 2.6.1-hadoop3} is 2.6.1).
   */
  record Matrix(List<List<String>> rows) {
    static Matrix parse(String text) {
      List<List<String>> rows = new ArrayList<>();
      if (text != null) {
        for (String line : text.split("\n")) {
          String l = line.replaceAll("#.*", "").trim();
          if (l.isEmpty()) {
            continue;
          }
          List<String> cols = List.of(l.split("\\s+"));
          if (cols.size() != PARTS.size()) {
            throw new IllegalArgumentException(
                "tested-versions.txt: expected '" + String.join(" ", PARTS) + "' in: " + line);
          }
          rows.add(cols);
        }
      }
      return new Matrix(List.copyOf(rows));
    }

    /** The warning to print for the versions found, or empty when they are a tested row. */
    Optional<String> warning(Map<String, String> found) {
      for (List<String> row : rows) {
        boolean all = true;
        for (int i = 0; i < PARTS.size(); i++) {
          all &= sameVersion(found.get(PARTS.get(i)), row.get(i));
        }
        if (all) {
          return Optional.empty();
        }
      }
      List<String> tested = new ArrayList<>();
      for (List<String> row : rows) {
        tested.add(
            String.format("HBase %s / Spark %s / Hadoop %s", row.get(0), row.get(1), row.get(2)));
      }
      return Optional.of(
          "WARNING: these versions are outside the tested matrix ("
              + String.join("; ", tested)
              + "): rekey may work, but no test of it ran on them (docs/production.md#versions).");
    }

    static boolean sameVersion(String found, String tested) {
      if (found == null) {
        return false;
      }
      return found.equals(tested)
          || (found.startsWith(tested) && !Character.isDigit(found.charAt(tested.length())));
    }
  }
}
