package dev.rekey.client;

import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;

/** The shipped layouts (conf/layouts), found through rekey.home as surefire/failsafe set it. */
final class Layouts {
  private Layouts() {}

  static Path home() {
    return Path.of(System.getProperty("rekey.home", "..")).toAbsolutePath().normalize();
  }

  static KeyLayout shipped(String name) {
    return KeyLayout.load(home().resolve("conf/layouts/" + name + ".yaml"));
  }

  static KeyLayout inline(String yaml) {
    return KeyLayout.parse(yaml, "test");
  }
}
