package dev.rekey.jobs.plan;

import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;

/** The shipped layouts, for tests. */
public final class Layouts {
  private Layouts() {}

  public static KeyLayout shipped(String name) {
    return KeyLayout.load(
        Path.of(System.getProperty("rekey.home", "..")).resolve("conf/layouts/" + name + ".yaml"));
  }
}
