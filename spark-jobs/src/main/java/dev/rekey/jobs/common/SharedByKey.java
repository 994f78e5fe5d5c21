package dev.rekey.jobs.common;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One open resource per key, leased by whoever asks for that key: the first lease opens it, the
 * last release closes it after an idle delay unless it is leased again first. The tasks of one
 * Spark stage reach an executor one after the other (ms apart, two at a time on two cores), so an
 * idle delay of seconds lets them all share what each would otherwise open and close again.
 */
final class SharedByKey<T extends Closeable> {
  /** Opens the resource for a key on its first lease. */
  @FunctionalInterface
  interface Opener<T> {
    T open() throws IOException;
  }

  private static final class Entry<T> {
    final T value;
    int leases;
    Future<?> pendingClose;

    Entry(T value) {
      this.value = value;
    }
  }

  private final Map<String, Entry<T>> open = new HashMap<>();
  // every resource not yet closed, the replaced ones included, by identity: releases find theirs
  private final Map<T, Entry<T>> leased = new IdentityHashMap<>();
  private final Function<Runnable, Future<?>> afterIdleDelay;
  private final Predicate<T> usable;

  /**
   * @param afterIdleDelay runs the given close later (the idle delay) and returns its future, which
   *     is cancelled when the key is leased again before it ran
   * @param usable false for a resource that broke while shared: the next lease gets a new one
   */
  SharedByKey(Function<Runnable, Future<?>> afterIdleDelay, Predicate<T> usable) {
    this.afterIdleDelay = afterIdleDelay;
    this.usable = usable;
  }

  synchronized T acquire(String key, Opener<T> opener) throws IOException {
    Entry<T> e = open.get(key);
    if (e != null && !usable.test(e.value)) {
      open.remove(key); // its last lease closes it (release), or now if it has none
      if (e.leases == 0) {
        close(e);
      }
      e = null;
    }
    if (e == null) {
      e = new Entry<>(opener.open());
      open.put(key, e);
      leased.put(e.value, e);
    }
    if (e.pendingClose != null) {
      e.pendingClose.cancel(false);
      e.pendingClose = null;
    }
    e.leases++;
    return e.value;
  }

  synchronized void release(String key, T value) {
    Entry<T> e = leased.get(value);
    if (e == null || --e.leases > 0) {
      return;
    }
    if (open.get(key) == e) {
      e.pendingClose = afterIdleDelay.apply(() -> closeIfIdle(key, e));
    } else {
      close(e); // replaced while leased: nobody will lease it again
    }
  }

  /** Resources open now (leased, idle or replaced but still leased), for tests. */
  synchronized int openCount() {
    return leased.size();
  }

  private synchronized void closeIfIdle(String key, Entry<T> e) {
    if (open.get(key) == e && e.leases == 0) {
      open.remove(key);
      close(e);
    }
  }

  private void close(Entry<T> e) {
    leased.remove(e.value);
    try {
      e.value.close();
    } catch (IOException | RuntimeException ignored) {
      // nobody is left to report to (a broken resource may fail to close): it is dropped either way
    }
  }
}
