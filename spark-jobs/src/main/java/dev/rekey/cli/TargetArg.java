package dev.rekey.cli;

import dev.rekey.jobs.common.LayoutFiles;
import dev.rekey.jobs.common.RekeyException;
import dev.rekey.rowkey.KeyLayout;

/**
 * One {@code --target TABLE=LAYOUT} of the commands that work on several new tables (backfill,
 * repair): the table and its layout, loaded.
 */
record TargetArg(String table, KeyLayout layout) {
  /** Parses {@code TABLE=LAYOUT}; a usage error shows the form expected. */
  static TargetArg parse(String t) {
    int eq = t.indexOf('=');
    if (eq <= 0 || eq == t.length() - 1) {
      throw RekeyException.usage(
          "Invalid --target '%s': expected TABLE=LAYOUT (e.g. --target"
              + " telemetry_by_device=telemetry-by-device)",
          t);
    }
    return new TargetArg(
        t.substring(0, eq), LayoutFiles.load(t.substring(eq + 1), "--target " + t));
  }
}
