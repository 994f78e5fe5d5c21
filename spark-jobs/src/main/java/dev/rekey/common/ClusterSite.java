package dev.rekey.common;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;

/**
 * One cluster's HBase client configuration, named by its site file: parsed once, the first time it
 * is asked for (a command asks before Spark starts, so a missing or malformed file fails in a
 * second), then handed out as copies a caller may change.
 *
 * <p>A Spark job gets it with the session's {@code spark.hadoop.*} settings over it ({@link
 * #conf(SparkConf)}), as Spark builds its own Hadoop configuration: all of them over the command's
 * own cluster ({@code --hbase-site}); over another cluster's ({@code --old-hbase-site}, {@code
 * --new-hbase-site}) all but those that name a cluster, which stay the site's own.
 */
public final class ClusterSite {
  private final Path file;
  private final boolean other;
  private Configuration parsed;

  private ClusterSite(Path file, boolean other) {
    this.file = file;
    this.other = other;
  }

  /**
   * The command's own cluster: {@code file}, or when null {@code $HBASE_CONF_DIR/hbase-site.xml},
   * else the embedded server's ({@link HBaseConfigs#resolveSite}).
   */
  public static ClusterSite own(Path file) {
    return new ClusterSite(file, false);
  }

  /** Another cluster than the command's own, named by its site {@code file}. */
  public static ClusterSite other(Path file) {
    if (file == null) {
      throw new IllegalArgumentException("another cluster is named by its site file");
    }
    return new ClusterSite(file, true);
  }

  /** The file as named (null: the command's own cluster's default lookup). */
  public Path file() {
    return file;
  }

  /** The HBase client configuration of the site: a copy each call. */
  public Configuration conf() {
    if (parsed == null) {
      parsed = HBaseConfigs.load(HBaseConfigs.resolveSite(file));
    }
    // a copy takes the parsed properties instead of parsing the files again
    return new Configuration(parsed);
  }

  /** {@link #conf()} with {@code spark}'s {@code spark.hadoop.*} settings over it. */
  public Configuration conf(SparkConf spark) {
    return other
        ? HBaseConfigs.otherClusterWithSparkHadoop(conf(), spark)
        : HBaseConfigs.withSparkHadoop(conf(), spark);
  }

  @Override
  public String toString() {
    return file == null ? "the default HBase site" : file.toString();
  }
}
