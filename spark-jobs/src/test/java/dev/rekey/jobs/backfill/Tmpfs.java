package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real small filesystem for a disk-full test: a tmpfs mounted on a temporary dir (mounting needs
 * root, CAP_SYS_ADMIN, as in this project's CI container; the test is skipped where it cannot),
 * unmounted and removed at close.
 */
final class Tmpfs implements AutoCloseable {
  final Path dir;

  private Tmpfs(Path dir) {
    this.dir = dir;
  }

  /** A tmpfs of {@code size} (mount's option: "128k", "1m"). */
  static Tmpfs mount(String prefix, String size) throws Exception {
    Path dir = Files.createTempDirectory(prefix);
    Assumptions.assumeTrue(
        exec("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString()) == 0,
        "cannot mount a " + size + " tmpfs here");
    return new Tmpfs(dir);
  }

  @Override
  public void close() throws Exception {
    // lazily: a stream Hadoop's checksummed local filesystem could not close on ENOSPC may keep
    // the mount busy
    assertEquals(0, exec("umount", "-l", dir.toString()), "unmounted " + dir);
    Files.delete(dir);
  }

  private static int exec(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
  }
}
