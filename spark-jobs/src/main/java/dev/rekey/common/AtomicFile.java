package dev.rekey.common;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.fs.FileSystem;

/**
 * Every result, report, summary and manifest is written here: to {@code NAME.tmp} beside the file,
 * then renamed over it, so a reader (or a rerun after a crash) never takes a half-written file for
 * a finished one.
 */
public final class AtomicFile {
  private AtomicFile() {}

  /** Writes the value as indented JSON (and a final newline). */
  public static void writeJson(Path file, Object value) {
    write(file, Json.pretty(value) + "\n");
  }

  /** Writes text (UTF-8) to {@code file.tmp}, then renames it over {@code file} atomically. */
  public static void write(Path file, String text) {
    Path abs = file.toAbsolutePath();
    Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
    try {
      if (abs.getParent() != null) {
        Files.createDirectories(abs.getParent());
      }
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw RekeyException.cannot(
          e,
          "Cannot write %s: %s (check the directory exists and is writable)",
          abs,
          e.getMessage());
    }
  }

  /**
   * The same on a Hadoop filesystem (a backfill's staging dir on HDFS). {@link FileSystem#rename}
   * does not replace an existing file, so the old one is deleted just before: a crash between the
   * two leaves {@code NAME.tmp} complete and no {@code NAME}, never a half-written {@code NAME}.
   */
  public static void write(FileSystem fs, org.apache.hadoop.fs.Path file, byte[] bytes)
      throws IOException {
    org.apache.hadoop.fs.Path tmp =
        new org.apache.hadoop.fs.Path(file.getParent(), file.getName() + ".tmp");
    try (OutputStream out = fs.create(tmp, true)) {
      out.write(bytes);
    }
    fs.delete(file, false);
    if (!fs.rename(tmp, file)) {
      throw new IOException(String.format("Cannot rename %s to %s", tmp, file));
    }
  }
}
