package dev.rekey.cli;

import dev.rekey.common.ClusterSite;
import dev.rekey.home.RekeyHome;
import dev.rekey.jobs.backfill.Backfill;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
          "HBase client config (hbase-site.xml). Default: rekey.hbase-site in rekey.properties, else"
              + " $HBASE_CONF_DIR, else the embedded server's.")
  Path hbaseSite;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master for job commands (default: rekey.master in rekey.properties, else local[*]).")
  String master;

  @Option(
      names = "--deploy-mode",
      paramLabel = "MODE",
      description =
          "Where a job's driver runs: client (this host) or cluster (on the cluster; default:"
              + " rekey.deploy-mode in rekey.properties, else client).")
  String deployMode;

  @Option(
      names = "--properties-file",
      paramLabel = "FILE",
      description =
          "Defaults for these options and spark.* settings, as spark-defaults.conf (default:"
              + " $REKEY_CONF_DIR/rekey.properties, else the install's conf/rekey.properties);"
              + " the command line wins. `rekey config COMMAND ...` shows what a command uses.")
  Path propertiesFile;

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

  /** rekey.properties and the command line, resolved once. */
  private RekeyConfig.Resolved config;

  /** What this command line resolves to with its properties file and the environment. */
  public RekeyConfig.Resolved config() {
    if (config == null) {
      Path file = RekeyConfig.locate(propertiesFile, System.getenv(), RekeyHome.dir());
      Map<String, String> cli = new LinkedHashMap<>();
      if (master != null) {
        cli.put(RekeyConfig.MASTER, master);
      }
      if (deployMode != null) {
        cli.put(RekeyConfig.DEPLOY_MODE, RekeyConfig.deployMode(deployMode, "--deploy-mode"));
      }
      if (hbaseSite != null) {
        cli.put(RekeyConfig.HBASE_SITE, hbaseSite.toString());
      }
      config =
          RekeyConfig.resolve(
              file,
              RekeyConfig.read(file),
              cli,
              List.copyOf(sparkConf),
              System.getenv(),
              RekeyHome.embeddedClientSite());
    }
    return config;
  }

  /** The Spark master: --master, else the properties file's, else local[*]. */
  public String master() {
    return config().get(RekeyConfig.MASTER);
  }

  /** client or cluster: --deploy-mode, else the properties file's, else client. */
  public String deployMode() {
    return config().get(RekeyConfig.DEPLOY_MODE);
  }

  /**
   * --hbase-site, else the properties file's; null for the environment's or the embedded server's,
   * which {@link dev.rekey.common.HBaseConfigs#resolveSite} finds.
   */
  public Path hbaseSite() {
    if (hbaseSite != null) {
      return hbaseSite;
    }
    RekeyConfig.Value v = config().settings().get(RekeyConfig.HBASE_SITE);
    return v != null && !v.source().startsWith("$") && !v.source().startsWith("the embedded")
        ? Path.of(v.value())
        : null;
  }

  /** The properties file's output root (scan's --out parent), or null. */
  public String outputRoot() {
    return config().get(RekeyConfig.OUTPUT_ROOT);
  }

  /**
   * The Spark settings of a submission, in order (later wins): the properties file's, its staging
   * root (as {@code spark.hadoop.rekey.staging.root}, which the jobs read), then the command line's
   * --conf (and what the pre-flights added to them).
   */
  public List<String> sparkConfs() {
    List<String> all = new ArrayList<>();
    for (RekeyConfig.Value v : config().sparkConf()) {
      if (!RekeyConfig.COMMAND_LINE.equals(v.source())) {
        all.add(v.value());
      }
    }
    String staging = config().get(RekeyConfig.STAGING_ROOT);
    if (staging != null) {
      all.add("spark.hadoop." + Backfill.STAGING_ROOT + "=" + staging);
    }
    all.addAll(sparkConf);
    return all;
  }

  /**
   * --hbase-site's cluster, parsed once: a command asks for it several times (checks, launcher,
   * job).
   */
  private ClusterSite site;

  /** The cluster of --hbase-site (or of the default site). */
  public ClusterSite site() {
    if (site == null || !Objects.equals(site.file(), hbaseSite())) {
      site = ClusterSite.own(hbaseSite());
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
