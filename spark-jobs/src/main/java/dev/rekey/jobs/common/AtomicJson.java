package dev.rekey.jobs.common;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Results and reports written as {@code *.tmp} then renamed (DESIGN §6: no half-written file looks
 * done).
 */
public final class AtomicJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private AtomicJson() {}

  public static String toJson(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (IOException e) {
      throw new RekeyException(
          "Cannot serialise " + value.getClass().getSimpleName() + " to JSON: " + e.getMessage(),
          e);
    }
  }

  public static void write(Path file, Object value) {
    writeText(file, toJson(value) + "\n");
  }

  /** Writes text to {@code file.tmp}, then renames it over {@code file}. */
  public static void writeText(Path file, String text) {
    Path abs = file.toAbsolutePath();
    Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
    try {
      if (abs.getParent() != null) {
        Files.createDirectories(abs.getParent());
      }
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new RekeyException(
          "Cannot write "
              + abs
              + ": "
              + e.getMessage()
              + " (check the directory exists and is writable)",
          e);
    }
  }
}
