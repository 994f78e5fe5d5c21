package dev.rekey.cli;

import dev.rekey.common.LayoutFiles;
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * --layout of the commands that work through one layout (key encode/decode/vectors, and with
 * --table get, read, create-table): a picocli mixin, declared once.
 */
final class LayoutArg {
  @Option(
      names = "--layout",
      required = true,
      paramLabel = "L",
      description = "Layout file, or a name under conf/layouts (e.g. telemetry-v2).")
  String layout;

  /** The --layout file (a usage error names the argument and where it looked). */
  Path file() {
    return LayoutFiles.resolve(layout, "--layout");
  }

  /** The --layout file, loaded (a usage error names the argument and where it looked). */
  KeyLayout layout() {
    return LayoutFiles.load(layout, "--layout");
  }
}
