package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.embedded.EmbeddedHBaseException;
import dev.rekey.embedded.HBaseVersion;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** rekey hbase start|stop|status: the embedded standalone HBase server process. */
@Command(
    name = "hbase",
    mixinStandardHelpOptions = true,
    description =
        "Start, stop or show the embedded HBase server (a real standalone server process on 127.0.0.1).",
    footer = {
      "",
      "Examples:",
      "  bin/rekey hbase status",
      "  bin/rekey hbase start --hbase-version 2.5.13-hadoop3 --run-dir .rekey/hbase-2.5",
      "",
      "Another HBase version's server jars are resolved with Maven (mvn on the PATH) on first use and cached",
      "under .rekey/hbase-versions/; versions tested with rekey: docs/compatibility.md."
    })
public final class HBaseCommand extends DaemonCommand {
  @Option(
      names = "--run-dir",
      paramLabel = "DIR",
      description =
          "Where the server keeps its data, logs, ports and pid (default: $REKEY_RUN_DIR/hbase, else .rekey/hbase).")
  Path runDir;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "180",
      description = "How long to wait for start or stop (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Option(
      names = "--hbase-version",
      paramLabel = "V",
      description =
          "start: the HBase release the server runs, a Maven version of org.apache.hbase:hbase-server such as"
              + " 2.4.18 or 2.5.13-hadoop3 (default: the one rekey is built with, ${DEFAULT-VALUE}). Stop and"
              + " status use the release the server was started with.")
  String hbaseVersion = HBaseVersion.built().maven();

  private EmbeddedHBase hbase() {
    return new EmbeddedHBase(
        runDir != null ? runDir : EmbeddedHBase.defaultRunDir(), System.out::println);
  }

  @Override
  int start() {
    HBaseVersion version;
    try {
      version = HBaseVersion.of(hbaseVersion);
    } catch (EmbeddedHBaseException e) {
      System.err.println("Error: " + e.getMessage() + " (--hbase-version)");
      return ExitCodes.USAGE;
    }
    new EmbeddedHBase(
            runDir != null ? runDir : EmbeddedHBase.defaultRunDir(),
            System.out::println,
            java.util.List.of(),
            version)
        .start(Duration.ofSeconds(timeoutSeconds));
    return ExitCodes.OK;
  }

  @Override
  int stop() {
    hbase().stop(Duration.ofSeconds(timeoutSeconds));
    return ExitCodes.OK;
  }

  @Override
  int status() {
    EmbeddedHBase hbase = hbase();
    var running = hbase.runningProcess();
    if (running.isPresent()) {
      var ports = hbase.ports().orElseThrow();
      System.out.printf(
          "HBase %s is running: pid %d, ZooKeeper 127.0.0.1:%d, master port %d, RegionServer port %d%n"
              + "client config: %s%nlog: %s%n",
          hbase.runningVersion(),
          running.get().pid(),
          ports.zookeeper(),
          ports.master(),
          ports.regionServer(),
          hbase.clientSite(),
          hbase.logFile());
      return ExitCodes.OK;
    }
    System.out.printf(
        "HBase is not running (run dir %s). Start it with `bin/rekey hbase start`.%n",
        hbase.runDir());
    return ExitCodes.FAILURE;
  }
}
