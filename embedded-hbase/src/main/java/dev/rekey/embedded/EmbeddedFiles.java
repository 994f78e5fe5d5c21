package dev.rekey.embedded;

import dev.rekey.embedded.EmbeddedHBase.Ports;
import dev.rekey.home.RekeyHome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The files of an embedded server's run directory: {@code conf/} (server hbase-site.xml + log4j2),
 * {@code client/hbase-site.xml} (what clients load), {@code ports.properties}, {@code hbase.pid},
 * {@code logs/}, {@code data/} — written before a start, read by later commands, and the server
 * log's reason for a failed start.
 */
final class EmbeddedFiles {
  /**
   * "java.io.IOException: why", "Caused by: ...": the lines of a stack trace that say what went
   * wrong
   */
  private static final Pattern EXCEPTION_LINE =
      Pattern.compile("^(Caused by: |Exception in thread )?[\\w.$]+(Exception|Error)(: |$)");

  private final Path runDir;

  EmbeddedFiles(Path runDir) {
    this.runDir = runDir;
  }

  Path clientSite() {
    return RekeyHome.clientSiteIn(runDir);
  }

  Path logFile() {
    return runDir.resolve("logs").resolve("hbase.log");
  }

  /** The server's stdout and stderr (and the stop command's). */
  Path outFile() {
    return runDir.resolve("logs/hbase.out");
  }

  Path pidFile() {
    return runDir.resolve("hbase.pid");
  }

  /**
   * Makes the run directory ready for a new server on free ports: its dirs, configuration, client
   * site and ports.properties; no pid file, log or ZooKeeper state of an earlier server.
   */
  Ports prepare() throws IOException {
    // A previous server that died (kill -9, reboot) leaves ZooKeeper state whose sessions would
    // make the new master wait for them to expire. Standalone ZooKeeper holds nothing HBase cannot
    // rebuild: start it clean.
    Daemons.deleteTree(runDir.resolve("data").resolve("zookeeper"));
    Files.deleteIfExists(pidFile());
    for (String d : List.of("conf", "client", "logs", "data/hbase", "data/tmp", "data/staging")) {
      Files.createDirectories(runDir.resolve(d));
    }
    int[] free = Daemons.freePorts(3);
    Ports ports = new Ports(free[0], free[1], free[2]);
    String site =
        EmbeddedHBase.resource("hbase-site.template.xml")
            .replace("@RUN_DIR@", runDir.toString())
            .replace("@ZK_PORT@", Integer.toString(ports.zookeeper()))
            .replace("@MASTER_PORT@", Integer.toString(ports.master()))
            .replace("@RS_PORT@", Integer.toString(ports.regionServer()));
    Files.writeString(runDir.resolve("conf/hbase-site.xml"), site);
    Files.writeString(
        runDir.resolve("conf/log4j2.properties"), EmbeddedHBase.resource("log4j2.properties"));
    Files.writeString(clientSite(), clientSiteXml(ports));
    Properties p = new Properties();
    p.setProperty("zookeeper", Integer.toString(ports.zookeeper()));
    p.setProperty("master", Integer.toString(ports.master()));
    p.setProperty("regionserver", Integer.toString(ports.regionServer()));
    try (var w = Files.newBufferedWriter(runDir.resolve("ports.properties"))) {
      p.store(w, "embedded HBase ports (127.0.0.1)");
    }
    Files.deleteIfExists(logFile());
    return ports;
  }

  /** Records the HBase release a start runs, for the stop and the status. */
  void writeVersion(String maven) throws IOException {
    Files.writeString(runDir.resolve("hbase.version"), maven + "\n");
  }

  /** The HBase release the last start ran, if it recorded one. */
  Optional<String> version() {
    try {
      return Optional.of(Files.readString(runDir.resolve("hbase.version")).trim())
          .filter(s -> !s.isEmpty());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The ports the last start chose, if it wrote them. */
  Optional<Ports> ports() {
    Path f = runDir.resolve("ports.properties");
    if (!Files.exists(f)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(f)) {
      p.load(in);
      return Optional.of(
          new Ports(
              Integer.parseInt(p.getProperty("zookeeper")),
              Integer.parseInt(p.getProperty("master")),
              Integer.parseInt(p.getProperty("regionserver"))));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  boolean logContains(String needle) {
    try (Stream<String> lines = Files.lines(logFile(), StandardCharsets.UTF_8)) {
      return lines.anyMatch(l -> l.contains(needle));
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /** The first ERROR/FATAL lines and exception messages of the server log: why it did not start. */
  String reasonFromLog() {
    List<String> reasons = new ArrayList<>();
    for (Path f : List.of(logFile(), outFile())) {
      if (!Files.exists(f)) {
        continue;
      }
      try (Stream<String> lines = Files.lines(f, StandardCharsets.ISO_8859_1)) {
        lines
            .filter(
                l ->
                    l.contains(" ERROR ")
                        || l.contains(" FATAL ")
                        || EXCEPTION_LINE.matcher(l).find())
            .distinct()
            .limit(8)
            .forEach(reasons::add);
      } catch (IOException | UncheckedIOException e) {
        // best effort: the caller prints the log path anyway
      }
    }
    return reasons.isEmpty()
        ? "The server log has no error lines."
        : "Reason from the server log:\n  " + String.join("\n  ", reasons);
  }

  private String clientSiteXml(Ports ports) {
    return String.format(
        """
        <?xml version="1.0"?>
        <!-- Client configuration of the embedded HBase server (written at start; ports change per start). -->
        <configuration>
          <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>
          <property><name>hbase.zookeeper.property.clientPort</name><value>%d</value></property>
          <property><name>hbase.cluster.distributed</name><value>false</value></property>
          <property><name>hbase.rootdir</name><value>file://%s</value></property>
          <property><name>hbase.unsafe.stream.capability.enforce</name><value>false</value></property>
          <!-- operation timeout > rpc timeout x retries; rpc >= 5 s, retries >= 5 -->
          <property><name>hbase.rpc.timeout</name><value>20000</value></property>
          <property><name>hbase.client.retries.number</name><value>5</value></property>
          <property><name>hbase.client.operation.timeout</name><value>120000</value></property>
        </configuration>
        """,
        ports.zookeeper(), runDir.resolve("data/hbase"));
  }
}
