package dev.rekey.cli;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.token.TokenUtil;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Kerberos for a job whose old and new tables are on two clusters ({@code --old-hbase-site}, {@code
 * --new-hbase-site}, {@link SiteOption}): what {@link KerberosPreflight} checks for {@code
 * --hbase-site}, for the other cluster too. On YARN and Kubernetes, Spark gets delegation tokens
 * for one HBase (its own configuration's) and for the filesystems it is told of: the other
 * cluster's filesystem must be listed in {@code spark.kerberos.access.hadoopFileSystems}, and the
 * other cluster's HBase token is fetched here, at submission, into the user's credentials that
 * spark-submit (in this JVM) ships with the application.
 */
final class OtherClusterKerberos {
  static final String ACCESS_FILESYSTEMS = "spark.kerberos.access.hadoopFileSystems";

  /** A command that reaches clusters besides --hbase-site's names their client configs. */
  interface OtherSites {
    List<Path> otherHBaseSites();
  }

  private OtherClusterKerberos() {}

  /**
   * The filesystems (scheme://authority) of {@code needed} that the comma-separated {@code
   * configured} value does not list. Pure.
   */
  static List<String> missingFileSystems(String configured, List<String> needed) {
    List<String> listed = new ArrayList<>();
    if (configured != null) {
      for (String s : configured.split(",")) {
        if (!s.isBlank()) {
          listed.add(authority(s.strip()));
        }
      }
    }
    return needed.stream()
        .map(OtherClusterKerberos::authority)
        .filter(n -> !listed.contains(n))
        .distinct()
        .toList();
  }

  /** {@code hdfs://nn:8020/some/dir} → {@code hdfs://nn:8020}. */
  static String authority(String uri) {
    URI u = URI.create(uri);
    return (u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT) + "://")
        + (u.getAuthority() == null ? "" : u.getAuthority());
  }

  /**
   * Checks the other clusters' sites: a Kerberos identity for each kerberized one (the same login
   * serves both when they share a realm or trust each other), and on YARN/Kubernetes tokens for
   * their filesystems and HBases.
   */
  static void check(
      GlobalOptions global, List<Path> sites, boolean submitsToSpark, PrintWriter out) {
    for (Path site : sites) {
      Configuration conf = HBaseConfigs.load(HBaseConfigs.resolveSite(site));
      if (!KerberosPreflight.isKerberos(conf.get(KerberosPreflight.HBASE_AUTH))
          && !KerberosPreflight.isKerberos(conf.get(KerberosPreflight.HADOOP_AUTH))) {
        continue;
      }
      if (!loggedInWithKerberos()) {
        UserGroupInformation.setConfiguration(conf);
        out.println(
            "Kerberos (" + site + "): " + KerberosPreflight.login(global, conf, site) + ".");
      }
      String master = global.master();
      if (!submitsToSpark || (!master.startsWith("yarn") && !master.startsWith("k8s://"))) {
        continue; // local executors are this JVM, logged in; standalone: KerberosPreflight warns
      }
      List<String> missing =
          missingFileSystems(
              KerberosPreflight.sparkConf(global, ACCESS_FILESYSTEMS),
              List.of(conf.get("hbase.rootdir", conf.get("fs.defaultFS", "file:///"))));
      if (!missing.isEmpty() && !missing.get(0).startsWith("file://")) {
        throw RekeyException.usage(
            "Executors on %s read the other cluster's files (%s, hbase.rootdir of %s) and need a"
                + " delegation token for that filesystem, which Spark gets only for those it is told"
                + " of: add --conf %s=%s (comma-separated with any already listed)",
            master, missing.get(0), site, ACCESS_FILESYSTEMS, missing.get(0));
      }
      if (KerberosPreflight.isKerberos(conf.get(KerberosPreflight.HBASE_AUTH))) {
        out.println("Kerberos on " + master + ": " + hbaseToken(conf, site) + ".");
      }
    }
    out.flush();
  }

  /**
   * An HBase delegation token of the other cluster in this user's credentials (Spark's own fetch
   * covers --hbase-site's cluster only). It is not renewed: jobs longer than that cluster's {@code
   * hbase.auth.token.max.lifetime} (7 days by default) need it fetched again.
   */
  private static String hbaseToken(Configuration conf, Path site) {
    try (Connection conn = ConnectionFactory.createConnection(conf)) {
      boolean added = TokenUtil.addTokenIfMissing(conn, User.getCurrent());
      return String.format(
          "%s the HBase delegation token of the cluster of %s for the executors (not renewed: its"
              + " lifetime, hbase.auth.token.max.lifetime, bounds the job)",
          added ? "fetched" : "using", site);
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw RekeyException.usage(
          "Cannot get an HBase delegation token from the cluster of %s for the executors: %s (check"
              + " that this user may connect to it, e.g. `echo status | hbase shell` with that"
              + " config)",
          site, RekeyException.oneLine(e));
    }
  }

  private static boolean loggedInWithKerberos() {
    try {
      UserGroupInformation u = UserGroupInformation.getCurrentUser();
      return UserGroupInformation.isSecurityEnabled() && u.hasKerberosCredentials();
    } catch (IOException e) {
      return false;
    }
  }

  /** The other sites a parsed command names: its own, or a mixin's (e.g. {@link SiteOption}). */
  static List<Path> of(picocli.CommandLine.Model.CommandSpec command) {
    List<Path> sites = new ArrayList<>();
    if (command.userObject() instanceof OtherSites o) {
      sites.addAll(o.otherHBaseSites());
    }
    for (picocli.CommandLine.Model.CommandSpec m : command.mixins().values()) {
      if (m.userObject() instanceof OtherSites o) {
        sites.addAll(o.otherHBaseSites());
      }
    }
    return sites;
  }

  static List<Path> nonNull(Path... sites) {
    return Arrays.stream(sites).filter(java.util.Objects::nonNull).toList();
  }
}
