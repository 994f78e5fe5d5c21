package dev.rekey.common;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkExecutorInfo;

/**
 * Whether a job's output directory is where every process that writes it can write and the user
 * will find it. A {@code file://} directory is one host's disk: executors on other hosts would each
 * write their part files to their own disk and the driver's commit would see only its own (a report
 * missing rows, or failing), and a driver in cluster deploy mode would write summary.json on a
 * worker. Such an output is refused before anything is read, naming the hosts.
 */
public final class OutputReach {
  /** Set by rekey's launcher to the submitting host's addresses: where a cluster-mode driver is. */
  public static final String SUBMIT_ADDRESSES = "spark.rekey.submitAddresses";

  /** How long to wait for a cluster's first executor to register before judging where they are. */
  static final long EXECUTOR_WAIT_MS = 120_000;

  private OutputReach() {}

  /**
   * Refuses {@code dir} (given as {@code option}) for the job on {@code sc} when it is a local
   * directory and a process that writes it runs on another host.
   *
   * @param executorsWrite the executors write files there (a report's parts, HFiles), not only the
   *     driver
   */
  public static void check(SparkContext sc, String option, OutputDir dir, boolean executorsWrite) {
    check(sc, option, dir.root(), executorsWrite);
  }

  /** {@link #check(SparkContext, String, OutputDir, boolean)} of a qualified Hadoop path. */
  public static void check(
      SparkContext sc, String option, org.apache.hadoop.fs.Path dir, boolean executorsWrite) {
    boolean localMaster = sc.master().startsWith("local");
    if (localMaster || !"file".equals(dir.toUri().getScheme())) {
      return;
    }
    boolean driverAway = driverAwayFromSubmitter(sc);
    List<String> remote = executorsWrite ? remoteExecutorHosts(sc) : List.of();
    refusal(option, dir.toString(), localMaster, driverAway, remote)
        .ifPresent(
            why -> {
              throw RekeyException.usage("%s", why);
            });
  }

  /**
   * Why a {@code file://} output {@code uri} cannot be written as asked, or empty when it can.
   * Pure.
   *
   * @param driverAway the driver runs on another host than the one the command was submitted from
   * @param remoteExecutorHosts hosts of executors that write there and are not the driver's host
   */
  static Optional<String> refusal(
      String option,
      String uri,
      boolean localMaster,
      boolean driverAway,
      List<String> remoteExecutorHosts) {
    if (localMaster) {
      return Optional.empty();
    }
    String fix =
        "give "
            + option
            + " a directory every host reaches, e.g. hdfs:///user/<you>/out or s3a://bucket/out (a"
            + " path without a scheme is on the cluster's default filesystem)";
    if (!remoteExecutorHosts.isEmpty()) {
      return Optional.of(
          String.format(
              "Refusing %s %s: it is a local directory, and executors on %s would each write"
                  + " their part of the output to their own disk, where the driver's commit does"
                  + " not see it (rows lost); %s.",
              option, uri, String.join(", ", new TreeSet<>(remoteExecutorHosts)), fix));
    }
    if (driverAway) {
      return Optional.of(
          String.format(
              "Refusing %s %s: it is a local directory, and the driver runs in cluster deploy mode"
                  + " on another host than this one: what it writes would be on that host's disk;"
                  + " %s.",
              option, uri, fix));
    }
    return Optional.empty();
  }

  /**
   * Hosts of the cluster's executors that are not this host, after waiting for the first one to
   * register (a standalone or YARN application starts with none).
   */
  private static List<String> remoteExecutorHosts(SparkContext sc) {
    // the driver is one of the infos: wait for one more
    try {
      Poll.until(
          () -> sc.statusTracker().getExecutorInfos().length >= 2,
          java.time.Duration.ofMillis(EXECUTOR_WAIT_MS),
          java.time.Duration.ofMillis(200),
          () ->
              RekeyException.cannot(
                  "No executor registered within %d s: cannot tell on which hosts they run, so a"
                      + " local output directory cannot be checked (give the cluster time or"
                      + " resources, or an output on a shared filesystem such as hdfs://)",
                  EXECUTOR_WAIT_MS / 1000));
    } catch (IOException e) {
      throw RekeyException.cannot(e, "Interrupted while waiting for executors");
    }
    SparkExecutorInfo[] infos = sc.statusTracker().getExecutorInfos();
    Set<String> local = localAddresses();
    List<String> remote = new ArrayList<>();
    for (SparkExecutorInfo e : infos) {
      if (!isLocal(e.host(), local)) {
        remote.add(e.host());
      }
    }
    return remote;
  }

  private static boolean driverAwayFromSubmitter(SparkContext sc) {
    if (!"cluster".equals(sc.getConf().get("spark.submit.deployMode", "client"))) {
      return false;
    }
    String submitter = sc.getConf().get(SUBMIT_ADDRESSES, "");
    if (submitter.isBlank()) {
      return true; // submitted by spark-submit itself: where from is unknown, so not assumed here
    }
    Set<String> here = localAddresses();
    for (String a : submitter.split(",")) {
      if (here.contains(a.trim())) {
        return false;
      }
    }
    return true;
  }

  /**
   * This host's non-loopback addresses, as text: what rekey's launcher records as the submitter.
   */
  public static String submitAddresses() {
    Set<String> a = new TreeSet<>(localAddresses());
    a.removeIf(s -> s.startsWith("127.") || s.equals("0:0:0:0:0:0:0:1"));
    return String.join(",", a);
  }

  private static boolean isLocal(String host, Set<String> local) {
    try {
      InetAddress a = InetAddress.getByName(host);
      return a.isLoopbackAddress() || local.contains(a.getHostAddress());
    } catch (IOException e) {
      return false; // a host this one cannot resolve is not this one
    }
  }

  private static Set<String> localAddresses() {
    Set<String> out = new TreeSet<>();
    try {
      for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        for (InetAddress a : Collections.list(ni.getInetAddresses())) {
          String s = a.getHostAddress();
          int zone = s.indexOf('%');
          out.add(zone < 0 ? s : s.substring(0, zone));
        }
      }
    } catch (SocketException e) {
      // no interface list: only loopback counts as this host
    }
    return out;
  }
}
