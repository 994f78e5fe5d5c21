package dev.rekey.common;

import dev.rekey.home.RekeyHome;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.LayoutException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Resolves a {@code --layout} argument: a path to a layout file, or the name of a shipped layout
 * under {@code <rekey home>/conf/layouts/<name>.yaml} ({@link RekeyHome}).
 */
public final class LayoutFiles {
  private LayoutFiles() {}

  public static Path layoutsDir() {
    return RekeyHome.resolve("conf/layouts");
  }

  /**
   * The layout file an argument names: the path itself, else the shipped layout of that name; a
   * RekeyException (usage) names the argument and where it looked.
   */
  public static Path resolve(String arg, String optionName) {
    Path p = Path.of(arg);
    if (Files.isRegularFile(p)) {
      return p;
    }
    Path named = layoutsDir().resolve(arg.endsWith(".yaml") ? arg : arg + ".yaml");
    if (!Files.isRegularFile(named)) {
      throw RekeyException.usage(
          "Cannot load layout '%s' (%s): no such file, and no %s (give a layout file path, or a"
              + " name from %s)",
          arg, optionName, named, layoutsDir());
    }
    return named;
  }

  /** Loads the layout; a RekeyException (usage) names the argument and where it looked. */
  public static KeyLayout load(String arg, String optionName) {
    Path p = resolve(arg, optionName);
    try {
      return KeyLayout.load(p);
    } catch (LayoutException e) {
      throw RekeyException.usage("Cannot load layout %s (%s): %s", p, optionName, e.getMessage());
    }
  }
}
