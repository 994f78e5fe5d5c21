package dev.rekey.admin.plan;

import dev.rekey.common.AtomicFile;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The split-point file {@code rekey plan --out FILE} writes and {@code create-table --splits FILE}
 * reads, in the format the HBase shell reads for {@code create 'T', 'f', SPLITS_FILE => 'FILE'}:
 * one split point per line, each line taken whole (only the line break removed) and turned into
 * bytes by {@code Bytes.toBytesBinary} — so {@code \xNN} (two hex digits) is one byte and any other
 * ASCII character is its own byte. (The shell does exactly {@code File.foreach(f) { |line| splits
 * << Bytes.toBytesBinary(line.chomp) }}, HBase's {@code admin.rb}.)
 *
 * <p>The writer escapes every byte except {@code [0-9A-Za-z._-]} as {@code \xNN} (upper-case hex),
 * so a line has no spaces, quotes or backslashes of its own and reads back identically in both
 * readers. There are no comments (a line starting with {@code #} is refused) and no blank lines:
 * the shell would turn them into split keys. The reader accepts exactly this format: non-empty
 * lines of printable ASCII, {@code \x} always followed by two upper-case hex digits, points
 * strictly increasing in unsigned byte order.
 */
public final class SplitFile {
  private SplitFile() {}

  /** One split point as a file line ({@code \xNN} escapes; no line break). */
  public static String formatLine(byte[] point) {
    StringBuilder sb = new StringBuilder(point.length * 4);
    for (byte b : point) {
      int c = b & 0xff;
      if ((c >= '0' && c <= '9')
          || (c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || c == '.'
          || c == '_'
          || c == '-') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02X", c));
      }
    }
    return sb.toString();
  }

  /** The file text: one line per point, each ending in a line break. */
  public static String format(List<byte[]> points) {
    StringBuilder sb = new StringBuilder();
    for (byte[] p : points) {
      if (p.length == 0) {
        throw new IllegalArgumentException(
            "an empty split point cannot be written (HBase rejects empty split keys)");
      }
      sb.append(formatLine(p)).append('\n');
    }
    return sb.toString();
  }

  /** Writes {@code file.tmp} and renames it over {@code file}. */
  public static void write(Path file, List<byte[]> points) {
    AtomicFile.write(file, format(points));
  }

  public static List<byte[]> read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot read split file %s: %s (write one with `rekey plan --layout L"
                  + " --regions N --out FILE`)",
              file, e.getMessage()));
    }
    return parse(text, file.toString());
  }

  /** Parses file text; {@code source} names the file in errors, with the line number. */
  public static List<byte[]> parse(String text, String source) {
    List<byte[]> out = new ArrayList<>();
    String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    if (body.isEmpty()) {
      return out;
    }
    String[] lines = body.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line =
          lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
      String where = "Invalid split file " + source + " line " + (i + 1) + ": ";
      if (line.isEmpty()) {
        throw new IllegalArgumentException(
            where
                + "empty line (the HBase shell would make it an empty split key; "
                + "one split point per line, e.g. \\x04\\x00)");
      }
      if (line.startsWith("#")) {
        throw new IllegalArgumentException(
            String.format(
                "%s'%s' looks like a comment; split files have none (the HBase shell"
                    + " would make the line a split key)",
                where, line));
      }
      for (int c = 0; c < line.length(); c++) {
        char ch = line.charAt(c);
        if (ch < 0x20 || ch > 0x7e) {
          throw new IllegalArgumentException(
              where
                  + String.format(
                      "character U+%04X at column %d is not printable "
                          + "ASCII (write other bytes as \\xNN)",
                      (int) ch, c + 1));
        }
        if (ch == '\\') {
          boolean ok =
              c + 3 < line.length()
                  && line.charAt(c + 1) == 'x'
                  && isHex(line.charAt(c + 2))
                  && isHex(line.charAt(c + 3));
          if (!ok) {
            throw new IllegalArgumentException(
                String.format(
                    "%sbackslash at column %s is not followed by xNN (two upper-case hex"
                        + " digits, which is all the HBase shell decodes): '%s'",
                    where, (c + 1), line));
          }
          c += 3;
        }
      }
      byte[] point = Bytes.toBytesBinary(line);
      if (!out.isEmpty() && Arrays.compareUnsigned(out.get(out.size() - 1), point) >= 0) {
        throw new IllegalArgumentException(
            String.format(
                "%s'%s' (0x%s) is not greater than the previous point 0x%s (points must"
                    + " be strictly increasing in unsigned byte order)",
                where, line, Hex.of(point), Hex.of(out.get(out.size() - 1))));
      }
      out.add(point);
    }
    return out;
  }

  /**
   * Upper case only: {@code Bytes.toBytesBinary} silently skips an escape with lower-case digits.
   */
  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
  }
}
