package dev.rekey.jobs.backfill.load;

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
      Path src = new Path(f.path());
      Path dest = new Path(new Path(staging.region(f.region()), f.family()), src.getName());
      staging.fs.mkdirs(dest.getParent());
      if (!staging.fs.rename(src, dest)) {
        throw new IOException(String.format("Cannot move %s to %s", src, dest));
      }
      files.merge(f.region(), 1, Integer::sum);
    }
    staging.fs.delete(staging.attempts(), true);
    return files;
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
