package dev.rekey.cli;

import dev.rekey.common.ClusterSite;
import dev.rekey.common.Clusters;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.JobResult;
import dev.rekey.common.OutputDir;
import dev.rekey.common.OutputReach;
import dev.rekey.common.ProgressListener;
import dev.rekey.common.RekeyException;
import dev.rekey.read.RegionReader;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that runs as a Spark application: parse → {@link #options()} (validated, before Spark
 * starts) → {@link #run} on the session → exit code. Started from a plain JVM it re-enters through
 * Spark's real {@code SparkSubmit} entry point (so the same jar and command line work with any
 * --master); inside SparkSubmit it gets the session and runs.
 *
 * @param <O> the command's validated options (the job's options type)
 */
public abstract class SparkCommand<O> implements Callable<Integer> {
  /** A progress line per running stage this often, once the stage has run this long. */
  static final long PROGRESS_SECONDS = 5;

  @Spec protected CommandSpec spec;

  @Mixin protected GlobalOptions global;

  @Override
  public final Integer call() throws Exception {
    global.applyLogging();
    // bad arguments and a malformed --hbase-site fail here, in a second, not after a Spark start
    O options = options();
    if (global.hbaseSite() != null) {
      global.hbaseConf();
    }
    Integer plain = runWithoutSpark(options);
    if (plain != null) {
      return plain;
    }
    if (!SparkSubmitLauncher.insideSparkSubmit()) {
      return SparkSubmitLauncher.resubmit(
          global, startsOwnHBase(), spec.root().commandLine().getParseResult().originalArgs());
    }
    SparkSession spark =
        SparkSession.builder()
            .appName("rekey " + spec.name())
            // snapshot splits report length 0: Spark must not drop "empty" splits (else a snapshot
            // read returns no rows and no error)
            .config(RegionReader.IGNORE_EMPTY_SPLITS, "false")
            .getOrCreate();
    // progress of every job this command runs, from Spark's listener events, to stderr (stdout
    // keeps the report)
    try (ProgressListener progress =
            global.quiet
                ? null
                : ProgressListener.install(
                    spark.sparkContext(), spec.name(), System.err, PROGRESS_SECONDS);
        ServerWatch watch = startsOwnHBase() ? ServerWatch.NONE : serverWatch(spark)) {
      for (String dir : driverOutputs()) {
        OutputReach.check(
            spark.sparkContext(), "--out", OutputDir.of(dir, spark.sparkContext()), false);
      }
      return run(spark, options);
    } finally {
      // stop Spark before the CLI's System.exit: exiting with a live context makes its RPC threads
      // print RejectedExecutionException stack traces while they shut down
      spark.stop();
    }
  }

  /**
   * A watch of the embedded server the command's HBase site belongs to, if it is one of this host
   * (the demo, which starts its own, watches it itself).
   */
  private ServerWatch serverWatch(SparkSession spark) {
    try {
      return ServerWatch.ofSite(HBaseConfigs.resolveSite(global.hbaseSite()), spec.name(), spark);
    } catch (RekeyException e) {
      return ServerWatch.NONE; // no site: the job says so itself
    }
  }

  /**
   * The command line as the job's validated options, without Spark or HBase: bad input throws a
   * usage RekeyException here.
   */
  protected abstract O options();

  /**
   * For a command whose options make it a plain client that submits jobs itself (demo --cluster):
   * its exit code; null (the default) to run as a Spark application.
   */
  protected Integer runWithoutSpark(O options) throws Exception {
    return null;
  }

  /**
   * True for a command that starts its own HBase inside the job (the demo's embedded server): no
   * client configuration exists before it runs, so none is looked up before Spark starts. Every
   * other command resolves its site first and fails at once, with the way to name one, when there
   * is none.
   */
  protected boolean startsOwnHBase() {
    return false;
  }

  /**
   * The directories only the driver writes (reports, checkpoints), as given: a local one is refused
   * before the job when the driver runs on another host than the command was given on (cluster
   * deploy mode), where it would be written to that host's disk.
   */
  protected List<String> driverOutputs() {
    return List.of();
  }

  /** Runs the job on the session; returns the exit code (usually {@link #print}'s). */
  protected abstract int run(SparkSession spark, O options) throws Exception;

  /**
   * The HBase configuration the job runs with: --hbase-site (or the default site) with the
   * session's {@code spark.hadoop.*} settings over it ({@link ClusterSite#conf(SparkConf)}).
   */
  protected Configuration hbaseConf(SparkSession spark) {
    return hbaseConf(spark, null);
  }

  /**
   * The HBase configuration of the cluster {@code site} names (an {@link SiteOption}'s), or when
   * null --hbase-site's, with the session's {@code spark.hadoop.*} settings over it.
   */
  protected Configuration hbaseConf(SparkSession spark, ClusterSite site) {
    return (site == null ? global.site() : site).conf(spark.sparkContext().getConf());
  }

  /** The old and the new side's clusters: each named by its option, else --hbase-site's. */
  protected Clusters clusters(SparkSession spark, SiteOption old, SiteOption neu) {
    return new Clusters(hbaseConf(spark, old.site()), hbaseConf(spark, neu.site()));
  }

  /** What every job command ends with: the result on stdout, its exit code returned. */
  protected static int print(JobResult result) {
    System.out.print(result.console());
    return result.exitCode();
  }
}
