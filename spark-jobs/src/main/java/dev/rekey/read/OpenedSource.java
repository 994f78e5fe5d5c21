package dev.rekey.read;

import dev.rekey.common.RekeyException;
import java.util.ArrayList;
import java.util.List;

/**
 * What opening the source found: its regions ({start, end} each) and the plan the read uses (the
 * one asked for, or every key when the source's keys do not decode with its layout).
 */
record OpenedSource(List<byte[][]> bounds, ReadPlan plan) {
  /** Refuses a read of families the source does not have, naming them and the ones it has. */
  static void checkFamilies(List<String> families, List<String> existing, String what) {
    List<String> missing = new ArrayList<>();
    for (String f : families) {
      if (!existing.contains(f)) {
        missing.add(f);
      }
    }
    if (!missing.isEmpty()) {
      throw RekeyException.usage(
          "Cannot read %s: unknown famil%s%s (it has %s; fix --families)",
          what,
          (missing.size() == 1 ? "y " : "ies "),
          String.join(",", missing),
          String.join(",", existing));
    }
  }
}
