package dev.rekey.jobs.backfill.load;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.JobPhase;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.Staging;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The loader's own copy of each region's HFiles: BulkLoadHFiles moves its inputs and may delete
 * them (HBASE-30501), so rekey's files stay in {@code regions/} until verified and a failed load
 * can be retried from them.
 */
final class LoaderCopies {
  private LoaderCopies() {}

  /** Where the loader's copy of region {@code r}'s files goes. */
  static Path regionCopy(Path copy, RegionEntry r) {
    return new Path(copy, Staging.regionDir(r.index()));
  }

  /**
   * Plans the copies of one region's HFiles under {@code copy/family/} (file names are unique per
   * job).
   */
  static void planCopies(
      Staging staging,
      RegionEntry r,
      TableName table,
      Path copy,
      Map<byte[], List<Path>> byFamily,
      List<String[]> pairs)
      throws IOException {
    Path src = staging.region(r.index());
    int n = 0;
    for (FileStatus famDir : staging.fs.listStatus(src)) {
      for (FileStatus f : staging.fs.listStatus(famDir.getPath())) {
        Path dest = new Path(new Path(copy, famDir.getPath().getName()), f.getPath().getName());
        pairs.add(new String[] {f.getPath().toString(), dest.toString()});
        byFamily
            .computeIfAbsent(Bytes.toBytes(famDir.getPath().getName()), x -> new ArrayList<>())
            .add(dest);
        n++;
      }
    }
    if (n != r.files()) {
      throw RekeyException.cannot(
          "Cannot load region %d (%s) of %s: the manifest lists %d HFiles but %s holds %d (rerun"
              + " without --resume)",
          r.index(), r.name(), table, r.files(), src, n);
    }
  }

  /**
   * Gives the loader its own path to each HFile while ours survives whatever it does with its
   * inputs: a hard link on a local filesystem (HFiles are never modified in place, so a link keeps
   * the data as well as a copy, without writing it twice), a copy elsewhere (HDFS has no hard
   * links) — made by Spark tasks in parallel, since one driver thread copying a large table's files
   * would take longer than writing them.
   */
  static void keepOriginals(
      JavaSparkContext jsc, Configuration hbaseConf, Staging staging, List<String[]> pairs)
      throws IOException {
    if ("file".equals(staging.fs.getScheme())) {
      for (String[] p : pairs) {
        java.nio.file.Path to = java.nio.file.Paths.get(new Path(p[1]).toUri());
        java.nio.file.Files.createDirectories(to.getParent());
        java.nio.file.Files.createLink(to, java.nio.file.Paths.get(new Path(p[0]).toUri()));
      }
      return;
    }
    if (pairs.isEmpty()) {
      return;
    }
    Map<String, String> conf = HBaseConfigs.toMap(hbaseConf);
    int tasks = Math.min(pairs.size(), 4 * jsc.defaultParallelism());
    try (JobPhase phase =
        JobPhase.start(
            jsc.sc(),
            "backfill: copy %s for the bulk load",
            JobPhase.count(pairs.size(), "HFile"))) {
      jsc.parallelize(pairs, tasks)
          .foreach(
              p -> {
                Configuration c = HBaseConfigs.fromMap(conf);
                Path src = new Path(p[0]);
                FileSystem fs = src.getFileSystem(c);
                if (!FileUtil.copy(fs, src, fs, new Path(p[1]), false, true, c)) {
                  throw new IOException(String.format("Cannot copy %s to %s", src, p[1]));
                }
              });
    }
  }
}
