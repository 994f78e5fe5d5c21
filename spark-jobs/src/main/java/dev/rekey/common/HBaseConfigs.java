package dev.rekey.common;

import dev.rekey.home.RekeyHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * Where a command's HBase client configuration comes from: {@code --hbase-site FILE}, else {@code
 * $HBASE_CONF_DIR/hbase-site.xml}, else the embedded server's client config in the run directory.
 */
public final class HBaseConfigs {
  private HBaseConfigs() {}

  /** Resolves the hbase-site.xml to use; fails with the next step when there is none. */
  public static Path resolveSite(Path explicit) {
    if (explicit != null) {
      if (!Files.isRegularFile(explicit)) {
        throw RekeyException.usage(
            "Cannot read HBase configuration "
                + explicit
                + ": no such file (pass the cluster's hbase-site.xml with --hbase-site)");
      }
      return explicit;
    }
    String confDir = System.getenv("HBASE_CONF_DIR");
    if (confDir != null && Files.isRegularFile(Path.of(confDir, "hbase-site.xml"))) {
      return Path.of(confDir, "hbase-site.xml");
    }
    Path embedded = RekeyHome.embeddedClientSite();
    if (Files.isRegularFile(embedded)) {
      return embedded;
    }
    throw new RekeyException(
        "No HBase configuration: pass --hbase-site FILE (a cluster's hbase-site.xml), set "
            + "HBASE_CONF_DIR, or start the embedded server with `bin/rekey hbase start`.");
  }

  /**
   * The configuration with {@code site} on top, read at once so a malformed file fails here, named,
   * not later.
   */
  public static Configuration load(Path site) {
    // Hadoop's own parser logs a malformed file as an ERROR with a stack trace before throwing:
    // check it first
    checkWellFormed(site);
    Configuration conf = HBaseConfiguration.create();
    try {
      conf.addResource(new org.apache.hadoop.fs.Path(site.toUri()));
      conf.size(); // a Configuration not read yet parses its resources lazily, on the first read
    } catch (RuntimeException e) {
      throw notValid(site, rootMessage(e));
    }
    return conf;
  }

  private static void checkWellFormed(Path site) {
    try {
      javax.xml.parsers.DocumentBuilderFactory f =
          javax.xml.parsers.DocumentBuilderFactory.newInstance();
      f.setFeature(javax.xml.XMLConstants.FEATURE_SECURE_PROCESSING, true);
      javax.xml.parsers.DocumentBuilder b = f.newDocumentBuilder();
      b.setErrorHandler(
          new org.xml.sax.helpers.DefaultHandler() {
            @Override
            public void fatalError(org.xml.sax.SAXParseException e)
                throws org.xml.sax.SAXException {
              throw e; // the default handler also prints "[Fatal Error]" to stderr
            }
          });
      b.parse(site.toFile());
    } catch (org.xml.sax.SAXParseException e) {
      throw notValid(
          site,
          "line " + e.getLineNumber() + ", column " + e.getColumnNumber() + ": " + e.getMessage());
    } catch (org.xml.sax.SAXException
        | javax.xml.parsers.ParserConfigurationException
        | java.io.IOException e) {
      throw notValid(site, rootMessage(e));
    }
  }

  private static RekeyException notValid(Path site, String why) {
    return RekeyException.usage(
        "Cannot read HBase configuration %s: not a valid Hadoop configuration"
            + " file: %s (fix the XML, or pass the cluster's hbase-site.xml with"
            + " --hbase-site)",
        site, why);
  }

  /**
   * The innermost cause's message on one line: the parser's row and column, not a wrapped stack of
   * them.
   */
  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage() != null ? root.getMessage() : root.toString();
    return m.replaceAll("\\s*\\R\\s*", " ").strip();
  }

  /**
   * {@code conf} with the Spark conf's {@code spark.hadoop.*} settings set over it, as Spark builds
   * its own Hadoop configuration. Jobs hand their HBase configuration to their reads and writes on
   * the driver and the executors, so a {@code --conf spark.hadoop.KEY=VALUE} must reach it too —
   * e.g. bin/rekey's local filesystem that creates files without a chmod process each (a snapshot
   * restore of 16 regions took 1.2 s with the processes, 0.1 s without).
   */
  public static Configuration withSparkHadoop(
      Configuration conf, org.apache.spark.SparkConf spark) {
    for (scala.Tuple2<String, String> kv : spark.getAllWithPrefix("spark.hadoop.")) {
      conf.set(kv._1(), kv._2());
    }
    return conf;
  }

  /**
   * Settings that say which cluster a configuration reaches: a {@code spark.hadoop.*} copy of one
   * cluster's (e.g. the Kerberos pre-flight's, for Spark's token fetch) must not turn another
   * cluster's configuration into the first one's.
   */
  static final java.util.Set<String> CLUSTER_ADDRESS_KEYS = clusterAddressKeys();

  private static java.util.Set<String> clusterAddressKeys() {
    java.util.Set<String> keys =
        new java.util.HashSet<>(dev.rekey.replication.ReplicationSettings.CLUSTER_KEYS);
    keys.add("hbase.rootdir");
    keys.add("fs.defaultFS");
    return java.util.Set.copyOf(keys);
  }

  /**
   * {@link #withSparkHadoop} for a second cluster's configuration (the old cluster of a
   * cross-cluster job): the session's {@code spark.hadoop.*} settings over it, except those naming
   * a cluster, which stay the site's own.
   */
  public static Configuration otherClusterWithSparkHadoop(
      Configuration conf, org.apache.spark.SparkConf spark) {
    for (scala.Tuple2<String, String> kv : spark.getAllWithPrefix("spark.hadoop.")) {
      if (!CLUSTER_ADDRESS_KEYS.contains(kv._1())) {
        conf.set(kv._1(), kv._2());
      }
    }
    return conf;
  }

  /**
   * Every property as a plain map: what a Spark closure ships to executors to rebuild the
   * configuration.
   */
  public static Map<String, String> toMap(Configuration conf) {
    Map<String, String> m = new HashMap<>();
    conf.forEach(e -> m.put(e.getKey(), e.getValue()));
    return m;
  }

  /**
   * A configuration of {@code props} (a {@link #toMap} shipped to a task) over HBase's defaults.
   * The defaults are parsed once per JVM and copied for each call: every task calls this (its HFile
   * writers, its quarantine), and parsing core-default.xml, hbase-default.xml and the site files
   * again each time was about a tenth of a 1M-row backfill task's samples.
   */
  public static Configuration fromMap(Map<String, String> props) {
    Configuration conf = new Configuration(defaults());
    props.forEach(conf::set);
    return conf;
  }

  private static volatile Configuration defaults;

  /** HBaseConfiguration.create(), read once: never handed out, only copied. */
  private static Configuration defaults() {
    Configuration d = defaults;
    if (d == null) {
      d = HBaseConfiguration.create();
      d.size(); // parsed now, not by each copy
      defaults = d;
    }
    return d;
  }
}
