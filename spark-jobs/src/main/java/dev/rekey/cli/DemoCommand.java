package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.demo.ClusterDemo;
import dev.rekey.demo.Demo;
import dev.rekey.demo.DemoOptions;
import dev.rekey.demo.TwoClusterDemo;
import dev.rekey.embedded.ClusterStack;
import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.embedded.PseudoCluster;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** rekey demo: the migration story on the embedded HBase server. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Run the migration story on the embedded HBase: legacy hotspot table, snapshot, and the jobs.",
    footer = {"", "Example:", "  bin/rekey demo --rows 20000 --devices 50"})
public final class DemoCommand extends SparkCommand<DemoOptions> {
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
      names = "--writers",
      paramLabel = "dual|replication",
      defaultValue = "dual",
      description =
          "How the new tables get the migration window's writes: dual (the writer writes every"
              + " table through rekey-client's DualWriter, the default) or replication (it writes"
              + " the old table alone; a rekeying replication peer brings each edit to the new"
              + " tables, docs/replication.md).")
  String writers;

  @Option(
      names = "--two-clusters",
      description =
          "Run the migration to a new cluster: the legacy table on the embedded HBase (the old"
              + " cluster), the new table on the pseudo-distributed one (`rekey cluster start`);"
              + " backfill, reconcile and repair across both through its spark-submit.")
  boolean twoClusters;

  @Option(
      names = "--cluster-dir",
      paramLabel = "DIR",
      description =
          "The cluster's directory (default: $REKEY_RUN_DIR/cluster, else .rekey/cluster).")
  Path clusterDir;

  @Override
  protected DemoOptions options() {
    DemoOptions.Writers w =
        switch (writers) {
          case "dual" -> DemoOptions.Writers.DUAL;
          case "replication" -> DemoOptions.Writers.REPLICATION;
          default ->
              throw RekeyException.usage(
                  "Invalid --writers '%s': expected dual or replication", writers);
        };
    return new DemoOptions(
        rows, devices, runDir != null ? runDir : EmbeddedHBase.defaultRunDir(), stop, w);
  }

  /** The demo starts (or reuses) its embedded server itself, inside the job. */
  @Override
  protected boolean startsOwnHBase() {
    return true;
  }

  @Override
  protected Integer runWithoutSpark(DemoOptions options) throws Exception {
    if (!cluster && !twoClusters) {
      return null;
    }
    if (options.writers() == DemoOptions.Writers.REPLICATION) {
      throw RekeyException.usage(
          "--writers replication runs on the embedded HBase only (the demo's own server loads the"
              + " rekeying endpoint); drop --cluster/--two-clusters, or --writers");
    }
    if (cluster && twoClusters) {
      throw RekeyException.usage(
          "Give one of --cluster (the story on the pseudo-distributed cluster) and --two-clusters"
              + " (from the embedded HBase to it)");
    }
    Path dir = clusterDir != null ? clusterDir : PseudoCluster.defaultDir();
    PseudoCluster pc = new PseudoCluster(dir, System.out::println);
    if (twoClusters) {
      return new TwoClusterDemo(
              new EmbeddedHBase(options.runDir(), System.out::println),
              pc,
              rows,
              devices,
              Path.of(SparkSubmitLauncher.applicationJar()),
              System.out)
          .run();
    }
    // the single-host cluster, or the several-host stack (run from its gateway)
    return new ClusterDemo(
            ClusterStack.in(dir, System.out::println),
            rows,
            devices,
            Path.of(SparkSubmitLauncher.applicationJar()),
            System.out)
        .run();
  }

  @Override
  protected int run(SparkSession spark, DemoOptions options) throws Exception {
    new Demo(options, System.out, hbase -> ServerWatch.of(hbase, spec.name(), spark)).run(spark);
    return ExitCodes.OK;
  }
}
