package dev.rekey.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One rekey command through a cluster's {@code spark-submit}, shaped like the README's "Running on
 * a real cluster" recipe: the shaded jar as the application, on the driver's JVM classpath and
 * shipped to executors as {@code rekey.jar}. Standalone cluster deploy mode waits for the driver
 * and reads its final state, because spark-submit exits 0 there even when the driver failed.
 */
public record ClusterSubmit(Path sparkSubmit, Path jar, Path logDir) {
  /** spark-submit's line with a standalone cluster-mode driver's state. */
  public static final Pattern DRIVER_STATE =
      Pattern.compile("State of driver (driver-\\S+) is (\\w+)");

  /**
   * The reconcile the cluster stories (and their tests) submit: telemetry_v1 against a salted copy,
   * by the hour over the demo's day, with digests, its reports in {@code out}.
   *
   * @param sites {@code --hbase-site} (and {@code --old-hbase-site}) with their files
   */
  public static List<String> reconcileDemoDay(
      List<String> sites, String oldLayout, String newTable, String newLayout, Path out) {
    return reconcileDay(
        sites, oldLayout, List.of("--new-table", newTable, "--new-layout", newLayout), out);
  }

  /**
   * {@link #reconcileDemoDay} against several new tables, each given as {@code TABLE=LAYOUT}
   * (reconcile's {@code --target}): a report directory each under {@code out}.
   */
  public static List<String> reconcileDemoDay(
      List<String> sites, String oldLayout, List<String> targets, Path out) {
    return reconcileDay(sites, oldLayout, targetOptions(targets), out);
  }

  private static List<String> reconcileDay(
      List<String> sites, String oldLayout, List<String> newSide, Path out) {
    List<String> a = new ArrayList<>();
    a.addAll(
        List.of(
            "--old-table", DemoTables.TELEMETRY_V1.getNameAsString(), "--old-layout", oldLayout));
    a.addAll(newSide);
    a.addAll(demoDay());
    a.addAll(List.of("--digest", "--out", out.toString()));
    return command("reconcile", sites, a);
  }

  /**
   * The repair of several new tables ({@code TABLE=LAYOUT}) from one snapshot of the live
   * telemetry_v1 taken by the job: every hour of the demo's day compared, what differs put back,
   * delete markers that would hide it compacted first; a report directory each under {@code out}.
   */
  public static List<String> repairDemoDay(
      List<String> sites, String oldLayout, List<String> targets, Path out) {
    List<String> a = new ArrayList<>();
    a.addAll(
        List.of(
            "--old-table",
            DemoTables.TELEMETRY_V1.getNameAsString(),
            "--via-snapshot",
            "--old-layout",
            oldLayout));
    a.addAll(targetOptions(targets));
    a.addAll(demoDay());
    a.addAll(List.of("--compact-if-masked", "--out", out.toString()));
    return command("repair", sites, a);
  }

  /** The demo's day in hourly buckets. */
  private static List<String> demoDay() {
    return List.of(
        "--bucket",
        "1h",
        "--from",
        Instant.ofEpochMilli(TelemetryGenerator.DEFAULT_START).toString(),
        "--to",
        Instant.ofEpochMilli(TelemetryGenerator.DEFAULT_START + 86_400_000L).toString());
  }

  /** {@code --target TABLE=LAYOUT} for each of {@code targets}. */
  private static List<String> targetOptions(List<String> targets) {
    List<String> a = new ArrayList<>();
    for (String t : targets) {
      a.add("--target");
      a.add(t);
    }
    return a;
  }

  /**
   * The backfill of the demo's telemetry_v1 snapshot into {@code target}, after the site options.
   */
  public static List<String> backfillDemo(
      List<String> sites, String oldLayout, String target, String newLayout, String staging) {
    return backfill(sites, DemoTables.TELEMETRY_V1_SNAPSHOT, oldLayout, target, newLayout, staging);
  }

  /**
   * The backfill of {@code snapshot} into {@code target}, after {@code before} (sites, Spark
   * options); a caller appends any further options.
   */
  public static List<String> backfill(
      List<String> before,
      String snapshot,
      String oldLayout,
      String target,
      String newLayout,
      String staging) {
    return backfillInto(
        before,
        snapshot,
        oldLayout,
        List.of("--target-table", target, "--target-layout", newLayout),
        staging);
  }

  /**
   * The backfill of the demo's telemetry_v1 snapshot into several targets ({@code TABLE=LAYOUT},
   * backfill's {@code --target}) from one read, each staged in its own subdirectory of {@code
   * staging}.
   */
  public static List<String> backfillDemo(
      List<String> sites, String oldLayout, List<String> targets, String staging) {
    return backfillInto(
        sites, DemoTables.TELEMETRY_V1_SNAPSHOT, oldLayout, targetOptions(targets), staging);
  }

  private static List<String> backfillInto(
      List<String> before,
      String snapshot,
      String oldLayout,
      List<String> targetSide,
      String staging) {
    List<String> a = new ArrayList<>();
    a.addAll(List.of("--source-snapshot", snapshot, "--source-layout", oldLayout));
    a.addAll(targetSide);
    a.addAll(List.of("--staging", staging));
    return command("backfill", before, a);
  }

  /** A rekey command line: the command, the site options, then its own options. */
  private static List<String> command(String name, List<String> sites, List<String> options) {
    List<String> a = new ArrayList<>();
    a.add(name);
    a.addAll(sites);
    a.addAll(options);
    return List.copyOf(a);
  }

  /**
   * The spark-submit argument list (after the script) for a rekey command: pure, so tests can read
   * it.
   */
  public List<String> argv(String master, boolean clusterMode, List<String> rekeyArgs) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "--master",
                master,
                "--deploy-mode",
                clusterMode ? "cluster" : "client",
                "--class",
                "dev.rekey.cli.Rekey",
                "--conf",
                "spark.hadoopRDD.ignoreEmptySplits=false",
                "--conf",
                "spark.driver.extraClassPath=" + jar));
    if (master.startsWith("yarn")) {
      a.addAll(
          List.of(
              "--conf", "spark.executor.extraClassPath=rekey.jar", "--files", jar + "#rekey.jar"));
    } else {
      // standalone: executors run on this machine and read the jar where it is
      a.addAll(List.of("--conf", "spark.executor.extraClassPath=" + jar));
    }
    if (clusterMode) {
      // a driver the worker starts gets no launcher: it needs Spark's Java 17 module flags (and the
      // jar) here
      a.addAll(
          List.of(
              "--conf",
              "spark.driver.extraJavaOptions=" + java17Flags(),
              "--conf",
              "spark.standalone.submit.waitAppCompletion=true"));
    }
    a.add(jar.toString());
    a.addAll(rekeyArgs);
    return a;
  }

  /**
   * Runs spark-submit, passing the driver's stdout lines (client mode) to {@code out} and keeping
   * Spark's own logging in {@code logDir/NAME.log}.
   */
  public Outcome run(
      String name, String master, boolean clusterMode, List<String> rekeyArgs, Consumer<String> out)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(sparkSubmit.toString());
    cmd.addAll(argv(master, clusterMode, rekeyArgs));
    Path log = logDir.resolve(name + ".log");
    java.nio.file.Files.createDirectories(logDir);
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        out.accept(line);
      }
    }
    int code = p.waitFor();
    String driver = null;
    String state = null;
    if (clusterMode) {
      Matcher m =
          DRIVER_STATE.matcher(java.nio.file.Files.readString(log, StandardCharsets.ISO_8859_1));
      while (m.find()) {
        driver = m.group(1);
        state = m.group(2);
      }
    }
    return new Outcome(code, driver, state, log, (System.nanoTime() - t0) / 1e9);
  }

  /** What a submission ended with; in cluster mode the driver's id and final state. */
  public record Outcome(
      int exitCode, String driverId, String driverState, Path log, double seconds) {
    public boolean ok() {
      return exitCode == 0 && (driverState == null || driverState.equals("FINISHED"));
    }
  }

  /**
   * What spark-submit's launcher adds to a client-mode driver on Java 17, and the HBase client's
   * netty flag.
   */
  static String java17Flags() {
    return org.apache.spark.launcher.JavaModuleOptions.defaultModuleOptions()
        + " -Dio.netty.tryReflectionSetAccessible=true";
  }
}
