package dev.rekey.jobs.backfill.staging;

import dev.rekey.common.AtomicFile;
import dev.rekey.common.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The staging dir of one backfill (any Hadoop filesystem the RegionServers can read):
 *
 * <pre>
 *   _manifest.json        inputs, region boundaries at write time, counts, per-region ledger state
 *   _result.json          the last result
 *   _lock                 who is using this dir now (host, pid, start), removed when the run ends
 *   attempts/             the write's task attempts, until their files are kept or dropped
 *   regions/r-NNNNN/fam/  the HFiles of target region NNNNN, kept until that region is verified
 *   load/r-NNNNN/fam/     what the bulk loader gets, one call per region: a copy (a hard link on a local
 *                         filesystem), as it moves, and may delete, its inputs (HBASE-30501)
 *   quarantine/           undecodable source keys, JSON lines
 * </pre>
 */
public final class Staging {
  /** The dir as given (what a dry run prints); {@link #root} is it qualified. */
  public final String dir;

  public final Path root;
  public final FileSystem fs;

  public Staging(String dir, Configuration conf) throws IOException {
    this.dir = dir;
    Path p = new Path(dir);
    this.fs = p.getFileSystem(conf);
    this.root = fs.makeQualified(p);
  }

  public Path manifest() {
    return new Path(root, "_manifest.json");
  }

  /** Held by the run using this dir ({@link RunLock}); never removed by {@link #clean()}. */
  public Path lock() {
    return new Path(root, "_lock");
  }

  /** The status file a running backfill keeps up to date (docs/metrics.md). */
  public Path status() {
    return new Path(root, dev.rekey.common.JobStatus.FILE);
  }

  public Path result() {
    return new Path(root, "_result.json");
  }

  /** The write's task attempts, each in its own dir until the driver keeps or drops its files. */
  public Path attempts() {
    return new Path(root, "attempts");
  }

  public Path quarantine() {
    return new Path(root, "quarantine");
  }

  public Path region(int i) {
    return new Path(new Path(root, "regions"), regionDir(i));
  }

  /** The dir name of region {@code i}, under regions/ and under the loader's copies in load/. */
  public static String regionDir(int i) {
    return String.format("r-%05d", i);
  }

  private static final Pattern REGION_DIR = Pattern.compile("r-(\\d+)");

  /** The region whose dir holds {@code file} at any depth (the loader's split halves included). */
  public static OptionalInt regionOf(Path file) {
    for (Path p = file; p != null; p = p.getParent()) {
      Matcher m = REGION_DIR.matcher(p.getName());
      if (m.matches()) {
        return OptionalInt.of(Integer.parseInt(m.group(1)));
      }
    }
    return OptionalInt.empty();
  }

  public Path loadRoot() {
    return new Path(root, "load");
  }

  /** Removes what an earlier run left (only our own entries, never the dir's other content). */
  public void clean() throws IOException {
    for (String n :
        new String[] {
          "_manifest.json",
          "_manifest.json.tmp",
          "_result.json",
          "hfiles", // the sorted path's output in earlier versions
          "attempts",
          "regions",
          "load",
          "quarantine"
        }) {
      fs.delete(new Path(root, n), true);
    }
    fs.mkdirs(root);
  }

  /** Writes JSON as name.tmp, then renames over name: a reader never sees a half-written file. */
  public void writeJson(Path file, Object value) throws IOException {
    AtomicFile.write(fs, file, Json.PRETTY.writeValueAsBytes(value));
  }

  public <T> T readJson(Path file, Class<T> type) throws IOException {
    try (InputStream in = fs.open(file)) {
      return Json.MAPPER.readValue(in, type);
    }
  }
}
