package dev.rekey.rowkey;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the repository root: system property rekey.home (set by surefire), else walk up from the
 * working dir.
 */
final class TestPaths {
  private TestPaths() {}

  static Path repoRoot() {
    String home = System.getProperty("rekey.home");
    if (home != null && !home.isBlank() && Files.isDirectory(Path.of(home, "conf", "layouts"))) {
      return Path.of(home).toAbsolutePath().normalize();
    }
    Path p = Path.of("").toAbsolutePath();
    while (p != null) {
      if (Files.isDirectory(p.resolve("conf").resolve("layouts"))
          && Files.isDirectory(p.resolve("rowkey"))) {
        return p;
      }
      p = p.getParent();
    }
    throw new IllegalStateException("cannot find the rekey repo root (set -Drekey.home)");
  }

  static KeyLayout shipped(String name) {
    return KeyLayout.load(repoRoot().resolve("conf/layouts/" + name + ".yaml"));
  }
}
