package dev.rekey.cli;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.util.KerberosUtil;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionStrategy;
import picocli.CommandLine.ParseResult;

/**
 * Before a command talks to a kerberized HBase: a Kerberos identity the HBase client can use, and
 * on YARN or Kubernetes a way for Spark to get the executors' HBase delegation token. Without it
 * the command would fail much later (Spark started, executors failing with GSS errors, or a token
 * fetch Spark only logs as a warning); here it fails in a second with one line and the fix, exit 2.
 *
 * <p>Runs in the JVM the user started; a run re-entered through SparkSubmit was checked there. The
 * login it makes (UserGroupInformation's, JVM-wide) is the one the command and SparkSubmit then
 * use. Only Hadoop's UserGroupInformation talks Kerberos; nothing here reads a keytab's keys or a
 * token's bytes, and no message carries a configuration value other than authentication methods.
 */
final class KerberosPreflight {
  static final String HBASE_AUTH = "hbase.security.authentication";
  static final String HADOOP_AUTH = CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION;
  // the HBase client's own keytab login (AuthUtil.loginClient), used when --principal is not given
  static final String HBASE_CLIENT_KEYTAB = "hbase.client.keytab.file";
  static final String HBASE_CLIENT_PRINCIPAL = "hbase.client.keytab.principal";
  static final String SPARK_HBASE_TOKENS = "spark.security.credentials.hbase.enabled";
  // AuthenticationTokenIdentifier.AUTH_TOKEN_TYPE: what Spark ships to executors for HBase
  static final String HBASE_TOKEN_KIND = "HBASE_AUTH_TOKEN";
  // what Spark's token fetch (a connection to HBase as this user) reads, when the site sets them
  static final List<String> TOKEN_FETCH_KEYS =
      java.util.stream.Stream.concat(
              java.util.stream.Stream.of(HBASE_AUTH),
              dev.rekey.replication.ReplicationSettings.CLUSTER_KEYS.stream()
                  .filter(k -> !k.equals(HADOOP_AUTH) && !k.equals(HBASE_AUTH)))
          .toList();

  private KerberosPreflight() {}

  /**
   * Wraps the CLI's execution strategy: the check runs after parsing, before the command (and so
   * before any Spark start or HBase connection); a refusal reaches the CLI's exception handler.
   */
  static IExecutionStrategy before(IExecutionStrategy run) {
    return parsed -> {
      ParseResult last = parsed;
      boolean help = parsed.isUsageHelpRequested() || parsed.isVersionHelpRequested();
      while (last.hasSubcommand()) {
        last = last.subcommand();
        help |= last.isUsageHelpRequested() || last.isVersionHelpRequested();
      }
      GlobalOptions global = globalOptionsOf(last);
      if (!help && global != null && !SparkSubmitLauncher.insideSparkSubmit()) {
        CommandLine cl = last.commandSpec().commandLine();
        try {
          boolean submits = last.commandSpec().userObject() instanceof SparkCommand;
          Configuration kerberized = check(global, submits, cl.getErr());
          if (kerberized != null
              && last.commandSpec().userObject() instanceof TableRights.Needs needs) {
            TableRights.check(kerberized, needs.tableRights());
          }
          OtherClusterKerberos.check(
              global, OtherClusterKerberos.of(last.commandSpec()), submits, cl.getErr());
        } catch (RekeyException e) {
          throw new CommandLine.ExecutionException(cl, e.getMessage(), e);
        }
      }
      return run.execute(parsed);
    };
  }

  /** The options of a command that talks to HBase (it mixes in GlobalOptions); null otherwise. */
  static GlobalOptions globalOptionsOf(ParseResult command) {
    for (CommandLine.Model.CommandSpec mixin : command.commandSpec().mixins().values()) {
      if (mixin.userObject() instanceof GlobalOptions g) {
        return g;
      }
    }
    return null;
  }

  /** The check; returns the configuration of a kerberized HBase (the login made), else null. */
  static Configuration check(GlobalOptions global, boolean submitsToSpark, PrintWriter out) {
    if ((global.principal == null) != (global.keytab == null)) {
      throw RekeyException.usage(
          "--principal and --keytab go together: pass both (the keytab of that principal), or "
              + "neither and log in with kinit first");
    }
    Path site;
    try {
      site = HBaseConfigs.resolveSite(global.hbaseSite());
    } catch (RekeyException e) {
      if (global.hbaseSite() != null) {
        throw e;
      }
      return null; // no configuration found: the command says so itself (or starts the embedded
      // server)
    }
    Configuration conf = HBaseConfigs.load(site);
    boolean hbaseKerberos = isKerberos(conf.get(HBASE_AUTH));
    if (!hbaseKerberos && !isKerberos(conf.get(HADOOP_AUTH))) {
      return null;
    }
    if (hbaseKerberos && !isKerberos(conf.get(HADOOP_AUTH))) {
      // HBase's client picks its Kerberos (GSSAPI) authentication only for a user with Kerberos
      // credentials, and UserGroupInformation reads none while Hadoop's own setting says simple
      throw RekeyException.usage(
          "%s sets %s=kerberos but %s=%s: the HBase client then cannot use a"
              + " Kerberos ticket or keytab. Set %s=kerberos in it too",
          site, HBASE_AUTH, HADOOP_AUTH, conf.get(HADOOP_AUTH, "simple"), HADOOP_AUTH);
    }
    UserGroupInformation.setConfiguration(conf);
    String identity = login(global, conf, site);
    out.println("Kerberos: " + identity + ".");
    if (submitsToSpark && hbaseKerberos) {
      executorTokens(global, conf, site, out);
    }
    out.flush();
    return hbaseKerberos ? conf : null;
  }

  /** Logs in from a keytab, or finds the ticket (or token) already there; says which. */
  static String login(GlobalOptions global, Configuration conf, Path site) {
    String principal = global.principal;
    Path keytab = global.keytab;
    if (principal == null && conf.get(HBASE_CLIENT_KEYTAB) != null) {
      keytab = Path.of(conf.get(HBASE_CLIENT_KEYTAB));
      principal = conf.get(HBASE_CLIENT_PRINCIPAL);
      if (principal == null) {
        throw RekeyException.usage(
            "%s sets %s but not %s: set the keytab's principal there, or pass"
                + " --principal and --keytab",
            site, HBASE_CLIENT_KEYTAB, HBASE_CLIENT_PRINCIPAL);
      }
    }
    if (keytab != null) {
      return loginFromKeytab(hostResolved(principal), keytab);
    }
    UserGroupInformation user;
    try {
      user = UserGroupInformation.getCurrentUser();
    } catch (IOException e) {
      throw RekeyException.usage(
          "Cannot read the Kerberos ticket cache: " + oneLine(e) + " (run kinit again)");
    }
    if (user.hasKerberosCredentials()) {
      return "using the ticket of " + user.getUserName() + " from the ticket cache";
    }
    if (user.getCredentials().getAllTokens().stream()
        .anyMatch(t -> HBASE_TOKEN_KIND.equals(t.getKind().toString()))) {
      // a job launched by a scheduler that fetched tokens for it (HADOOP_TOKEN_FILE_LOCATION)
      return "using the HBase delegation token of " + user.getShortUserName();
    }
    throw RekeyException.usage(
        "Cannot connect to HBase: %s says Kerberos, and there is no Kerberos"
            + " ticket (ticket cache %s) and no keytab. Run `kinit PRINCIPAL` first,"
            + " or pass --principal PRINCIPAL --keytab FILE",
        site, ticketCache());
  }

  private static String loginFromKeytab(String principal, Path keytab) {
    if (!Files.isRegularFile(keytab) || !Files.isReadable(keytab)) {
      throw RekeyException.usage(
          "Cannot log in to Kerberos as %s: keytab %s%s (pass the keytab's path"
              + " with --keytab, or log in with kinit %s instead)",
          principal,
          keytab,
          (Files.exists(keytab) ? " cannot be read" : " does not exist"),
          principal);
    }
    try {
      UserGroupInformation.loginUserFromKeytab(principal, keytab.toString());
    } catch (IOException | RuntimeException e) {
      List<String> held = principalsIn(keytab);
      throw RekeyException.usage(
          "Cannot log in to Kerberos as %s with keytab %s: %s%s (list it with"
              + " `klist -kt %s`, and pass its principal with --principal)",
          principal,
          keytab,
          oneLine(e),
          held.isEmpty()
              ? ""
              : String.format(
                  ". The keytab holds %s%s",
                  String.join(", ", held), held.contains(principal) ? "" : ", not " + principal),
          keytab);
    }
    return "logged in as " + principal + " from keytab " + keytab;
  }

  /** What Spark on YARN or Kubernetes needs to give executors an HBase delegation token. */
  private static void executorTokens(
      GlobalOptions global, Configuration conf, Path site, PrintWriter out) {
    String master = global.master();
    if (master.startsWith("spark://")) {
      out.printf(
          "Warning: Spark standalone (--master %s) gives executors no delegation tokens (Spark"
              + " ships them on YARN and Kubernetes): executors reach a kerberized HBase only with"
              + " a Kerberos login of their own on every worker.%n",
          master);
      return;
    }
    if (!master.startsWith("yarn") && !master.startsWith("k8s://")) {
      return; // local: the executors are this JVM, logged in above
    }
    if ("false".equalsIgnoreCase(sparkConf(global, SPARK_HBASE_TOKENS))) {
      throw RekeyException.usage(
          "Executors on %s reach a kerberized HBase only with a delegation token,"
              + " and --conf %s=false stops Spark from getting one: remove it",
          master, SPARK_HBASE_TOKENS);
    }
    // Spark's HBase token provider reads HBaseConfiguration.create(its Hadoop conf): the
    // hbase-site.xml on the driver's classpath plus spark.hadoop.* settings, not --hbase-site.
    // Seeing simple auth there it asks for no token (and a failed fetch is only a warning), and
    // the executors would fail minutes later.
    Configuration sparkView = HBaseConfiguration.create();
    for (String c : global.sparkConfs()) {
      int eq = c.indexOf('=');
      if (eq > 0 && c.startsWith("spark.hadoop.")) {
        sparkView.set(c.substring("spark.hadoop.".length(), eq), c.substring(eq + 1));
      }
    }
    List<String> differ =
        TOKEN_FETCH_KEYS.stream()
            .filter(k -> conf.get(k) != null && !conf.get(k).equals(sparkView.get(k)))
            .toList();
    if (!differ.isEmpty()) {
      // the submission rekey makes next (SparkSubmitLauncher) carries them: Spark's token fetch
      // then reaches the cluster of --hbase-site. These keys hold addresses and principals, no
      // secret, and are named in the line below without their values.
      for (String k : differ) {
        global.sparkConf.add("spark.hadoop." + k + "=" + conf.get(k));
      }
      out.printf(
          "Kerberos on %s: Spark's HBase token fetch reads the hbase-site.xml on the driver's"
              + " classpath, which differs from %s in %s: passing them to spark-submit as --conf"
              + " spark.hadoop.KEY=VALUE.%n",
          master, site, String.join(", ", differ));
    }
    out.printf(
        "Kerberos on %s: Spark gets the HBase delegation token for the executors at submission"
            + " (%s=true), %s%n",
        master,
        SPARK_HBASE_TOKENS,
        global.keytab != null
            ? "and with --principal/--keytab gets new ones before they expire."
            : "with your ticket only: pass --principal and --keytab for jobs longer than the"
                + " token's lifetime.");
  }

  static String sparkConf(GlobalOptions global, String key) {
    String value = null;
    for (String c : global.sparkConfs()) {
      if (c.startsWith(key + "=")) {
        value = c.substring(key.length() + 1).strip();
      }
    }
    return value;
  }

  /**
   * The principals a keytab holds (names only, never keys), to name the right one; empty if
   * unknown.
   */
  private static List<String> principalsIn(Path keytab) {
    try {
      return Arrays.stream(KerberosUtil.getPrincipalNames(keytab.toString(), Pattern.compile(".*")))
          .distinct()
          .sorted()
          .toList();
    } catch (IOException | RuntimeException | LinkageError e) {
      return List.of();
    }
  }

  /** {@code _HOST} in a principal (service principals in hbase-site) becomes this host's name. */
  private static String hostResolved(String principal) {
    try {
      return SecurityUtil.getServerPrincipal(principal, (String) null);
    } catch (IOException e) {
      throw RekeyException.usage("Cannot resolve _HOST in principal %s: %s", principal, oneLine(e));
    }
  }

  private static String ticketCache() {
    String env = System.getenv("KRB5CCNAME");
    return env != null ? "KRB5CCNAME=" + env : "default, KRB5CCNAME unset";
  }

  static boolean isKerberos(String method) {
    return method != null && method.strip().toLowerCase(Locale.ROOT).equals("kerberos");
  }

  /** The innermost cause's message on one line (Kerberos exceptions nest the reason deep). */
  private static String oneLine(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    return m.replaceAll("\\s*\\R\\s*", " ").strip();
  }
}
