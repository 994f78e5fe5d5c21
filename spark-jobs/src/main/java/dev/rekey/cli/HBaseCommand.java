package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.embedded.EmbeddedHBase;
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
    footer = {"", "Example:", "  bin/rekey hbase status"})
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

  private EmbeddedHBase hbase() {
    return new EmbeddedHBase(
        runDir != null ? runDir : EmbeddedHBase.defaultRunDir(), System.out::println);
  }

  @Override
  int start() {
    hbase().start(Duration.ofSeconds(timeoutSeconds));
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
          "HBase is running: pid %d, ZooKeeper 127.0.0.1:%d, master port %d, RegionServer port %d%n"
              + "client config: %s%nlog: %s%n",
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
