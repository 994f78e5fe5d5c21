package dev.rekey.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The lease rules of {@link SharedByKey}, with the idle delay's closes run by hand. */
@Tag("unit")
class SharedByKeyTest {
  static final class Resource implements Closeable {
    int closes;
    boolean broken;

    @Override
    public void close() {
      closes++;
    }
  }

  /** The idle closes scheduled so far, run when the test says the delay has passed. */
  final List<Runnable> scheduled = new ArrayList<>();

  final List<CompletableFuture<Void>> futures = new ArrayList<>();
  final SharedByKey<Resource> shared =
      new SharedByKey<>(
          close -> {
            scheduled.add(close);
            CompletableFuture<Void> f = new CompletableFuture<>();
            futures.add(f);
            return f;
          },
          r -> !r.broken);
  int opened;

  Resource open() {
    opened++;
    return new Resource();
  }

  void delayPasses() {
    for (int i = 0; i < scheduled.size(); i++) {
      if (!futures.get(i).isCancelled()) {
        scheduled.get(i).run();
      }
    }
    scheduled.clear();
    futures.clear();
  }

  @Test
  void leasesOfOneKeyShareOneResourceClosedOnlyAfterTheLastIsReleasedAndTheDelayPasses()
      throws IOException {
    Resource a = shared.acquire("read-1", this::open);
    Resource b = shared.acquire("read-1", this::open);
    assertSame(a, b);
    assertEquals(1, opened);
    shared.release("read-1", a);
    assertTrue(scheduled.isEmpty(), "one lease left: nothing to close yet");
    shared.release("read-1", b);
    assertEquals(0, a.closes, "closed only once the idle delay passes");
    delayPasses();
    assertEquals(1, a.closes);
    assertEquals(0, shared.openCount());
  }

  @Test
  void aLeaseWithinTheIdleDelayKeepsTheResourceOpen() throws IOException {
    Resource a = shared.acquire("read-1", this::open);
    shared.release("read-1", a);
    Resource again = shared.acquire("read-1", this::open); // the stage's next task
    assertSame(a, again);
    assertTrue(futures.get(0).isCancelled());
    scheduled.get(0).run(); // a close that was already running when the lease came: no effect
    assertEquals(0, a.closes);
    shared.release("read-1", again);
    delayPasses();
    assertEquals(1, a.closes);
    assertEquals(1, opened);
  }

  @Test
  void eachKeyHasItsOwnResource() throws IOException {
    Resource a = shared.acquire("read-1", this::open);
    Resource b = shared.acquire("read-2", this::open);
    assertNotSame(a, b);
    shared.release("read-1", a);
    delayPasses();
    assertEquals(1, a.closes);
    assertEquals(0, b.closes);
    assertEquals(1, shared.openCount());
  }

  @Test
  void aBrokenResourceIsReplacedAndClosedByItsLastLease() throws IOException {
    Resource a = shared.acquire("read-1", this::open);
    a.broken = true;
    Resource b = shared.acquire("read-1", this::open);
    assertNotSame(a, b, "a broken resource is not handed out again");
    assertEquals(0, a.closes, "still leased by the first task");
    shared.release("read-1", a);
    assertEquals(1, a.closes, "replaced: closed at once, nobody leases it again");
    shared.release("read-1", b);
    delayPasses();
    assertEquals(1, b.closes);
    assertEquals(0, shared.openCount());
  }

  @Test
  void anIdleBrokenResourceIsClosedWhenReplaced() throws IOException {
    Resource a = shared.acquire("read-1", this::open);
    shared.release("read-1", a);
    a.broken = true;
    Resource b = shared.acquire("read-1", this::open);
    assertNotSame(a, b);
    assertEquals(1, a.closes);
    delayPasses(); // a's pending close finds it replaced: closed once, not twice
    assertEquals(1, a.closes);
    assertFalse(b.closes > 0);
  }

  @Test
  void anOpenerThatFailsLeavesNothingBehind() throws IOException {
    IOException refused = new IOException("cluster unreachable");
    assertSame(
        refused,
        assertThrows(
            IOException.class,
            () ->
                shared.acquire(
                    "read-1",
                    () -> {
                      throw refused;
                    })));
    assertEquals(0, shared.openCount());
    Resource a = shared.acquire("read-1", this::open);
    assertEquals(1, opened);
    shared.release("read-1", a);
  }
}
