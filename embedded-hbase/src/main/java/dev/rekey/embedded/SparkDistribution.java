package dev.rekey.embedded;

import dev.rekey.home.RekeyHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Spark home of another Spark release (Scala 2.12), laid out the way {@link LocalSparkCluster}
 * lays out the cluster's Spark home from the build's jars: that release's published jars ({@code
 * spark-core}, {@code spark-sql} and what they depend on: its Hadoop client, Scala, log4j2),
 * resolved by Maven on first use into {@code <rekey home>/.rekey/spark-versions/V/}, linked into
 * {@code spark-home/jars}, with the {@code bin/spark-submit} of {@link SparkSubmitScript} (Spark's
 * own launcher over those jars). What the compatibility tier submits rekey's jar with.
 *
 * @param version the Maven version of {@code org.apache.spark:spark-core_2.12}, e.g. {@code 3.4.4}
 */
public record SparkDistribution(String version) {
  private static final Pattern FORMAT = Pattern.compile("\\d+\\.\\d+\\.\\d+");
  private static final Pattern HADOOP = Pattern.compile("hadoop-client-api-(\\d[^/]*)\\.jar$");

  /** The Scala line of every release this lays out (rekey's). */
  public static final String SCALA = "2.12";

  public SparkDistribution {
    if (version == null || !FORMAT.matcher(version).matches()) {
      throw new EmbeddedHBaseException(
          String.format(
              "Cannot use Spark version '%s': not a release version such as 3.4.4 (a Maven"
                  + " version of org.apache.spark:spark-core_%s)",
              version, SCALA));
    }
  }

  /** Where this release's classpath and Spark home are. */
  public Path dir() {
    return RekeyHome.dir().resolve(".rekey").resolve("spark-versions").resolve(version);
  }

  /**
   * Lays out (again) the Spark home from this release's jars, resolving them first if need be.
   *
   * @return its {@code bin/spark-submit}
   */
  public Path sparkSubmit(Consumer<String> out) throws IOException {
    List<Path> jars = jars(out);
    Path home = dir().resolve("spark-home");
    Daemons.deleteTree(home);
    Files.createDirectories(home.resolve("jars"));
    for (Path jar : jars) {
      Path link = home.resolve("jars").resolve(jar.getFileName());
      if (!Files.exists(link)) {
        Files.createSymbolicLink(link, jar.toAbsolutePath());
      }
    }
    SparkSubmitScript.write(home, Map.of(), Map.of());
    return home.resolve("bin/spark-submit");
  }

  /** The distribution's jars: what a Spark distribution of this release would hold. */
  public List<Path> jars(Consumer<String> out) throws IOException {
    String classpath =
        MavenClasspath.resolve(
            dir(),
            "spark.classpath",
            pom(),
            "the jars of Spark " + version,
            "Check the version on Maven Central (org.apache.spark:spark-core_" + SCALA + ")",
            out);
    return LocalSparkCluster.jarsOf(classpath, null);
  }

  /** The Hadoop client release among {@code jars} (hadoop-client-api's), or "none". */
  public static String hadoopOf(List<Path> jars) {
    for (Path j : jars) {
      Matcher m = HADOOP.matcher(j.getFileName().toString());
      if (m.find()) {
        return m.group(1);
      }
    }
    return "none";
  }

  /**
   * A pom whose runtime classpath is this release's spark-core and spark-sql at the versions its
   * distribution ships: Spark's parent pom's dependency management imported, since Maven's nearest
   * version otherwise mixes lines a distribution never has (Spark 3.5.6's jackson-databind 2.15.2
   * beside a jackson-core 2.14.3: NoClassDefFoundError StreamConstraintsException).
   */
  String pom() {
    StringBuilder deps = new StringBuilder();
    for (String a : List.of("spark-core_" + SCALA, "spark-sql_" + SCALA)) {
      deps.append(
          String.format(
              """
                  <dependency>
                    <groupId>org.apache.spark</groupId><artifactId>%s</artifactId><version>%s</version>
                  </dependency>
              """,
              a, version));
    }
    return String.format(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Written by rekey (dev.rekey.embedded.SparkDistribution): the jars of Spark %s. -->
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>dev.rekey.spark-versions</groupId>
          <artifactId>spark-%s</artifactId>
          <version>1</version>
          <packaging>pom</packaging>
          <dependencyManagement>
            <dependencies>
              <dependency>
                <groupId>org.apache.spark</groupId><artifactId>spark-parent_%s</artifactId><version>%s</version>
                <type>pom</type><scope>import</scope>
              </dependency>
            </dependencies>
          </dependencyManagement>
          <dependencies>
        %s  </dependencies>
        </project>
        """,
        version, version, SCALA, version, deps);
  }
}
