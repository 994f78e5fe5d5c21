package dev.rekey.cli;

import dev.rekey.jobs.common.ProgressListener;
import dev.rekey.jobs.common.RegionReader;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Mixin;

/**
 * A command that runs as a Spark application. Started from a plain JVM it re-enters through Spark's
 * real {@code SparkSubmit} entry point (so the same jar and command line work with any --master);
 * inside SparkSubmit it gets the session and runs.
 */
public abstract class SparkCommand implements Callable<Integer> {
  /** A progress line per running stage this often, once the stage has run this long. */
  static final long PROGRESS_SECONDS = 5;

  @Mixin protected GlobalOptions global;

  @Override
  public final Integer call() throws Exception {
    global.applyLogging();
    // bad arguments and a malformed --hbase-site fail here, in a second, not after a Spark start
    validate();
    if (global.hbaseSite != null) {
      global.hbaseConf();
    }
    Integer plain = runWithoutSpark();
    if (plain != null) {
      return plain;
    }
    if (!SparkSubmitLauncher.insideSparkSubmit()) {
      return SparkSubmitLauncher.resubmit(global);
    }
    SparkSession spark =
        SparkSession.builder()
            .appName("rekey " + commandName())
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
                spark.sparkContext(), commandName(), System.err, PROGRESS_SECONDS)) {
      return run(spark);
    } finally {
      // stop Spark before the CLI's System.exit: exiting with a live context makes its RPC threads
      // print
      // RejectedExecutionException stack traces while they shut down
      spark.stop();
    }
  }

  protected abstract String commandName();

  /**
   * For a command whose options make it a plain client that submits jobs itself (demo --cluster):
   * its exit code; null (the default) to run as a Spark application.
   */
  protected Integer runWithoutSpark() throws Exception {
    return null;
  }

  /** Checks what can be checked without Spark or HBase; throws a usage RekeyException. */
  protected void validate() {}

  /** Runs the job on the session; returns the exit code. */
  protected abstract int run(SparkSession spark) throws Exception;
}
