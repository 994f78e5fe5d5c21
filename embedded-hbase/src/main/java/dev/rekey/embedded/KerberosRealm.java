package dev.rekey.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The test realm of a kerberized development stack: its name, the principals of every service on
 * every host and the keytab each is exported to, the job user's and the admin's principals. Pure
 * naming, no KDC: {@link KdcDaemon} creates what this lists, the site files name it.
 *
 * <p>Service principals are {@code SERVICE/HOST@REALM}, one set per host the stack runs daemons on:
 * {@code hdfs} (NameNode and DataNodes), {@code HTTP} (SPNEGO of the daemons' web servers), {@code
 * hbase} (master and RegionServers), {@code yarn} (ResourceManager and NodeManagers). The
 * single-host stack has one host, {@code localhost}: the name every daemon there is addressed by
 * under Kerberos (a service principal names a host, never an address; 127.0.0.1 resolves to it
 * first in /etc/hosts). A stack on several hosts lists each host and keeps each host's keytabs in
 * its own directory, as each node of a real cluster holds only its own.
 *
 * <p>{@code rekey} is the job user (short name {@code rekey}: its HDFS home, its HBase grants);
 * {@code admin} is HBase's superuser ({@code hbase.superuser}) who creates tables and grants.
 */
public record KerberosRealm(String realm, Path keytabDir, List<String> hosts) {
  /** MiniKdc's realm is ORG.DOMAIN upper-cased. */
  static final String ORG = "REKEY";

  static final String DOMAIN = "TEST";
  public static final String DEFAULT_REALM = ORG + "." + DOMAIN;
  static final List<String> SERVICES = List.of("hdfs", "HTTP", "hbase", "yarn");
  public static final String JOB_USER = "rekey";
  public static final String ADMIN_USER = "admin";

  /** Where a stack keeps what {@link #write} records, for {@code status} and later commands. */
  static final String FILE = "kerberos.properties";

  /** The single-host stack's realm: one host, {@code localhost}; keytabs in {@code dir/keytabs}. */
  static KerberosRealm singleHost(Path stackDir) {
    return new KerberosRealm(DEFAULT_REALM, stackDir.resolve("keytabs"), List.of("localhost"));
  }

  /** {@code SERVICE/_HOST@REALM}: what site files name, each daemon putting in its own host. */
  String servicePattern(String service) {
    return service + "/_HOST@" + realm;
  }

  /** The keytab of {@code service} on {@code host}. */
  Path serviceKeytab(String service, String host) {
    Path d = hosts.size() == 1 ? keytabDir : keytabDir.resolve(host);
    return d.resolve(service.toLowerCase(java.util.Locale.ROOT) + ".keytab");
  }

  /** The keytab of the one host of a single-host stack. */
  Path serviceKeytab(String service) {
    return serviceKeytab(service, hosts.get(0));
  }

  public String jobPrincipal() {
    return JOB_USER + "@" + realm;
  }

  public Path jobKeytab() {
    return keytabDir.resolve(JOB_USER + ".keytab");
  }

  public String adminPrincipal() {
    return ADMIN_USER + "@" + realm;
  }

  public Path adminKeytab() {
    return keytabDir.resolve(ADMIN_USER + ".keytab");
  }

  /**
   * What the KDC creates: each keytab with the principals exported to it (without the realm). A
   * principal is in exactly one keytab: exporting creates its keys.
   */
  Map<Path, List<String>> keytabs() {
    Map<Path, List<String>> m = new LinkedHashMap<>();
    for (String host : hosts) {
      for (String service : SERVICES) {
        m.put(serviceKeytab(service, host), List.of(service + "/" + host));
      }
    }
    m.put(jobKeytab(), List.of(JOB_USER));
    m.put(adminKeytab(), List.of(ADMIN_USER));
    return m;
  }

  /** The KDC daemon's arguments for these keytabs: {@code FILE=principal,principal ...}. */
  List<String> keytabArgs() {
    List<String> args = new ArrayList<>();
    keytabs().forEach((k, ps) -> args.add(k + "=" + String.join(",", ps)));
    return args;
  }

  /** Records the realm, its krb5.conf and the job's and admin's principals (names and paths). */
  void write(Path stackDir, Path krb5Conf) throws IOException {
    Properties p = new Properties();
    p.setProperty("realm", realm);
    p.setProperty("krb5.conf", krb5Conf.toString());
    p.setProperty("job.principal", jobPrincipal());
    p.setProperty("job.keytab", jobKeytab().toString());
    p.setProperty("admin.principal", adminPrincipal());
    p.setProperty("admin.keytab", adminKeytab().toString());
    try (var w = Files.newBufferedWriter(stackDir.resolve(FILE))) {
      p.store(w, "the realm of the kerberized rekey stack (names and paths, never keys)");
    }
  }

  /** The realm a stack directory was started with, if it was kerberized. */
  public static Optional<Kerberized> of(Path stackDir) {
    Path f = stackDir.resolve(FILE);
    if (!Files.exists(f)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(f)) {
      p.load(in);
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.of(
        new Kerberized(
            p.getProperty("realm"),
            Path.of(p.getProperty("krb5.conf")),
            p.getProperty("job.principal"),
            Path.of(p.getProperty("job.keytab")),
            p.getProperty("admin.principal"),
            Path.of(p.getProperty("admin.keytab"))));
  }

  /** What {@code cluster status} prints of a kerberized stack, and what tests log in with. */
  public record Kerberized(
      String realm,
      Path krb5Conf,
      String jobPrincipal,
      Path jobKeytab,
      String adminPrincipal,
      Path adminKeytab) {}
}
