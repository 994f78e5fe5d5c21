package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.Poll;
import dev.rekey.jobs.common.RekeyException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The backfill's load step: the WRITTEN regions of the ledger into the target, one bulk-load call
 * per region.
 */
final class BulkLoadStep {
  private final JavaSparkContext jsc;
  private final Configuration hbaseConf;
  private final Consumer<String> progress;

  BulkLoadStep(JavaSparkContext jsc, Configuration hbaseConf, Consumer<String> progress) {
    this.jsc = jsc;
    this.hbaseConf = hbaseConf;
    this.progress = progress;
  }

  /**
   * Loads the WRITTEN regions one BulkLoadHFiles call each (it splits a file whose region split
   * since the write), and records each region as LOADED in the ledger as soon as its call returns:
   * a run killed during the load leaves the regions already loaded marked so, and a --resume loads
   * only the others (a region's families go in one atomic bulk-load request, so a region is loaded
   * whole or not at all). The loader gets a copy: it moves its inputs and may delete them
   * (HBASE-30501), so our files stay in regions/ until verified.
   */
  Manifest load(Connection conn, Staging staging, TableName table, Manifest m) throws IOException {
    Configuration c = new Configuration(hbaseConf);
    c.set(BulkLoadHFiles.CREATE_TABLE_CONF_KEY, "no");
    List<RegionEntry> pending =
        m.regions().stream().filter(r -> r.state() == RegionState.WRITTEN).toList();
    Path copy = staging.loadRoot();
    staging.fs.delete(copy, true);
    int files = 0;
    // every pending region's copies first, all at once (in Spark tasks where a copy writes the data
    // again)
    Map<Integer, Map<byte[], List<Path>>> copies = new TreeMap<>();
    List<String[]> pairs = new ArrayList<>();
    for (RegionEntry r : pending) {
      if (r.files() > 0) {
        Map<byte[], List<Path>> byFamily = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        planCopies(staging, r, table, regionCopy(copy, r), byFamily, pairs);
        copies.put(r.index(), byFamily);
      }
    }
    keepOriginals(staging, pairs);
    BulkLoadHFiles loader = BulkLoadHFiles.create(c);
    for (RegionEntry r : pending) {
      if (r.files() > 0) {
        Path regionCopy = regionCopy(copy, r);
        Map<byte[], List<Path>> byFamily = copies.get(r.index());
        int n = r.files();
        waitUntilAvailable(conn, table);
        Map<?, ?> loaded = loader.bulkLoad(table, byFamily);
        if (loaded == null || loaded.isEmpty()) {
          throw new RekeyException(
              "Cannot load region "
                  + r.index()
                  + " of "
                  + table
                  + ": BulkLoadHFiles loaded none "
                  + "of its "
                  + n
                  + " HFiles in "
                  + regionCopy
                  + " (the originals are kept in "
                  + staging.region(r.index())
                  + "; rerun with --resume)");
        }
        files += n;
        staging.fs.delete(regionCopy, true);
      }
      m = m.withRegion(r.withState(RegionState.LOADED));
      staging.writeJson(staging.manifest(), m);
      progress.accept(
          String.format(
              "  loaded region %d [%s, %s): %d HFiles",
              r.index(), r.startHex(), r.endHex(), r.files()));
    }
    staging.fs.delete(copy, true);
    progress.accept(
        "Loaded " + pending.size() + " regions into " + table + " (" + files + " HFiles)");
    return m;
  }

  private static Path regionCopy(Path copy, RegionEntry r) {
    return new Path(copy, String.format("r-%05d", r.index()));
  }

  /**
   * Plans the copies of one region's HFiles under {@code copy/family/} (file names are unique per
   * job).
   */
  private static void planCopies(
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
      throw new RekeyException(
          "Cannot load region "
              + r.index()
              + " ("
              + r.name()
              + ") of "
              + table
              + ": the "
              + "manifest lists "
              + r.files()
              + " HFiles but "
              + src
              + " holds "
              + n
              + " (rerun without --resume)");
    }
  }

  /**
   * Gives the loader its own path to each HFile while ours survives whatever it does with its
   * inputs: a hard link on a local filesystem (HFiles are never modified in place, so a link keeps
   * the data as well as a copy, without writing it twice), a copy elsewhere (HDFS has no hard
   * links) — made by Spark tasks in parallel, since one driver thread copying a large table's files
   * would take longer than writing them.
   */
  private void keepOriginals(Staging staging, List<String[]> pairs) throws IOException {
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
    jsc.parallelize(pairs, tasks)
        .foreach(
            p -> {
              Configuration c = HBaseConfigs.fromMap(conf);
              Path src = new Path(p[0]);
              FileSystem fs = src.getFileSystem(c);
              if (!FileUtil.copy(fs, src, fs, new Path(p[1]), false, true, c)) {
                throw new IOException("Cannot copy " + src + " to " + p[1]);
              }
            });
  }

  /**
   * A region split or move in progress makes the loader refuse the table: wait for it (bounded).
   */
  private void waitUntilAvailable(Connection conn, TableName table) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      Poll.until(
          () -> admin.isTableAvailable(table),
          Duration.ofSeconds(120),
          Duration.ofMillis(500),
          () ->
              new RekeyException(
                  "Cannot load into "
                      + table
                      + ": the table has not been available for 120 s "
                      + "(regions in transition?). The HFiles are kept in the staging dir; rerun with --resume when the "
                      + "table is available."));
    }
  }
}
