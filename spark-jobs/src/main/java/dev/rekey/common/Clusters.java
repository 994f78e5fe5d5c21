package dev.rekey.common;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * The HBase clusters of a job that reads one table and writes or compares another: the old table's
 * (a backfill's source) and the new table's (its target). Usually one cluster for both; a re-key
 * that moves to a new cluster gives each side its own client configuration ({@code
 * --old-hbase-site} / {@code --new-hbase-site}, their {@link ClusterSite}s).
 */
public record Clusters(Configuration old, Configuration neu) {
  public Clusters {
    if (old == null || neu == null) {
      throw new IllegalArgumentException("both clusters' configurations are needed");
    }
  }

  /** Both sides on one cluster. */
  public static Clusters one(Configuration conf) {
    return new Clusters(conf, conf);
  }

  /** True when the sides are on different clusters (their configurations differ in address). */
  public boolean separate() {
    return old != neu && !ClusterAddress.of(old).equals(ClusterAddress.of(neu));
  }

  /** The side's configuration: {@code true} for the old (source) side. */
  public Configuration side(boolean oldSide) {
    return oldSide ? old : neu;
  }

  /**
   * Where a cluster is, for messages and for telling two apart: its ZooKeeper quorum, client port
   * and znode, and its HBase root dir (no secret is in these).
   */
  public record ClusterAddress(String zookeeper, String rootDir) {
    public static ClusterAddress of(Configuration conf) {
      return new ClusterAddress(
          String.format(
              "%s:%s%s",
              conf.get("hbase.zookeeper.quorum", "localhost"),
              conf.get("hbase.zookeeper.property.clientPort", "2181"),
              conf.get("zookeeper.znode.parent", "/hbase")),
          conf.get("hbase.rootdir", "(hbase.rootdir unset)"));
    }

    @Override
    public String toString() {
      return String.format("ZooKeeper %s, hbase.rootdir %s", zookeeper, rootDir);
    }
  }

  /**
   * The HBase root dir of a cluster and its filesystem, reached now: a cluster whose filesystem is
   * unreachable is named (which side, which root dir) instead of surfacing later as a Spark task
   * failure.
   */
  public static FileSystem rootFileSystem(Configuration conf, String side) {
    Path root;
    try {
      root = CommonFSUtils.getRootDir(conf);
    } catch (IOException | RuntimeException e) {
      throw RekeyException.usage(
          "Cannot read the %s's HBase root dir: hbase.rootdir is not set or not valid in its"
              + " client configuration (%s); set it there (the cluster's own value)",
          side, RekeyException.oneLine(e));
    }
    try {
      FileSystem fs = root.getFileSystem(conf);
      fs.getFileStatus(root);
      return fs;
    } catch (IOException | RuntimeException e) {
      throw RekeyException.cannot(
          e,
          "Cannot reach the %s's filesystem: hbase.rootdir %s cannot be read from here (%s). Check"
              + " that its NameNode (or object store) is reachable from this host and from every"
              + " Spark executor, and that this user may read it",
          side,
          root,
          RekeyException.oneLine(e));
    }
  }
}
