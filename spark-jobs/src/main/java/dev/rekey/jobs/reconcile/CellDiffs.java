package dev.rekey.jobs.reconcile;

import dev.rekey.common.DecodedCell;
import dev.rekey.rowkey.Hex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;

/** The cells a sample shows as differing, as text (pure). */
final class CellDiffs {
  private CellDiffs() {}

  /**
   * Cells only on one side of a pair of rows (as text), old side first, each side in its cells'
   * order; empty if either row is absent.
   */
  static List<String> of(List<DecodedCell> old, List<DecodedCell> neu) {
    if (old.isEmpty() || neu.isEmpty()) {
      return List.of();
    }
    List<String> oldText = text(old);
    List<String> newText = text(neu);
    Set<String> inNew = new HashSet<>(newText);
    Set<String> inOld = new HashSet<>(oldText);
    List<String> out = new ArrayList<>();
    for (String c : oldText) {
      if (!inNew.contains(c)) {
        out.add("- " + c);
      }
    }
    for (String c : newText) {
      if (!inOld.contains(c)) {
        out.add("+ " + c);
      }
    }
    return out;
  }

  private static List<String> text(List<DecodedCell> cells) {
    return cells.stream().map(CellDiffs::text).toList();
  }

  /**
   * {@code d:v@1764374400000=000000000000002a}; values longer than 32 bytes are cut with their
   * length.
   */
  static String text(DecodedCell c) {
    byte[] v = c.value();
    String value =
        v.length <= 32 ? Hex.of(v) : Hex.of(Arrays.copyOf(v, 32)) + "...(" + v.length + " bytes)";
    return Bytes.toStringBinary(c.family())
        + ":"
        + Bytes.toStringBinary(c.qualifier())
        + "@"
        + c.timestamp()
        + "="
        + value;
  }
}
