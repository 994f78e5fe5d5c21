package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.embedded.LocalSparkCluster;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * rekey spark-cluster start|stop|status: a real Spark standalone cluster (master + worker) on
 * 127.0.0.1.
 */
@Command(
    name = "spark-cluster",
    mixinStandardHelpOptions = true,
    description =
        "Start, stop or show a local Spark standalone cluster (master + 1 worker on 127.0.0.1), "
            + "for running jobs with --master spark://... as on a real cluster.",
    footer = {"", "Example:", "  bin/rekey spark-cluster start"})
public final class SparkClusterCommand extends DaemonCommand {
  @Option(
      names = "--run-dir",
      paramLabel = "DIR",
      description =
          "Where the cluster keeps logs and pids (default: $REKEY_RUN_DIR/spark, else .rekey/spark).")
  Path runDir;

  @Option(
      names = "--worker-cores",
      defaultValue = "2",
      description = "Cores of the worker (default: ${DEFAULT-VALUE}).")
  int cores;

  @Option(
      names = "--worker-memory",
      defaultValue = "2g",
      description = "Memory of the worker (default: ${DEFAULT-VALUE}).")
  String memory;

  private LocalSparkCluster cluster() {
    return new LocalSparkCluster(
        runDir != null ? runDir : LocalSparkCluster.defaultRunDir(), System.out::println);
  }

  @Override
  int start() {
    String url =
        cluster()
            .start(
                LocalSparkCluster.jarsOf(
                    System.getProperty("java.class.path"),
                    Path.of(SparkSubmitLauncher.applicationJar())),
                cores,
                memory,
                Duration.ofSeconds(90));
    System.out.println("Run jobs on it with: bin/rekey <command> --master " + url + " ...");
    return ExitCodes.OK;
  }

  @Override
  int stop() {
    cluster().stop();
    return ExitCodes.OK;
  }

  @Override
  int status() {
    var url = cluster().masterUrl();
    System.out.println(
        url.map(u -> "Spark cluster is running: " + u).orElse("Spark cluster is not running"));
    return url.isPresent() ? ExitCodes.OK : ExitCodes.FAILURE;
  }
}
