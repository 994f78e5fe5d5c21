package dev.rekey.cli;

import dev.rekey.common.OutputReach;
import dev.rekey.common.RekeyException;
import dev.rekey.embedded.NioLocalFileSystem;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.launcher.SparkLauncher;

/** Re-enters the CLI through {@code org.apache.spark.deploy.SparkSubmit}, in this JVM. */
final class SparkSubmitLauncher {
  /**
   * Set (as a Spark conf, hence a system property in the driver) on every submission rekey makes.
   */
  static final String SUBMITTED = "spark.rekey.submitted";

  private static final String LOCAL_FS = "fs.file.impl";

  private SparkSubmitLauncher() {}

  static boolean insideSparkSubmit() {
    return System.getProperty(SUBMITTED) != null || System.getProperty("spark.master") != null;
  }

  /**
   * Submits this command line ({@code args}, as the user gave it) to Spark, in this JVM.
   *
   * @param ownHBase the command starts its own HBase (the demo): there is no client site to ask yet
   */
  static int resubmit(GlobalOptions global, boolean ownHBase, List<String> args) {
    List<String> argv = new ArrayList<>();
    argv.add("--master");
    argv.add(global.master);
    argv.add("--conf");
    argv.add(SUBMITTED + "=true");
    // where a cluster-mode driver was submitted from: OutputReach tells its host from this one
    argv.add("--conf");
    argv.add(OutputReach.SUBMIT_ADDRESSES + "=" + OutputReach.submitAddresses());
    for (String c : defaultsFor(global.master)) {
      argv.add("--conf");
      argv.add(c);
    }
    // TableSnapshotInputFormat splits report length 0: without this Spark drops them and reads
    // nothing.
    argv.add("--conf");
    argv.add("spark.hadoopRDD.ignoreEmptySplits=false");
    boolean local = isLocal(global.master);
    if (local && (ownHBase || global.hbaseConf().get(LOCAL_FS) == null)) {
      // the staging dir is on the local filesystem: create its files without a chmod process each
      // (Hadoop's native library is not on the classpath); a --conf below may set another, and one
      // the --hbase-site names is kept (the jobs take spark.hadoop.* over the site). The demo's
      // embedded server is not started yet here, and its site never names one.
      argv.add("--conf");
      argv.add("spark.hadoop." + LOCAL_FS + "=" + NioLocalFileSystem.class.getName());
    }
    for (String c : global.sparkConf) {
      if (!c.contains("=")) {
        throw RekeyException.usage(
            "Invalid --conf '" + c + "': expected KEY=VALUE, e.g. --conf spark.executor.memory=2g");
      }
      argv.add("--conf");
      argv.add(c);
    }
    if (global.principal != null) {
      // Spark logs in with them too, and on YARN re-obtains the delegation tokens before they
      // expire
      argv.add("--principal");
      argv.add(global.principal);
      argv.add("--keytab");
      argv.add(global.keytab.toString());
    }
    argv.add("--class");
    argv.add(Rekey.class.getName());
    String jar = applicationJar(); // run from the jar (bin/rekey, spark-submit), or refused here
    // a local master's executors run in this JVM, on its classpath: shipping the application jar
    // would only copy its 60 MB into Spark's temp dir on every command (0.4 s on 2 cores)
    argv.add(local ? SparkLauncher.NO_RESOURCE : jar);
    argv.addAll(args);
    org.apache.spark.deploy.SparkSubmit.main(argv.toArray(new String[0]));
    // SparkSubmit returns when the application's main returned without exiting (it exits itself on
    // errors).
    return 0;
  }

  /**
   * The settings rekey chooses for {@code master}, before the user's {@code --conf} (which win).
   * Local: small jobs on a few cores, where Spark's 200 shuffle partitions cost seconds a stage and
   * the UI's port and thread are overhead. On a cluster, Spark's own defaults stay: the UI on (the
   * jobs describe their stages there), and SQL shuffles sized by the data, by adaptive execution
   * coalescing Spark's {@code spark.sql.shuffle.partitions} to partitions of about {@code
   * spark.sql.adaptive.advisoryPartitionSizeInBytes} (64 MB) each. The RDD shuffles of reconcile
   * and repair size themselves from the rows they compare.
   */
  static List<String> defaultsFor(String master) {
    if (isLocal(master)) {
      return List.of("spark.sql.shuffle.partitions=8", "spark.ui.enabled=false");
    }
    return List.of(
        "spark.sql.adaptive.enabled=true", "spark.sql.adaptive.coalescePartitions.enabled=true");
  }

  /** A master whose executors run in the driver's JVM: {@code local}, {@code local[N]}, .... */
  static boolean isLocal(String master) {
    return master.startsWith("local");
  }

  /** The shaded jar this CLI runs from: the application jar SparkSubmit ships to executors. */
  static String applicationJar() {
    try {
      Path p = Path.of(Rekey.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (!Files.isRegularFile(p)) {
        throw RekeyException.cannot(
            "Cannot submit: rekey is not running from its jar (%s). Run it through bin/rekey, or"
                + " spark-submit spark-jobs/target/rekey-spark-jobs-*-spark.jar.",
            p);
      }
      return p.toString();
    } catch (URISyntaxException e) {
      throw new RekeyException("Cannot locate the rekey jar: " + e.getMessage(), e);
    }
  }
}
