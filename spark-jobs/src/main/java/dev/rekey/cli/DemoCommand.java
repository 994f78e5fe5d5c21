package dev.rekey.cli;

import dev.rekey.demo.ClusterDemo;
import dev.rekey.demo.Demo;
import dev.rekey.demo.DemoOptions;
import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.jobs.common.ExitCodes;
import dev.rekey.jobs.common.RekeyException;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** rekey demo: the migration story on the embedded HBase server. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Run the migration story on the embedded HBase: legacy hotspot table, snapshot, and the jobs.")
public final class DemoCommand extends SparkCommand {
  @Option(
      names = "--rows",
      defaultValue = "1000000",
      description = "Synthetic readings to write (default: ${DEFAULT-VALUE}).")
  long rows;

  @Option(
      names = "--devices",
      defaultValue = "1000",
      description = "Devices the readings come from (default: ${DEFAULT-VALUE}).")
  int devices;

  @Option(
      names = "--run-dir",
      paramLabel = "DIR",
      description =
          "Embedded HBase run directory (default: $REKEY_RUN_DIR/hbase, else .rekey/hbase).")
  Path runDir;

  @Option(
      names = "--stop",
      description = "Stop the embedded HBase at the end (default: leave it running).")
  boolean stop;

  @Option(
      names = "--cluster",
      description =
          "Run the story on the pseudo-distributed cluster (`rekey cluster start`), "
              + "every job through its spark-submit: backfill in cluster deploy mode on the standalone master, scan on YARN.")
  boolean cluster;

  @Option(
      names = "--cluster-dir",
      paramLabel = "DIR",
      description =
          "The cluster's directory (default: $REKEY_RUN_DIR/cluster, else .rekey/cluster).")
  Path clusterDir;

  @Override
  protected Integer runWithoutSpark() throws Exception {
    if (!cluster) {
      return null;
    }
    if (rows <= 0 || devices <= 0) {
      throw RekeyException.usage("Invalid --rows/--devices: both must be positive");
    }
    PseudoCluster pc =
        new PseudoCluster(
            clusterDir != null ? clusterDir : PseudoCluster.defaultDir(), System.out::println);
    return new ClusterDemo(
            pc, rows, devices, Path.of(SparkSubmitLauncher.applicationJar()), System.out)
        .run();
  }

  @Override
  protected String commandName() {
    return "demo";
  }

  @Override
  protected int run(SparkSession spark) throws Exception {
    DemoOptions options;
    try {
      options =
          new DemoOptions(
              rows, devices, runDir != null ? runDir : EmbeddedHBase.defaultRunDir(), stop);
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage(e.getMessage());
    }
    new Demo(options, System.out).run(spark);
    return ExitCodes.OK;
  }
}
