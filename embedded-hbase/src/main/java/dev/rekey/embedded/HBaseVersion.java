package dev.rekey.embedded;

import dev.rekey.home.RekeyHome;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The HBase release an embedded server runs: the one rekey is built with (its jars resolved by the
 * build into {@code server.classpath}), or another one ({@code rekey hbase start --hbase-version
 * V}) whose server jars Maven resolves on first use into a classpath cached under {@code <rekey
 * home>/.rekey/hbase-versions/V/}.
 *
 * <p>Another version's server JVM sees only that version's jars and what rekey puts inside a
 * RegionServer: the replication endpoint with the key library ({@code endpoint.classpath}) and
 * {@link NioLocalFileSystem} (this module's classes). Never rekey's built HBase or Hadoop.
 *
 * <p>What differs between lines, handled here or in the site template:
 *
 * <ul>
 *   <li>2.4 is published against Hadoop 2.10 and log4j 1; 2.5 and 2.6 ({@code -hadoop3}) against
 *       Hadoop 3.4 and reload4j. Their slf4j 1.x bindings are excluded and log4j2 (with its slf4j
 *       1.x binding and log4j 1 bridge) added, so every line writes the run directory's {@code
 *       logs/hbase.log} from the same log4j2 configuration.
 *   <li>2.5's server jar has no {@code hbase-webapps/}: the template's info ports are -1 on every
 *       line (no web UIs).
 *   <li>{@code hbase.flush.procedure.enabled} (2.6) is an unknown key to older lines, and harmless.
 * </ul>
 *
 * @param maven the Maven version of {@code org.apache.hbase:hbase-server}, e.g. {@code
 *     2.5.13-hadoop3}
 */
public record HBaseVersion(String maven) {
  private static final Pattern FORMAT = Pattern.compile("\\d+\\.\\d+\\.\\d+(-[A-Za-z0-9.]+)?");

  /** The log4j2 release rekey builds with: every version's server logs through it. */
  static final String LOG4J2 = "2.20.0";

  public HBaseVersion {
    if (maven == null || !FORMAT.matcher(maven).matches()) {
      throw new EmbeddedHBaseException(
          String.format(
              "Cannot use HBase version '%s': not a release version such as 2.5.13-hadoop3 or"
                  + " 2.4.18 (a Maven version of org.apache.hbase:hbase-server)",
              maven));
    }
  }

  /** The version rekey is built with (its client, and the default server). */
  public static HBaseVersion built() {
    try {
      return new HBaseVersion(EmbeddedHBase.resource("hbase.version").trim());
    } catch (IOException e) {
      throw new EmbeddedHBaseException("Cannot read the built HBase version: " + e.getMessage());
    }
  }

  /**
   * {@code text} as a version; the built one when it names it with or without its {@code -hadoop3}
   * suffix (e.g. {@code 2.6.1} for {@code 2.6.1-hadoop3}).
   */
  public static HBaseVersion of(String text) {
    HBaseVersion built = built();
    return text == null
            || text.isBlank()
            || built.release().equals(text)
            || built.maven.equals(text)
        ? built
        : new HBaseVersion(text.trim());
  }

  public boolean isBuilt() {
    return equals(built());
  }

  /** The release without a classifier suffix: {@code 2.5.13} of {@code 2.5.13-hadoop3}. */
  public String release() {
    int dash = maven.indexOf('-');
    return dash < 0 ? maven : maven.substring(0, dash);
  }

  /** The major.minor line: {@code 2.5} of {@code 2.5.13-hadoop3}. */
  public String line() {
    String[] p = release().split("\\.");
    return p[0] + "." + p[1];
  }

  @Override
  public String toString() {
    return maven;
  }

  /** Where another version's resolved classpath is cached. */
  static Path cacheDir(HBaseVersion v) {
    return RekeyHome.dir().resolve(".rekey").resolve("hbase-versions").resolve(v.maven);
  }

  /**
   * The server JVM's classpath after its conf dir: this version's jars, then rekey's endpoint and
   * this module's classes (last, so HBase's own classes win).
   */
  String serverClasspath(Consumer<String> out) throws IOException {
    List<String> parts = new ArrayList<>();
    if (isBuilt()) {
      parts.add(EmbeddedHBase.serverClasspath());
    } else {
      parts.add(resolved(out));
      String endpoint = EmbeddedHBase.resource("endpoint.classpath").trim();
      if (!endpoint.isEmpty()) {
        parts.add(endpoint);
      }
    }
    String self = EmbeddedHBase.serverSelf(); // empty in a release: its list holds this jar
    if (!self.isEmpty()) {
      parts.add(self);
    }
    return String.join(java.io.File.pathSeparator, parts);
  }

  /** This version's server jars, resolved by Maven on first use and cached. */
  private String resolved(Consumer<String> out) throws IOException {
    try {
      return MavenClasspath.resolve(
          cacheDir(this),
          "server.classpath",
          pom(),
          "the server jars of HBase " + maven,
          "Check the version on Maven Central (org.apache.hbase:hbase-server; 2.5 and 2.6 releases"
              + " built for Hadoop 3 end in -hadoop3)",
          out);
    } catch (EmbeddedHBaseException e) {
      throw new EmbeddedHBaseException("Cannot start HBase " + maven + ": " + e.getMessage());
    }
  }

  /**
   * A pom whose runtime classpath is this version's standalone server: hbase-server and
   * hbase-zookeeper (its in-process ZooKeeper) with their published dependencies, logging through
   * log4j2.
   */
  String pom() {
    String exclusions =
        """
              <exclusions>
                <exclusion><groupId>org.slf4j</groupId><artifactId>slf4j-log4j12</artifactId></exclusion>
                <exclusion><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId></exclusion>
                <exclusion><groupId>log4j</groupId><artifactId>log4j</artifactId></exclusion>
                <exclusion><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId></exclusion>
              </exclusions>
        """;
    StringBuilder deps = new StringBuilder();
    for (String a : List.of("hbase-server", "hbase-zookeeper")) {
      deps.append(
          String.format(
              """
                  <dependency>
                    <groupId>org.apache.hbase</groupId><artifactId>%s</artifactId><version>%s</version>
              %s    </dependency>
              """,
              a, maven, exclusions));
    }
    for (String a : List.of("log4j-slf4j-impl", "log4j-core", "log4j-1.2-api")) {
      deps.append(
          String.format(
              """
                  <dependency>
                    <groupId>org.apache.logging.log4j</groupId><artifactId>%s</artifactId><version>%s</version>
                  </dependency>
              """,
              a, LOG4J2));
    }
    return String.format(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Written by rekey (dev.rekey.embedded.HBaseVersion): the server classpath of HBase %s. -->
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>dev.rekey.hbase-versions</groupId>
          <artifactId>hbase-server-%s</artifactId>
          <version>1</version>
          <packaging>pom</packaging>
          <dependencies>
        %s  </dependencies>
        </project>
        """,
        maven, maven, deps);
  }
}
