package dev.rekey.cli;

import dev.rekey.common.ClusterSite;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine.Option;

/**
 * Options of the commands that connect to HBase (picocli mixin; plan, key, check-config, hbase,
 * cluster and spark-cluster do not take it).
 */
public final class GlobalOptions {
  @Option(
      names = "--hbase-site",
      paramLabel = "FILE",
      description =
          "HBase client config (hbase-site.xml). Default: $HBASE_CONF_DIR, else the embedded server's.")
  Path hbaseSite;

  @Option(
      names = "--master",
      paramLabel = "URL",
      defaultValue = "local[*]",
      description = "Spark master for job commands (default: ${DEFAULT-VALUE}).")
  String master;

  @Option(
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description = "Spark configuration for job commands, passed to spark-submit (repeatable).")
  List<String> sparkConf = new ArrayList<>();

  @Option(
      names = "--principal",
      paramLabel = "PRINCIPAL",
      description =
          "Kerberos principal to log in as, with --keytab, on a kerberized cluster (default: the "
              + "ticket from kinit). Also passed to spark-submit, which renews delegation tokens with it.")
  String principal;

  @Option(names = "--keytab", paramLabel = "FILE", description = "Keytab of --principal.")
  Path keytab;

  @Option(
      names = {"-v", "--verbose"},
      description = "Show Spark's and HBase's own logging and stack traces.")
  boolean verbose;

  @Option(
      names = {"-q", "--quiet"},
      description =
          "No progress lines from Spark job commands (by default a line "
              + "every 5 s per running stage: tasks done of total, rows read, rate, ETA; on stderr).")
  boolean quiet;

  /**
   * --hbase-site's cluster, parsed once: a command asks for it several times (checks, launcher,
   * job).
   */
  private ClusterSite site;

  /** The cluster of --hbase-site (or of the default site). */
  public ClusterSite site() {
    if (site == null || !Objects.equals(site.file(), hbaseSite)) {
      site = ClusterSite.own(hbaseSite);
    }
    return site;
  }

  /**
   * The HBase client configuration of --hbase-site (or the default site): a copy each call, so a
   * caller may change it; the site's files are parsed once per command line.
   */
  public Configuration hbaseConf() {
    return site().conf();
  }

  void applyLogging() {
    if (verbose) {
      // every logger, those conf/log4j2.properties turns off included
      Configurator.setAllLevels(LogManager.ROOT_LOGGER_NAME, Level.INFO);
    }
  }
}
