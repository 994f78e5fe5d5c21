package dev.rekey.testing;

import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;

/** The layouts the repository ships in {@code conf/layouts}, as every test loads them. */
public final class Layouts {
  private Layouts() {}

  /** {@code conf/layouts/<name>.yaml} under the rekey home the build passes to the tests. */
  public static Path file(String name) {
    return SharedHBase.rekeyHome().resolve("conf/layouts").resolve(name + ".yaml");
  }

  public static KeyLayout shipped(String name) {
    return KeyLayout.load(file(name));
  }
}
