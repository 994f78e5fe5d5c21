package dev.rekey.jobs.backfill.load;

import dev.rekey.common.ObjectStores;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.jobs.backfill.write.InOrderHFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Puts the write's committed HFiles where the load takes them, {@code regions/r-NNNNN/<family>/}
 * (run layer: file moves in the staging dir), and reads the quarantine's first line for messages.
 */
public final class StagedFiles {
  private StagedFiles() {}

  /**
   * Moves the files of the kept attempts (one per partition, as Spark returned them) into their
   * regions' dirs and removes every attempt dir, with whatever failed or speculative attempts left
   * there; returns files per region.
   */
  public static Map<Integer, Integer> organize(
      Staging staging, List<InOrderHFiles.WrittenFile> written) throws IOException {
    Map<Integer, Integer> files = new TreeMap<>();
    for (InOrderHFiles.WrittenFile f : written) {
      files.merge(f.region(), 1, Integer::sum);
    }
    boolean local = "file".equals(staging.fs.getScheme());
    if (local || written.size() < 2) {
      for (InOrderHFiles.WrittenFile f : written) {
        move(staging, f);
      }
    } else {
      // on an object store a move is a copy on the server, one request per file: many at once,
      // or the driver's time grows with the file count (2,000 HFiles at 50 ms each = 100 s)
      java.util.concurrent.ForkJoinPool pool =
          new java.util.concurrent.ForkJoinPool(Math.min(MOVE_THREADS, written.size()));
      try {
        pool.submit(
                () ->
                    written.parallelStream()
                        .forEach(
                            f -> {
                              try {
                                move(staging, f);
                              } catch (IOException e) {
                                throw new java.io.UncheckedIOException(e);
                              }
                            }))
            .get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted moving the written HFiles");
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof java.io.UncheckedIOException u) {
          throw u.getCause();
        }
        if (c instanceof RuntimeException r) {
          throw r;
        }
        throw new IOException(c);
      } finally {
        pool.shutdown();
      }
    }
    staging.fs.delete(staging.attempts(), true);
    return files;
  }

  /** Moves on the driver at once (an object store's copies, HDFS's renames). */
  static final int MOVE_THREADS = 16;

  private static void move(Staging staging, InOrderHFiles.WrittenFile f) throws IOException {
    Path src = new Path(f.path());
    Path dest = new Path(new Path(staging.region(f.region()), f.family()), src.getName());
    // S3A's rename needs no parent: its mkdirs would be one more request per file
    if (!ObjectStores.isS3(dest)) {
      staging.fs.mkdirs(dest.getParent());
    }
    if (!staging.fs.rename(src, dest)) {
      throw new IOException(String.format("Cannot move %s to %s", src, dest));
    }
  }

  /** " (first: {..})" with the first quarantined key, or "" when there is none to show. */
  public static String firstQuarantined(Staging staging) {
    try {
      if (!staging.fs.exists(staging.quarantine())) {
        return "";
      }
      for (FileStatus f : staging.fs.listStatus(staging.quarantine())) {
        if (f.getPath().getName().startsWith("part-")) {
          try (BufferedReader r =
              new BufferedReader(
                  new InputStreamReader(staging.fs.open(f.getPath()), StandardCharsets.UTF_8))) {
            String line = r.readLine();
            if (line != null) {
              return " (first: " + line + ")";
            }
          }
        }
      }
    } catch (IOException e) {
      return "";
    }
    return "";
  }
}
