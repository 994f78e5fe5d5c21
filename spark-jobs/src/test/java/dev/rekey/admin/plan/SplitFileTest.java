package dev.rekey.admin.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.SplitPoints;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The split file reads back identically, and reads the same way the HBase shell's SPLITS_FILE does.
 */
@Tag("unit")
class SplitFileTest {
  /**
   * What the HBase shell does with a SPLITS_FILE (admin.rb): each line chomped, then
   * Bytes.toBytesBinary.
   */
  private static List<byte[]> asTheShellReadsIt(String text) {
    List<byte[]> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      out.add(Bytes.toBytesBinary(line));
    }
    return out;
  }

  private static void assertSame(List<byte[]> expected, List<byte[]> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), "point " + i);
    }
  }

  @Test
  void linesAreEscapedBinary() {
    assertEquals(
        "\\x04\\x00\n\\x08\\x00\n", SplitFile.format(SplitPoints.prefix(2, 64).subList(0, 2)));
    assertEquals("04000000\n", SplitFile.format(SplitPoints.hexString(64).subList(0, 1)));
    assertEquals(
        "a\\x5Cb\\x20c\\xFF",
        SplitFile.formatLine(new byte[] {'a', '\\', 'b', ' ', 'c', (byte) 0xff}));
  }

  @Test
  void roundTripsAndMatchesTheShell() {
    Random r = new Random(7);
    List<byte[]> points = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      byte[] b = new byte[1 + r.nextInt(12)];
      r.nextBytes(b);
      points.add(b);
    }
    points.sort(Arrays::compareUnsigned);
    for (int i = points.size() - 1; i > 0; i--) {
      if (Arrays.equals(points.get(i), points.get(i - 1))) {
        points.remove(i);
      }
    }
    for (List<byte[]> set :
        List.of(
            points,
            SplitPoints.salt(16),
            SplitPoints.prefix(2, 64),
            SplitPoints.uniform(16),
            SplitPoints.hexString(16))) {
      String text = SplitFile.format(set);
      assertSame(set, SplitFile.parse(text, "t"));
      assertSame(set, asTheShellReadsIt(text));
    }
  }

  @Test
  void rejectsWhatTheShellWouldMisread() {
    assertMessage("x\n\nz\n", "Invalid split file f line 2: empty line");
    // Bytes.toBytesBinary only decodes upper-case hex digits; a lower-case escape is silently
    // mangled
    assertMessage(
        "\\x0a\n", "Invalid split file f line 1: backslash at column 1 is not followed by xNN");
    assertMessage("ab\\\n", "Invalid split file f line 1: backslash at column 3");
    assertMessage(
        "caf\u00e9\n",
        "Invalid split file f line 1: character U+00E9 at column 4 is not printable ASCII");
    assertMessage(
        "\\x02\n\\x01\n",
        "Invalid split file f line 2: '\\x01' (0x01) is not greater than the previous point 0x02");
    assertMessage(
        "# 3 split points\n",
        "Invalid split file f line 1: '# 3 split points' looks like a comment");
  }

  @Test
  void emptyFileHasNoPointsAndCrLfIsAccepted() {
    assertEquals(0, SplitFile.parse("", "f").size());
    assertSame(List.of(new byte[] {1}, new byte[] {2}), SplitFile.parse("\\x01\r\n\\x02\r\n", "f"));
  }

  private static void assertMessage(String text, String prefix) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SplitFile.parse(text, "f"));
    assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
  }
}
