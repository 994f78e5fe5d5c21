package dev.rekey.jobs.backfill.write;

import dev.rekey.common.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Undecodable source keys of one input partition, as JSON lines {@code {"keyHex": .., "reason":
 * ..}} in {@code <staging>/quarantine/part-NNNNN.jsonl}. Written to an attempt-specific .tmp file
 * and renamed over the final name when the partition is done, so a retried attempt replaces (never
 * adds to) the file.
 */
public final class QuarantineWriter implements AutoCloseable {
  private final Path dir;
  private final int partition;
  private final long attempt;
  private final Configuration conf;
  private OutputStream out;
  private Path tmp;

  QuarantineWriter(String dir, int partition, long attempt, Configuration conf) {
    this.dir = dir == null ? null : new Path(dir);
    this.partition = partition;
    this.attempt = attempt;
    this.conf = conf;
  }

  static Path fileFor(String dir, int partition) {
    return new Path(dir, String.format("part-%05d.jsonl", partition));
  }

  /** A writer that writes nothing (dry runs). */
  public static QuarantineWriter none() {
    return new QuarantineWriter(null, 0, 0, null);
  }

  void add(String keyHex, String reason) {
    if (dir == null) {
      return;
    }
    try {
      if (out == null) {
        FileSystem fs = dir.getFileSystem(conf);
        tmp = new Path(dir, String.format(".part-%05d.jsonl.%d.tmp", partition, attempt));
        out = fs.create(tmp, true);
      }
      Map<String, String> line = new LinkedHashMap<>();
      line.put("keyHex", keyHex);
      line.put("reason", reason);
      out.write(Json.MAPPER.writeValueAsBytes(line));
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(
          String.format("Cannot write quarantine file in %s: %s", dir, e.getMessage()), e);
    }
  }

  /**
   * Publishes the file (if anything was quarantined); removes a stale one from an earlier attempt
   * otherwise.
   */
  @Override
  public void close() {
    if (dir == null) {
      return;
    }
    try {
      FileSystem fs = dir.getFileSystem(conf);
      Path dest = fileFor(dir.toString(), partition);
      if (out == null) {
        fs.delete(dest, false);
        return;
      }
      out.close();
      out = null;
      fs.delete(dest, false);
      if (!fs.rename(tmp, dest)) {
        throw new IOException(String.format("rename %s -> %s failed", tmp, dest));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          String.format("Cannot publish quarantine file in %s: %s", dir, e.getMessage()), e);
    }
  }

  static String json(String s) {
    try {
      return Json.MAPPER.writeValueAsString(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
