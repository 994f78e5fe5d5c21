package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.OutputReach;
import dev.rekey.common.RekeyException;
import dev.rekey.demo.ClusterSubmit;
import dev.rekey.embedded.NioLocalFileSystem;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import org.apache.spark.launcher.SparkLauncher;

/**
 * Re-enters the CLI through Spark's submission: {@code org.apache.spark.deploy.SparkSubmit} in this
 * JVM, or, from a release on a gateway, the cluster's own {@code spark-submit}.
 */
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
   * The cluster's {@code spark-submit} (bin/rekey of a release sets it from $SPARK_HOME or the
   * PATH): job commands run through it, as a child process, instead of Spark's SparkSubmit in this
   * JVM.
   */
  static final String SPARK_SUBMIT = "rekey.spark.submit";

  /**
   * Submits this command line ({@code args}, as the user gave it) to Spark: through the cluster's
   * spark-submit when bin/rekey named one ({@value #SPARK_SUBMIT}), else in this JVM.
   *
   * @param ownHBase the command starts its own HBase (the demo): there is no client site to ask yet
   */
  static int resubmit(GlobalOptions global, boolean ownHBase, List<String> args) {
    String sparkSubmit = System.getProperty(SPARK_SUBMIT);
    boolean external = sparkSubmit != null && !sparkSubmit.isBlank();
    List<String> argv = argv(global, ownHBase, applicationJar(), external, args);
    if (external) {
      return runExternal(sparkSubmit, argv, standaloneCluster(argv));
    }
    org.apache.spark.deploy.SparkSubmit.main(argv.toArray(new String[0]));
    // SparkSubmit returns when the application's main returned without exiting (it exits itself on
    // errors).
    return 0;
  }

  /**
   * The spark-submit arguments of a command: Spark's options, rekey's class and jar, then {@code
   * args}. Reads the resolved settings (command line, rekey.properties) and the local filesystem's
   * setting of --hbase-site; otherwise pure.
   *
   * @param jar rekey's jar (the application jar)
   * @param external through a spark-submit process: its driver (client mode) gets the settings this
   *     JVM has from bin/rekey
   */
  static List<String> argv(
      GlobalOptions global, boolean ownHBase, String jar, boolean external, List<String> args) {
    String master = global.master();
    List<String> user = global.sparkConfs();
    for (String c : user) {
      if (!c.contains("=")) {
        throw RekeyException.usage(
            "Invalid --conf '" + c + "': expected KEY=VALUE, e.g. --conf spark.executor.memory=2g");
      }
    }
    boolean clusterMode =
        "cluster".equals(global.deployMode())
            || "cluster".equals(last(user, "spark.submit.deployMode"));
    List<String> argv = new ArrayList<>();
    argv.add("--master");
    argv.add(master);
    if ("cluster".equals(global.deployMode())) {
      argv.add("--deploy-mode");
      argv.add("cluster");
    }
    List<String> confs = new ArrayList<>();
    confs.add(SUBMITTED + "=true");
    // where a cluster-mode driver was submitted from: OutputReach tells its host from this one
    confs.add(OutputReach.SUBMIT_ADDRESSES + "=" + OutputReach.submitAddresses());
    confs.addAll(defaultsFor(master));
    // TableSnapshotInputFormat splits report length 0: without this Spark drops them and reads
    // nothing.
    confs.add("spark.hadoopRDD.ignoreEmptySplits=false");
    boolean local = isLocal(master);
    if (local && (ownHBase || global.hbaseConf().get(LOCAL_FS) == null)) {
      // the staging dir is on the local filesystem: create its files without a chmod process each
      // (Hadoop's native library is not on the classpath); a --conf below may set another, and one
      // the --hbase-site names is kept (the jobs take spark.hadoop.* over the site). The demo's
      // embedded server is not started yet here, and its site never names one.
      confs.add("spark.hadoop." + LOCAL_FS + "=" + NioLocalFileSystem.class.getName());
    }
    confs.addAll(
        jarSettings(master, clusterMode, jar, external, System.getProperty("rekey.home"), user));
    confs.addAll(user);
    for (String c : confs) {
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
    // a local master's executors run in this JVM, on its classpath: shipping the application jar
    // would only copy its 60 MB into Spark's temp dir on every command (0.4 s on 2 cores)
    argv.add(local && !external ? SparkLauncher.NO_RESOURCE : jar);
    argv.addAll(args);
    return argv;
  }

  /**
   * What a submission needs so that rekey's jar is on the JVM class path of its driver and
   * executors (HBase's metrics classes in Hadoop's package must come from Hadoop's class loader,
   * README), and so that a driver no launcher starts runs on Java 17. Nothing of the class path
   * when the user names either class path himself; his driver options follow rekey's. Pure.
   *
   * <ul>
   *   <li>YARN, client mode: the jar shipped to each container as {@code rekey.jar} ({@code
   *       spark.yarn.dist.files}), on the executors' class path by that name.
   *   <li>YARN, cluster mode: the application jar is in every container as {@code __app__.jar}
   *       (shipping it again is refused: one file twice in the distributed cache).
   *   <li>Standalone: the jar where it is (every worker must read that path).
   *   <li>Cluster mode: Spark's Java 17 module flags for the driver; standalone waits for the
   *       driver to end (spark-submit exits 0 there even when it failed).
   * </ul>
   *
   * @param external a spark-submit process starts the client-mode driver: it gets the HBase
   *     client's netty flag and the install's home (layout names, conf/) as bin/rekey gives them
   */
  static List<String> jarSettings(
      String master,
      boolean clusterMode,
      String jar,
      boolean external,
      String home,
      List<String> user) {
    List<String> c = new ArrayList<>();
    boolean ownClassPath =
        last(user, "spark.driver.extraClassPath") != null
            || last(user, "spark.executor.extraClassPath") != null;
    if (!isLocal(master) && !ownClassPath) {
      if (master.startsWith("yarn")) {
        if (clusterMode) {
          c.add("spark.driver.extraClassPath=__app__.jar");
          c.add("spark.executor.extraClassPath=__app__.jar");
        } else {
          c.add("spark.driver.extraClassPath=" + jar);
          c.add("spark.executor.extraClassPath=rekey.jar");
          String files = last(user, "spark.yarn.dist.files");
          c.add(
              "spark.yarn.dist.files="
                  + (files == null || files.isBlank() ? "" : files + ",")
                  + jar
                  + "#rekey.jar");
        }
      } else if (master.startsWith("spark://")) {
        c.add("spark.driver.extraClassPath=" + jar);
        c.add("spark.executor.extraClassPath=" + jar);
      }
    } else if (isLocal(master) && external && !ownClassPath) {
      c.add("spark.driver.extraClassPath=" + jar);
    }
    List<String> opts = new ArrayList<>();
    if (clusterMode) {
      opts.add(org.apache.spark.launcher.JavaModuleOptions.defaultModuleOptions());
    }
    if (clusterMode || external) {
      opts.add("-Dio.netty.tryReflectionSetAccessible=true");
      if (home != null) {
        opts.add("-Drekey.home=" + home);
      }
    }
    if (external && !clusterMode && home != null) {
      opts.add("-Dlog4j2.configurationFile=" + home + "/conf/log4j2.properties");
    }
    if (!opts.isEmpty()) {
      String theirs = last(user, "spark.driver.extraJavaOptions");
      if (theirs != null && !theirs.isBlank()) {
        opts.add(theirs);
      }
      c.add("spark.driver.extraJavaOptions=" + String.join(" ", opts));
    }
    if (clusterMode && master.startsWith("spark://")) {
      c.add("spark.standalone.submit.waitAppCompletion=true");
    }
    return c;
  }

  /** The value of the last {@code key=...} in {@code confs}, or null. */
  static String last(List<String> confs, String key) {
    String v = null;
    for (String c : confs) {
      if (c.startsWith(key + "=")) {
        v = c.substring(key.length() + 1);
      }
    }
    return v;
  }

  private static boolean standaloneCluster(List<String> argv) {
    int m = argv.indexOf("--master");
    boolean standalone = m >= 0 && argv.get(m + 1).startsWith("spark://");
    return standalone
        && (argv.contains("cluster") || argv.contains("spark.submit.deployMode=cluster"));
  }

  /**
   * Runs the cluster's spark-submit with {@code argv}, its output passed through; its exit code. In
   * standalone cluster mode spark-submit exits 0 even when the driver failed: the driver's final
   * state it prints decides.
   */
  static int runExternal(String sparkSubmit, List<String> argv, boolean standaloneCluster) {
    List<String> cmd = new ArrayList<>();
    cmd.add(sparkSubmit);
    cmd.addAll(argv);
    try {
      Process p =
          new ProcessBuilder(cmd)
              .redirectInput(ProcessBuilder.Redirect.INHERIT)
              .redirectOutput(ProcessBuilder.Redirect.INHERIT)
              .start();
      String state = null;
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          System.err.println(line);
          Matcher m = ClusterSubmit.DRIVER_STATE.matcher(line);
          if (m.find()) {
            state = m.group(2);
          }
        }
      }
      int code = p.waitFor();
      if (code == 0 && standaloneCluster && !"FINISHED".equals(state)) {
        System.err.println(
            "rekey: the driver ended "
                + (state == null ? "in no state spark-submit printed" : state)
                + ": its output is in the worker's work/<driver id>/stdout");
        return ExitCodes.FAILURE;
      }
      return code;
    } catch (IOException e) {
      throw RekeyException.cannot(
          "Cannot run %s: %s (set SPARK_HOME to the cluster's Spark installation)",
          sparkSubmit, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCodes.FAILURE;
    }
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
