package dev.rekey.jobs.backfill.plan;

import dev.rekey.common.Clusters;
import dev.rekey.common.RekeyException;
import dev.rekey.read.SnapshotRegions;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.snapshot.SnapshotManifest;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * The backfill's source snapshot as its cluster's filesystem holds it: its description and the
 * table descriptor it recorded. Read from the files, with no connection to the source cluster: the
 * job reads the snapshot's files in place, so the source cluster's filesystem is all it needs of
 * that cluster (on another cluster, {@code --source-hbase-site}).
 */
record SourceSnapshot(SnapshotDescription description, TableDescriptor table) {

  /**
   * The completed snapshot {@code name} on the source cluster of {@code clusters}; a refusal that
   * names the cluster and its filesystem when either cannot be reached or holds no such snapshot.
   */
  static SourceSnapshot open(Clusters clusters, String name, String job) {
    String side = clusters.separate() ? "source cluster (--source-hbase-site)" : "cluster";
    FileSystem fs = Clusters.rootFileSystem(clusters.old(), side);
    try {
      SnapshotManifest manifest =
          SnapshotRegions.completedManifest(
              clusters.old(),
              fs,
              CommonFSUtils.getRootDir(clusters.old()),
              name,
              job,
              "snapshot " + name,
              clusters.separate()
                  ? String.format(
                      " on the source cluster (%s)", Clusters.ClusterAddress.of(clusters.old()))
                  : "");
      return new SourceSnapshot(
          ProtobufUtil.createSnapshotDesc(manifest.getSnapshotDescription()),
          manifest.getTableDescriptor());
    } catch (IOException e) {
      throw RekeyException.cannot(
          e,
          "Cannot %s: cannot read snapshot %s on the %s's filesystem (%s): %s",
          job,
          name,
          side,
          Clusters.ClusterAddress.of(clusters.old()).rootDir(),
          RekeyException.oneLine(e));
    }
  }
}
