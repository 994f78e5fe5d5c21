package dev.rekey.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock held for a whole run of a run directory (the demo's): its holder named, released on close.
 * Another process finding it held, and the OS releasing it when its holder is killed, are {@code
 * DemoIT}'s.
 */
@Tag("unit")
class RunHoldTest {
  @TempDir Path dir;

  @Test
  void aHeldLockNamesItsHolderAndIsFreeAgainOnceClosed() throws Exception {
    EmbeddedHBase hbase = new EmbeddedHBase(dir.resolve("hbase"), s -> {});
    Instant before = Instant.now();
    try (Closeable held =
        hbase.hold("demo", h -> new IllegalStateException("free at first: " + h))) {
      String[] text = Files.readString(dir.resolve("hbase/demo.lock")).trim().split(" ");
      assertEquals(Long.toString(ProcessHandle.current().pid()), text[0]);
      assertTrue(!Instant.parse(text[1]).isBefore(before.minusSeconds(1)), text[1]);

      IllegalStateException busy =
          assertThrows(
              IllegalStateException.class,
              () ->
                  hbase.hold("demo", h -> new IllegalStateException(h.pid() + " " + h.started())));
      assertEquals(ProcessHandle.current().pid() + " " + text[1], busy.getMessage());
    }
    try (Closeable again = hbase.hold("demo", h -> new IllegalStateException("released: " + h))) {
      assertTrue(Files.exists(dir.resolve("hbase/demo.lock")));
    }
  }

  @Test
  void aFileThatNamesNoHolderYetGivesPidZero() {
    assertEquals(new EmbeddedHBase.Holder(0, "?"), EmbeddedHBase.Holder.parse(""));
    assertEquals(
        new EmbeddedHBase.Holder(42, "2026-12-04T10:00:00Z"),
        EmbeddedHBase.Holder.parse("42 2026-12-04T10:00:00Z\n"));
  }
}
