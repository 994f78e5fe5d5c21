package dev.rekey.cli;

import dev.rekey.jobs.common.Clusters;
import dev.rekey.jobs.common.HBaseConfigs;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Option;

/**
 * The clusters of a command that compares an old table with a new one (picocli mixin): each side on
 * its own cluster when the migration moves to a new one, else both on --hbase-site's.
 */
final class SideSites implements OtherClusterKerberos.OtherSites {
  @Option(
      names = "--old-hbase-site",
      paramLabel = "FILE",
      description =
          "HBase client config of the old table's cluster, when it is not --hbase-site's (a"
              + " migration to a new cluster). Default: --hbase-site.")
  Path oldSite;

  @Option(
      names = "--new-hbase-site",
      paramLabel = "FILE",
      description =
          "HBase client config of the new table's cluster, when it is not --hbase-site's."
              + " Default: --hbase-site.")
  Path newSite;

  @Override
  public List<Path> otherHBaseSites() {
    return OtherClusterKerberos.nonNull(oldSite, newSite);
  }

  /** Each given site read now: a missing or malformed file fails before Spark starts. */
  void check() {
    for (Path site : new Path[] {oldSite, newSite}) {
      if (site != null) {
        HBaseConfigs.load(HBaseConfigs.resolveSite(site));
      }
    }
  }

  /** The sides' clusters as the job sees them ({@code spark.hadoop.*} settings over each). */
  Clusters clusters(SparkCommand<?> command, SparkSession spark) {
    return new Clusters(command.hbaseConf(spark, oldSite), command.hbaseConf(spark, newSite));
  }

  /** The new table's cluster without Spark (a replayed mutation file). */
  Configuration newCluster(GlobalOptions global) {
    return newSite == null
        ? global.hbaseConf()
        : HBaseConfigs.load(HBaseConfigs.resolveSite(newSite));
  }
}
