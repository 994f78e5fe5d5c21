package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.SplitChoice;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.embedded.KerberosRealm;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.TableContents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The kerberized pseudo-distributed stack ({@code rekey cluster start --kerberos}) as a user of a
 * secured production cluster meets it: an admin principal creates the tables and grants the job
 * user exactly what the jobs' pre-flight asks for; backfill (snapshot read through HBase's HDFS
 * ACLs, HFiles, secure bulk load), a nightly scan with a report and a reconcile run on YARN as the
 * job user ({@code --principal/--keytab}, client and cluster deploy mode); an independent client
 * logged in as the admin finds the old and new tables equal by natural key; what is refused is
 * refused in one line with its exit code; and nothing the jobs wrote holds a secret. Tier {@code
 * kerberos}: run it with {@code mvn -pl spark-jobs verify -Dgroups=kerberos
 * -Dit.test=KerberizedClusterIT}.
 */
@Tag("kerberos")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KerberizedClusterIT {
  private static final int ROWS = 5000;
  private static final TableName OLD = TableName.valueOf("telemetry_v1");
  private static final TableName NEW = TableName.valueOf("telemetry_v2");
  private static final String SNAPSHOT = "telemetry_v1_snap";
  private static final Path DIR = ClusterTier.DIR;
  private static final Path LOGS = DIR.resolve("it-kerberos");
  private static PseudoCluster cluster;
  private static KerberosRealm.Kerberized realm;
  private static Configuration conf;
  private static UserGroupInformation admin;

  @BeforeAll
  static void start() throws Exception {
    cluster = new PseudoCluster(DIR, System.out::println);
    if (cluster.status().stream().noneMatch(s -> s.pid().isPresent())) {
      try (Stream<Path> walk = Files.walk(DIR)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (java.nio.file.NoSuchFileException e) {
        // first run
      }
    }
    ClusterTier.rekey("cluster", "start", "--kerberos");
    realm = cluster.kerberos().orElseThrow();
    Files.createDirectories(LOGS);
    // this JVM is the independent client: it logs in as the admin from the realm's krb5.conf
    System.setProperty("java.security.krb5.conf", realm.krb5Conf().toString());
    conf = HBaseConfigs.load(cluster.clientSite());
    UserGroupInformation.setConfiguration(conf);
    admin =
        UserGroupInformation.loginUserFromKeytabAndReturnUGI(
            realm.adminPrincipal(), realm.adminKeytab().toString());
  }

  @AfterAll
  static void stop() throws Exception {
    ClusterTier.rekey("cluster", "stop");
  }

  private static Connection adminConnection() throws Exception {
    return ConnectionFactory.createConnection(conf, User.create(admin));
  }

  /** bin/rekey ARGS as a user of the stack's gateway: its Hadoop config, Spark home and realm. */
  private static RekeyProcess.Result rekey(String name, List<String> args) throws Exception {
    ProcessBuilder pb = RekeyProcess.builder(args.toArray(new String[0]));
    pb.environment().put("KRB5_CONFIG", realm.krb5Conf().toString());
    pb.environment().put("HADOOP_CONF_DIR", cluster.hadoopConfDir().toString());
    pb.environment().put("YARN_CONF_DIR", cluster.hadoopConfDir().toString());
    pb.environment().put("SPARK_HOME", DIR.resolve("spark/spark-home").toString());
    pb.environment().remove("KRB5CCNAME");
    RekeyProcess.Result r = RekeyProcess.run(pb, 900);
    Files.writeString(LOGS.resolve(name + ".log"), r.all());
    System.out.println(r.all());
    return r;
  }

  private static List<String> asJobUser(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(
        List.of(
            "--hbase-site",
            cluster.clientSite().toString(),
            "--principal",
            realm.jobPrincipal(),
            "--keytab",
            realm.jobKeytab().toString()));
    return a;
  }

  private static List<String> onYarn(List<String> args, boolean clusterMode) {
    List<String> a = new ArrayList<>(args);
    String jar = SharedHBase.sparkJar().toString();
    a.addAll(List.of("--master", "yarn"));
    if (clusterMode) {
      a.addAll(
          List.of(
              "--conf", "spark.submit.deployMode=cluster",
              "--conf", "spark.yarn.maxAppAttempts=1",
              "--conf", "spark.driver.extraClassPath=__app__.jar",
              "--conf", "spark.executor.extraClassPath=__app__.jar"));
    } else {
      // one machine: the executors find the jar at its path (HBase's metrics classes must come from
      // the JVM's class path, README)
      a.addAll(List.of("--conf", "spark.executor.extraClassPath=" + jar));
    }
    return a;
  }

  private static List<String> backfill() {
    return asJobUser(
        "backfill",
        "--source-snapshot",
        SNAPSHOT,
        "--source-layout",
        "telemetry-v1",
        "--target-table",
        NEW.getNameAsString(),
        "--target-layout",
        "telemetry-v2",
        "--staging",
        "hdfs:///user/rekey/staging");
  }

  @Test
  @Order(1)
  void statusNamesTheRealmsKrb5ConfAndTheJobAndAdminPrincipals() throws Exception {
    RekeyProcess.Result r = RekeyProcess.run(120, "cluster", "status");
    assertEquals(0, r.exitCode(), r.all());
    assertTrue(r.stdout().contains("krb5.conf: " + realm.krb5Conf()), r.stdout());
    assertTrue(
        r.stdout()
            .contains(
                "job principal: rekey@REKEY.TEST keytab: " + DIR.resolve("keytabs/rekey.keytab")),
        r.stdout());
    assertTrue(
        r.stdout()
            .contains(
                "admin principal: admin@REKEY.TEST keytab: " + DIR.resolve("keytabs/admin.keytab")),
        r.stdout());
    assertTrue(
        r.stdout().lines().anyMatch(l -> l.matches("kdc\\s+\\d+\\s+\\d+\\s+.*")), r.stdout());
  }

  /** The admin writes the legacy table, snapshots it and creates the salted target: no grants. */
  @Test
  @Order(2)
  void theAdminCreatesTheTablesAndTheJobUserWithoutRightsIsRefusedBeforeAnyRead() throws Exception {
    try (Connection conn = adminConnection();
        Admin a = conn.getAdmin()) {
      ClusterTier.dropIfPresent(a, List.of(OLD, NEW));
      for (var s : a.listSnapshots()) {
        a.deleteSnapshot(s.getName());
      }
      LegacyTelemetryTable.create(a, OLD);
      aclSyncToHdfs(a, OLD);
      LegacyTelemetryTable.write(conn, OLD, TelemetryGenerator.oneDay(ROWS, 20), s -> {});
      a.flush(OLD);
      a.snapshot(SNAPSHOT, OLD);
      TableCreator.table(NEW)
          .families(List.of(FamilySpec.parse("d")))
          .splitPoints(SplitChoice.choose(Layouts.shipped("telemetry-v2"), 16, "salt"))
          .create(a);
      aclSyncToHdfs(a, NEW);
    }
    long apps = yarnApplications();
    RekeyProcess.Result r = rekey("refused-no-rights", onYarn(backfill(), false));
    assertEquals(2, r.exitCode(), r.all());
    assertTrue(
        r.stderr()
            .contains(
                "Cannot read snapshot telemetry_v1_snap as rekey: HBase gives a user its files with"
                    + " READ on the snapshot's table"),
        r.all());
    assertEquals(apps, yarnApplications(), "refused before any YARN application");
    assertFalse(r.all().contains("GSSException"), r.all());

    grant(OLD, Permission.Action.READ);
    r = rekey("refused-no-target-rights", onYarn(backfill(), false));
    assertEquals(2, r.exitCode(), r.all());
    assertTrue(
        r.stderr()
            .contains(
                "Cannot run as rekey: it lacks READ and CREATE and ADMIN on table telemetry_v2,"
                    + " needed to bulk load HFiles into it and verify them (a snapshot of it). An"
                    + " HBase admin adds it with: grant 'rekey', 'RCA', 'telemetry_v2'"),
        r.all());
    assertEquals(apps, yarnApplications(), "refused before any YARN application");
  }

  @Test
  @Order(3)
  void noTicketAndAWrongKeytabAreRefusedInOneLine() throws Exception {
    List<String> noLogin =
        new ArrayList<>(
            List.of(
                "scan",
                "--hbase-site",
                cluster.clientSite().toString(),
                "--table",
                "telemetry_v1",
                "--layout",
                "telemetry-v1",
                "--day",
                "2026-11-29",
                "--report",
                "device_window_counts",
                "--out",
                "hdfs:///user/rekey/nightly-refused"));
    RekeyProcess.Result r = rekey("refused-no-ticket", onYarn(noLogin, false));
    assertEquals(2, r.exitCode(), r.all());
    assertTrue(r.stderr().contains("there is no Kerberos ticket"), r.all());
    assertTrue(r.stderr().contains("Run `kinit PRINCIPAL` first"), r.all());

    List<String> wrong = new ArrayList<>(noLogin);
    wrong.addAll(
        List.of("--principal", realm.jobPrincipal(), "--keytab", realm.adminKeytab().toString()));
    r = rekey("refused-wrong-keytab", onYarn(wrong, false));
    assertEquals(2, r.exitCode(), r.all());
    assertTrue(
        r.stderr().contains("The keytab holds admin@REKEY.TEST, not rekey@REKEY.TEST"), r.all());
    for (RekeyProcess.Result x : List.of(r)) {
      assertFalse(x.all().contains("\tat "), "no stack trace:\n" + x.all());
    }
  }

  @Test
  @Order(4)
  void backfillScanAndReconcileRunOnYarnAsTheJobUserAndTheTablesAreEqual() throws Exception {
    grant(NEW, Permission.Action.READ, Permission.Action.CREATE, Permission.Action.ADMIN);
    long apps = yarnApplications();
    RekeyProcess.Result b = rekey("backfill", onYarn(backfill(), false));
    assertEquals(0, b.exitCode(), b.all());
    assertTrue(b.all().contains("Kerberos: logged in as rekey@REKEY.TEST from keytab"), b.all());
    assertTrue(
        b.stdout().contains(String.format("read %,d = written %,d + quarantined 0", ROWS, ROWS)),
        b.all());
    assertTrue(b.stdout().contains("loaded=true verified=true"), b.all());
    assertEquals(apps + 1, yarnApplications(), "the backfill ran as a YARN application");

    RekeyProcess.Result s =
        rekey(
            "scan",
            onYarn(
                asJobUser(
                    "scan",
                    "--table",
                    NEW.getNameAsString(),
                    "--layout",
                    "telemetry-v2",
                    "--day",
                    "2026-11-29",
                    "--report",
                    "device_window_counts",
                    "--out",
                    "hdfs:///user/rekey/nightly"),
                false));
    assertEquals(0, s.exitCode(), s.all());
    assertTrue(s.stdout().contains("Scanned table telemetry_v2"), s.all());
    assertEquals(apps + 2, yarnApplications(), "the scan ran as a YARN application");

    Path report = LOGS.resolve("reconcile-report");
    RekeyProcess.Result c =
        rekey(
            "reconcile",
            onYarn(
                asJobUser(
                    "reconcile",
                    "--old-table",
                    OLD.getNameAsString(),
                    // files, not names: a cluster-mode driver resolves names in its container
                    "--old-layout",
                    Layouts.file("telemetry-v1").toString(),
                    "--new-table",
                    NEW.getNameAsString(),
                    "--new-layout",
                    Layouts.file("telemetry-v2").toString(),
                    "--bucket",
                    "1h",
                    "--from",
                    "2026-11-29T00:00:00Z",
                    "--to",
                    "2026-11-30T00:00:00Z",
                    "--out",
                    "hdfs:///user/rekey/reconcile"),
                true));
    assertEquals(0, c.exitCode(), c.all());
    assertEquals(apps + 3, yarnApplications(), "reconcile ran as a YARN application");

    // an independent client, logged in as the admin: every cell and version, by natural key
    try (Connection conn = adminConnection()) {
      Map<String, List<String>> old =
          TableContents.byNaturalKey(conn, OLD, Layouts.shipped("telemetry-v1"));
      assertEquals(ROWS, old.size());
      assertEquals(old, TableContents.byNaturalKey(conn, NEW, Layouts.shipped("telemetry-v2")));
    }
    Files.deleteIfExists(report);
  }

  /**
   * Every file the jobs wrote here (console, the stack's and YARN's logs, the reports on HDFS
   * fetched by the admin) holds no keytab bytes, no key, no token, no keystore password.
   */
  @Test
  @Order(5)
  void nothingTheJobsWroteHoldsASecret() throws Exception {
    List<byte[]> secrets = new ArrayList<>();
    for (Path keytab : List.of(realm.jobKeytab(), realm.adminKeytab())) {
      byte[] k = Files.readAllBytes(keytab);
      // the keytab's key material: any 16 bytes of it after its header, raw, hex or base64
      for (int i = 16; i + 16 <= k.length; i += 16) {
        byte[] part = java.util.Arrays.copyOfRange(k, i, i + 16);
        secrets.add(HexFormat.of().formatHex(part).getBytes(StandardCharsets.US_ASCII));
        secrets.add(Base64.getEncoder().encode(part));
        secrets.add(part);
      }
    }
    String ssl = Files.readString(DIR.resolve("conf/hadoop/ssl-server.xml"));
    String password =
        ssl.replaceAll("(?s).*<name>ssl.server.keystore.password</name><value>([^<]+)<.*", "$1");
    assertEquals(32, password.length(), "the keystore's password was found in ssl-server.xml");
    secrets.add(password.getBytes(StandardCharsets.US_ASCII));
    List<Path> written = new ArrayList<>();
    for (Path root : List.of(LOGS, DIR.resolve("logs"), DIR.resolve("spark/work"))) {
      if (Files.exists(root)) {
        try (Stream<Path> w = Files.walk(root)) {
          w.filter(Files::isRegularFile).forEach(written::add);
        }
      }
    }
    assertTrue(written.size() > 10, "the search covers the jobs' files: " + written.size());
    List<String> found = new ArrayList<>();
    for (Path f : written) {
      byte[] bytes = Files.readAllBytes(f);
      String text = new String(bytes, StandardCharsets.ISO_8859_1);
      for (byte[] s : secrets) {
        if (text.contains(new String(s, StandardCharsets.ISO_8859_1))) {
          found.add(f + " holds a secret");
        }
      }
      if (text.contains("HBASE_AUTH_TOKEN")
          && text.matches("(?s).*HBASE_AUTH_TOKEN[^\\n]{0,40}[A-Za-z0-9+/=_-]{40,}.*")) {
        found.add(f + " holds a token's bytes");
      }
    }
    assertEquals(List.of(), found);
  }

  /** The applications YARN ran here: one container log directory each. */
  private static long yarnApplications() throws Exception {
    Path logs = DIR.resolve("logs/containers");
    try (Stream<Path> l = Files.list(logs)) {
      return l.filter(p -> p.getFileName().toString().startsWith("application_")).count();
    }
  }

  private static void aclSyncToHdfs(Admin a, TableName t) throws Exception {
    // HBase grants a table's READ users its files (snapshots included) through HDFS ACLs only on
    // tables that say so
    a.modifyTable(
        TableDescriptorBuilder.newBuilder(a.getDescriptor(t))
            .setValue("hbase.acl.sync.to.hdfs.enable", "true")
            .build());
  }

  private static void grant(TableName t, Permission.Action... actions) throws Exception {
    try (Connection conn = adminConnection()) {
      AccessControlClient.grant(conn, t, KerberosRealm.JOB_USER, null, null, actions);
    } catch (Throwable e) {
      throw new AssertionError("the admin's grant on " + t + " failed", e);
    }
  }
}
