package dev.rekey.home;

import java.nio.file.Path;

/**
 * Where rekey is installed and where it keeps its run directories: the one place that reads {@code
 * rekey.home} (set by bin/rekey), {@code REKEY_HOME} and {@code REKEY_RUN_DIR}.
 */
public final class RekeyHome {
  private RekeyHome() {}

  /**
   * The checkout or install: system property {@code rekey.home}, else $REKEY_HOME, else the working
   * directory.
   */
  public static Path dir() {
    String home = System.getProperty("rekey.home");
    if (home == null || home.isBlank()) {
      home = System.getenv().getOrDefault("REKEY_HOME", ".");
    }
    return Path.of(home).toAbsolutePath().normalize();
  }

  /** A file or directory of the install, e.g. {@code conf/layouts}. */
  public static Path resolve(String relative) {
    return dir().resolve(relative);
  }

  /**
   * The parent of the run directories (hbase/, spark/, cluster/): $REKEY_RUN_DIR, else {@code
   * <home>/.rekey}.
   */
  public static Path runRoot() {
    String env = System.getenv("REKEY_RUN_DIR");
    return env != null && !env.isBlank()
        ? Path.of(env).toAbsolutePath().normalize()
        : dir().resolve(".rekey");
  }

  /**
   * The client config the embedded server writes when it starts ({@code bin/rekey hbase start}):
   * the site a command falls back to when given none. The launcher (embedded-hbase's {@code
   * EmbeddedHBase}) writes it here; commands only read it.
   */
  public static Path embeddedClientSite() {
    return clientSiteIn(embeddedRunDir());
  }

  /** Where an embedded server run from {@code runDir} writes its client config. */
  public static Path clientSiteIn(Path runDir) {
    return runDir.resolve("client").resolve("hbase-site.xml");
  }

  /** The embedded server's default run directory: {@code <run root>/hbase}. */
  public static Path embeddedRunDir() {
    return runRoot().resolve("hbase");
  }
}
