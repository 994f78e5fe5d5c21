package dev.rekey.cli;

import dev.rekey.jobs.common.LayoutFiles;
import dev.rekey.jobs.common.RekeyException;
import dev.rekey.rowkey.KeyLayout;

/**
 * A {@code --target TABLE=LAYOUT} value, as backfill and reconcile take it (repeatable): a new
 * table and the layout of its keys (a file, or a name from conf/layouts).
 */
record TargetArg(String table, KeyLayout layout) {
  static TargetArg parse(String value) {
    int eq = value.indexOf('=');
    if (eq <= 0 || eq == value.length() - 1) {
      throw RekeyException.usage(
          "Invalid --target '%s': expected TABLE=LAYOUT (e.g. --target"
              + " telemetry_by_device=telemetry-by-device)",
          value);
    }
    return new TargetArg(
        value.substring(0, eq), LayoutFiles.load(value.substring(eq + 1), "--target " + value));
  }
}
