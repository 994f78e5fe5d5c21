package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rekey.testing.RekeyProcess;
import java.io.IOException;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.kerby.kerberos.kerb.client.KrbClient;
import org.apache.kerby.kerberos.kerb.keytab.Keytab;
import org.apache.kerby.kerberos.kerb.keytab.KeytabEntry;
import org.apache.kerby.kerberos.kerb.type.base.PrincipalName;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kerberos pre-flight against a real KDC (Hadoop's MiniKdc, Apache Kerby) started here: no
 * kerberized HBase is needed, since the check runs before any HBase connection or Spark start. The
 * CLI runs in-process; UserGroupInformation's JVM-wide login is reset after each test.
 */
@Tag("unit")
class KerberosPreflightTest {
  // a password-like property in the client config: nothing rekey prints may carry its value
  private static final String SECRET = "s3cr3t-Tls-Pa55word-9f1c";

  @TempDir static Path dir;
  private static MiniKdc kdc;
  private static String principal;
  private static Path keytab;
  private static Path site;
  private static int zkPort;

  private final StringWriter log = new StringWriter();
  private final List<CliRun> runs = new ArrayList<>();

  @BeforeAll
  static void startKdc() throws Exception {
    Properties conf = MiniKdc.createConf();
    kdc = new MiniKdc(conf, Files.createDirectories(dir.resolve("kdc")).toFile());
    kdc.start();
    keytab = dir.resolve("rekey.keytab");
    kdc.createPrincipal(keytab.toFile(), "rekey");
    principal = "rekey@" + kdc.getRealm();
    try (ServerSocket s = new ServerSocket(0)) {
      zkPort = s.getLocalPort(); // nothing listens once closed: connecting fails at once
    }
    site = dir.resolve("hbase-site.xml");
    Files.writeString(
        site,
        "<configuration>\n"
            + prop("hbase.security.authentication", "kerberos")
            + prop("hadoop.security.authentication", "kerberos")
            + prop("hbase.master.kerberos.principal", "hbase/_HOST@" + kdc.getRealm())
            + prop("hbase.regionserver.kerberos.principal", "hbase/_HOST@" + kdc.getRealm())
            + prop("hbase.zookeeper.quorum", "127.0.0.1")
            + prop("hbase.zookeeper.property.clientPort", "" + zkPort)
            + prop("zookeeper.recovery.retry", "0")
            + prop("zookeeper.session.timeout", "2000")
            + prop("hbase.client.retries.number", "1")
            + prop("hbase.rpc.timeout", "2000")
            + prop("hbase.client.operation.timeout", "4000")
            + prop("hbase.rpc.tls.keystore.password", SECRET)
            + "</configuration>\n");
  }

  private static String prop(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  @AfterAll
  static void stopKdc() {
    if (kdc != null) {
      kdc.stop();
    }
  }

  private Level rootLevel;

  @BeforeEach
  void rememberLogLevel() {
    rootLevel = LogManager.getRootLogger().getLevel();
  }

  @AfterEach
  void resetLogin() {
    UserGroupInformation.reset(); // the pre-flight's login is JVM-wide; the next test starts clean
    Configurator.setRootLevel(rootLevel); // --verbose raised it
  }

  /** Runs the CLI and records what it printed and what was logged meanwhile (all levels). */
  private CliRun run(String... args) {
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    WriterAppender capture =
        WriterAppender.createAppender(
            PatternLayout.newBuilder().withPattern("%p %c %m%n%throwable").build(),
            null,
            log,
            "kerberos-test-capture",
            false,
            true);
    capture.start();
    ctx.getConfiguration().getRootLogger().addAppender(capture, Level.ALL, null);
    ctx.updateLoggers();
    try {
      CliRun r = CliRun.of(args);
      runs.add(r);
      return r;
    } finally {
      ctx.getConfiguration().getRootLogger().removeAppender("kerberos-test-capture");
      ctx.updateLoggers();
      capture.stop();
    }
  }

  private static String[] backfill(String... more) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "backfill",
                "--hbase-site",
                site.toString(),
                "--source-snapshot",
                "s",
                "--source-layout",
                "telemetry-v1",
                "--target-table",
                "t",
                "--target-layout",
                "telemetry-v2"));
    a.addAll(List.of(more));
    return a.toArray(new String[0]);
  }

  private static String[] get(String... more) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "get", "--hbase-site", site.toString(), "--table", "t", "--layout", "events-v2"));
    a.addAll(List.of(more));
    a.addAll(List.of("userId=alice", "ts=1700000000000"));
    return a.toArray(new String[0]);
  }

  private static void assumeNoTicketCache() {
    long uid = new com.sun.security.auth.module.UnixSystem().getUid();
    assumeTrue(
        System.getenv("KRB5CCNAME") == null && !Files.exists(Path.of("/tmp/krb5cc_" + uid)),
        "a Kerberos ticket cache exists on this machine: the no-ticket case cannot be shown here");
  }

  @Test
  void noTicketAndNoKeytabFailsWithTheFixBeforeSparkStarts() {
    assumeNoTicketCache();
    for (String[] args : List.of(backfill(), get())) {
      CliRun r = run(args);
      assertEquals(2, r.code(), r.err());
      String last = r.err().strip().lines().reduce((a, b) -> b).orElse("");
      assertTrue(last.startsWith("Error: Cannot connect to HBase: " + site), last);
      assertTrue(last.contains("no Kerberos ticket"), last);
      assertTrue(last.contains("kinit PRINCIPAL"), last);
      assertTrue(last.contains("--principal PRINCIPAL --keytab FILE"), last);
      // the next step of a job command is the Spark submission: it was never reached
      assertFalse(r.err().contains("Cannot submit"), r.err());
    }
  }

  /**
   * What kinit leaves behind, in a fresh JVM whose KRB5CCNAME names the ticket cache (one JVM: a
   * start costs seconds; the no-ticket case runs in-process above).
   */
  @Test
  void aKinitTicketPassesThePreflight() throws Exception {
    KrbClient client = new KrbClient(kdc.getKrb5conf().getParentFile());
    client.setKdcRealm(kdc.getRealm());
    client.setKdcHost(kdc.getHost());
    client.setKdcTcpPort(kdc.getPort());
    client.setAllowUdp(false);
    client.init();
    Path cache = dir.resolve("krb5cc_rekey");
    client.storeTicket(client.requestTgt(principal, keytab.toFile()), cache.toFile()); // kinit -kt

    RekeyProcess.Result r = inFreshJvm(cache, backfill());
    assertTrue(
        r.stderr()
            .contains("Kerberos: using the ticket of " + principal + " from the ticket cache."),
        r.all());
    assertTrue(r.stderr().contains("Cannot submit"), r.all()); // went on to the Spark submission
    assertNoSecrets(r.all());
  }

  /** The CLI in its own JVM (the test's classpath and module flags), pointed at this KDC. */
  private static RekeyProcess.Result inFreshJvm(Path ticketCache, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-") || a.startsWith("-XX:+IgnoreUnrecognized")) {
        cmd.add(a);
      }
    }
    cmd.add("-XX:TieredStopAtLevel=1"); // a short run: start-up matters, not peak speed
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Djava.security.krb5.conf=" + kdc.getKrb5conf());
    cmd.add("-Drekey.home=" + System.getProperty("rekey.home"));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Rekey.class.getName());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("KRB5CCNAME", "FILE:" + ticketCache);
    return RekeyProcess.run(pb, 120);
  }

  @Test
  void aKeytabWhosePrincipalIsWrongFailsNamingThePrincipal() {
    String wrong = "nobody@" + kdc.getRealm();
    CliRun r = run(backfill("--principal", wrong, "--keytab", keytab.toString()));
    assertEquals(2, r.code(), r.err());
    assertTrue(
        r.err().contains("Error: Cannot log in to Kerberos as " + wrong + " with keytab " + keytab),
        r.err());
    assertTrue(r.err().contains("The keytab holds " + principal + ", not " + wrong), r.err());
    assertFalse(r.err().contains("Cannot submit"), r.err());
  }

  @Test
  void aMissingKeytabOrAPrincipalAloneIsRefused() {
    Path missing = dir.resolve("no-such.keytab");
    CliRun r = run(backfill("--principal", principal, "--keytab", missing.toString()));
    assertEquals(2, r.code(), r.err());
    assertTrue(
        r.err().contains("Cannot log in to Kerberos as " + principal + ": keytab " + missing),
        r.err());
    assertTrue(r.err().contains("does not exist"), r.err());

    r = run(backfill("--principal", principal));
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("--principal and --keytab go together"), r.err());
  }

  @Test
  void aGoodKeytabLogsInAndTheCommandGoesOnToConnect() throws IOException {
    CliRun r = run(get("--principal", principal, "--keytab", keytab.toString()));
    assertTrue(
        r.err().contains("Kerberos: logged in as " + principal + " from keytab " + keytab + "."),
        r.err());
    UserGroupInformation login = UserGroupInformation.getLoginUser();
    assertEquals(principal, login.getUserName());
    assertTrue(login.isFromKeytab());
    // past the pre-flight the command reached HBase (nothing listens there), not a Kerberos refusal
    assertNotEquals(0, r.code(), r.err());
    assertFalse(r.err().contains("Kerberos as"), r.err());
    assertFalse(r.err().contains("no Kerberos ticket"), r.err());
    assertTrue(r.err().contains("ConnectionLoss"), r.err()); // from ZooKeeper, at zkPort

    // a job command goes on to the Spark submission (which the test JVM, not a jar, cannot make)
    UserGroupInformation.reset();
    r = run(backfill("--principal", principal, "--keytab", keytab.toString()));
    assertTrue(r.err().contains("Kerberos: logged in as " + principal), r.err());
    assertTrue(r.err().contains("Cannot submit: rekey is not running from its jar"), r.err());
  }

  @Test
  void theClientKeytabSettingsLogInAndHBaseKerberosNeedsHadoopKerberos() throws IOException {
    String conf = Files.readString(site);
    Path withKeytab = dir.resolve("hbase-site-keytab.xml");
    Files.writeString(
        withKeytab,
        conf.replace(
            "</configuration>",
            prop("hbase.client.keytab.file", keytab.toString())
                + prop("hbase.client.keytab.principal", principal)
                + "</configuration>"));
    String[] withKeytabArgs = backfill();
    withKeytabArgs[2] = withKeytab.toString(); // in place of the test's site
    CliRun r = run(withKeytabArgs); // a job command: the next step is the submission, no waiting
    assertTrue(
        r.err().contains("Kerberos: logged in as " + principal + " from keytab " + keytab + "."),
        r.err());

    UserGroupInformation.reset();
    Path hbaseOnly = dir.resolve("hbase-site-hbase-only.xml");
    Files.writeString(
        hbaseOnly, conf.replace(prop("hadoop.security.authentication", "kerberos"), ""));
    String[] args = backfill();
    args[2] = hbaseOnly.toString(); // in place of the test's site
    r = run(args);
    assertEquals(2, r.code(), r.err());
    assertTrue(
        r.err()
            .contains(
                "sets hbase.security.authentication=kerberos but hadoop.security.authentication="
                    + "simple"),
        r.err());
  }

  @Test
  void onYarnTheHBaseTokenMustBeObtainable() {
    CliRun r =
        run(
            backfill(
                "--principal",
                principal,
                "--keytab",
                keytab.toString(),
                "--master",
                "yarn",
                "--conf",
                "spark.security.credentials.hbase.enabled=false"));
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("spark.security.credentials.hbase.enabled=false"), r.err());

    // the test classpath holds no hbase-site.xml: Spark would ask no HBase (the default one) for
    // no token, so the submission carries the keys that differ; the line names them, no value
    UserGroupInformation.reset();
    List<String> yarn =
        new ArrayList<>(
            List.of("--principal", principal, "--keytab", keytab.toString(), "--master", "yarn"));
    r = run(backfill(yarn.toArray(new String[0])));
    assertTrue(
        r.err()
            .contains(
                "differs from "
                    + site
                    + " in hbase.security.authentication, hbase.zookeeper.property.clientPort, "
                    + "hbase.master.kerberos.principal, hbase.regionserver.kerberos.principal: "
                    + "passing them to spark-submit as --conf spark.hadoop.KEY=VALUE."),
        r.err());
    assertFalse(r.err().contains("" + zkPort), "names keys, not values: " + r.err());
    assertTrue(
        r.err().contains("Kerberos on yarn: Spark gets the HBase delegation token"), r.err());
    assertTrue(r.err().contains("Cannot submit"), r.err());

    // given to Spark as spark.hadoop.* already, nothing is added
    org.apache.hadoop.conf.Configuration conf = dev.rekey.common.HBaseConfigs.load(site);
    for (String k : KerberosPreflight.TOKEN_FETCH_KEYS) {
      if (conf.get(k) != null) {
        yarn.addAll(List.of("--conf", "spark.hadoop." + k + "=" + conf.get(k)));
      }
    }
    UserGroupInformation.reset();
    r = run(backfill(yarn.toArray(new String[0])));
    assertFalse(r.err().contains("passing them"), r.err());
    assertTrue(
        r.err().contains("Kerberos on yarn: Spark gets the HBase delegation token"), r.err());
    assertTrue(r.err().contains("Cannot submit"), r.err());
  }

  @Test
  void noRunPrintsOrLogsTheKeytabOrThePassword() throws Exception {
    Configurator.setRootLevel(Level.ALL); // everything Hadoop and Kerby log, captured
    run(get("--verbose", "--principal", principal, "--keytab", keytab.toString()));
    UserGroupInformation.reset();
    run(
        backfill(
            "--verbose", "--principal", "nobody@" + kdc.getRealm(), "--keytab", keytab.toString()));
    UserGroupInformation.reset();
    run("check-config", "--conf", site.toString(), "--verbose");
    UserGroupInformation.reset();
    if (System.getenv("KRB5CCNAME") == null) {
      run(backfill("--verbose"));
    }
    assertTrue(
        log.toString().contains(principal), "the log capture works (the login is logged):\n" + log);

    StringBuilder all = new StringBuilder(log.toString());
    for (CliRun r : runs) {
      all.append(r.out()).append(r.err());
    }
    assertNoSecrets(all.toString());
  }

  /**
   * The keytab (whole, and each key: hex, base64, raw) and the config's password are not in text.
   */
  private static void assertNoSecrets(String text) throws IOException {
    byte[] bytes = Files.readAllBytes(keytab);
    List<String> secrets = new ArrayList<>(List.of(SECRET));
    secrets.add(Base64.getEncoder().encodeToString(bytes));
    secrets.add(HexFormat.of().formatHex(bytes));
    Keytab kt = Keytab.loadKeytab(keytab.toFile());
    for (PrincipalName p : kt.getPrincipals()) {
      for (KeytabEntry e : kt.getKeytabEntries(p)) {
        byte[] key = e.getKey().getKeyData();
        secrets.add(HexFormat.of().formatHex(key));
        secrets.add(HexFormat.of().withUpperCase().formatHex(key));
        secrets.add(Base64.getEncoder().encodeToString(key));
        secrets.add(new String(key, StandardCharsets.ISO_8859_1));
      }
    }
    assertTrue(secrets.size() > 3, "the keytab holds keys");
    for (String s : secrets) {
      assertFalse(text.contains(s), "a secret was printed or logged");
    }
  }
}
