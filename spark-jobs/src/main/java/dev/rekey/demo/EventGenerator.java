package dev.rekey.demo;

import java.time.Instant;

/**
 * Deterministic synthetic product events (the events table, keyed by user and time): event i comes
 * from a user picked by a fixed mix of i (so users interleave like real traffic) at {@code start +
 * i * spacing}; every event has a distinct time, hence a distinct key. The same arguments always
 * give the same events, so tests recompute reports from the generator instead of trusting the job.
 */
public final class EventGenerator {
  /** Event types, cell e:type. */
  static final String[] TYPES = {"view", "view", "view", "click", "click", "purchase"};

  private final int events;
  private final int users;
  private final long start;
  private final long spacingMillis;

  public EventGenerator(int events, int users, long start, long windowMillis) {
    if (events < 1 || users < 1) {
      throw new IllegalArgumentException(
          "events and users must be at least 1 (got events=" + events + ", users=" + users + ")");
    }
    this.events = events;
    this.users = users;
    this.start = start;
    this.spacingMillis = Math.max(1, windowMillis / events);
  }

  /** events over the demo's day (2026-11-29 UTC). */
  public static EventGenerator oneDay(int events, int users) {
    return new EventGenerator(events, users, TelemetryGenerator.DEFAULT_START, 24L * 3600 * 1000);
  }

  /**
   * {@code perDay} events a day for {@code days} days, the last one the demo's day (2026-11-29
   * UTC): day d (0 = the first) holds events {@code d * perDay} to {@code (d + 1) * perDay - 1}.
   */
  public static EventGenerator days(int perDay, int users, int days) {
    long day = 24L * 3600 * 1000;
    return new EventGenerator(
        perDay * days, users, TelemetryGenerator.DEFAULT_START - (days - 1) * day, days * day);
  }

  public int events() {
    return events;
  }

  public int users() {
    return users;
  }

  public static String userId(int n) {
    return String.format("user-%04d", n);
  }

  public Event event(int i) {
    long mixed = (i * 0x9E3779B97F4A7C15L) >>> 17;
    int user = (int) Math.floorMod(mixed, (long) users);
    long ts = start + i * spacingMillis;
    String type = TYPES[(int) Math.floorMod(mixed >>> 20, (long) TYPES.length)];
    long value = type.equals("purchase") ? 100 + Math.floorMod(mixed >>> 8, 9_900L) : 0;
    return new Event(userId(user), ts, type, value);
  }

  /**
   * One event.
   *
   * @param userId the user ("user-0042")
   * @param ts event time, epoch millis (also the cell timestamp)
   * @param type view, click or purchase (cell e:type)
   * @param cents purchase amount, 0 for other events (cell e:cents, 8-byte long)
   */
  public record Event(String userId, long ts, String type, long cents) {
    @Override
    public String toString() {
      return userId + "@" + Instant.ofEpochMilli(ts) + ":" + type;
    }
  }
}
