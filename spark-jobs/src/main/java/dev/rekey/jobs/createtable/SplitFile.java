package dev.rekey.jobs.createtable;

import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The split-point file format shared by {@code rekey plan --splits-out FILE} and {@code rekey create-table --splits
 * FILE}: UTF-8 text, one split point per line as hexadecimal bytes (upper or lower case, e.g. {@code 0f} or
 * {@code 0400}); blank lines and lines starting with {@code #} are ignored. Points must be non-empty, distinct and
 * strictly increasing in unsigned byte order (HBase's order); N points make N + 1 regions.
 */
public final class SplitFile {
  private SplitFile() {
  }

  public static List<byte[]> read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read split file " + file + ": " + e.getMessage()
          + " (expected one hex split point per line)");
    }
    return parse(text, file.toString());
  }

  /** Parses the format; {@code source} names the file in errors (with the line number). */
  public static List<byte[]> parse(String text, String source) {
    List<byte[]> out = new ArrayList<>();
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.length() % 2 != 0 || !line.matches("[0-9A-Fa-f]+")) {
        throw new IllegalArgumentException("Invalid split file " + source + " line " + (i + 1) + ": '" + line
            + "' is not an even number of hex digits (one split point per line, e.g. 0f00)");
      }
      byte[] point = Hex.parse(line.toLowerCase(java.util.Locale.ROOT));
      if (!out.isEmpty() && Arrays.compareUnsigned(out.get(out.size() - 1), point) >= 0) {
        throw new IllegalArgumentException("Invalid split file " + source + " line " + (i + 1) + ": " + line
            + " is not greater than the previous point " + Hex.of(out.get(out.size() - 1))
            + " (points must be strictly increasing, unsigned byte order)");
      }
      out.add(point);
    }
    return out;
  }

  /** The file text for the points, with a comment header. */
  public static String format(List<byte[]> points, String comment) {
    StringBuilder sb = new StringBuilder();
    if (comment != null) {
      for (String c : comment.split("\n")) {
        sb.append("# ").append(c).append('\n');
      }
    }
    sb.append("# ").append(points.size()).append(" split points, ").append(points.size() + 1)
        .append(" regions; one hex point per line (rekey create-table --splits FILE)\n");
    for (byte[] p : points) {
      sb.append(Hex.of(p)).append('\n');
    }
    return sb.toString();
  }

  /** Writes the file atomically (tmp + rename). */
  public static void write(Path file, List<byte[]> points, String comment) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, format(points, comment), StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
