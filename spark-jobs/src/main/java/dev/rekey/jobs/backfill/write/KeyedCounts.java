package dev.rekey.jobs.backfill.write;

import java.util.HashMap;
import java.util.Map;
import org.apache.spark.util.AccumulatorV2;

/**
 * Counts by string key (rows per region, rows per hour, ...). Updated only in the write stage,
 * which is the result stage of the save action: Spark merges a result task's accumulator updates
 * once, so retried and speculative attempts do not double count.
 */
public final class KeyedCounts extends AccumulatorV2<Map.Entry<String, Long>, Map<String, Long>> {
  private static final long serialVersionUID = 1L;
  private final HashMap<String, Long> counts = new HashMap<>();

  public void add(String key, long n) {
    counts.merge(key, n, Long::sum);
  }

  /**
   * The sum of the counts whose key starts with {@code prefix} ("rows." for every region's rows):
   * read on the driver while tasks merge in (a copy of the map, so a merge meanwhile is safe).
   */
  public long total(String prefix) {
    Map<String, Long> now;
    synchronized (this) {
      now = new HashMap<>(counts);
    }
    long n = 0;
    for (Map.Entry<String, Long> e : now.entrySet()) {
      if (e.getKey().startsWith(prefix)) {
        n += e.getValue();
      }
    }
    return n;
  }

  public long get(String key) {
    return counts.getOrDefault(key, 0L);
  }

  @Override
  public boolean isZero() {
    return counts.isEmpty();
  }

  @Override
  public AccumulatorV2<Map.Entry<String, Long>, Map<String, Long>> copy() {
    KeyedCounts c = new KeyedCounts();
    c.counts.putAll(counts);
    return c;
  }

  @Override
  public void reset() {
    counts.clear();
  }

  @Override
  public void add(Map.Entry<String, Long> v) {
    add(v.getKey(), v.getValue());
  }

  @Override
  public synchronized void merge(AccumulatorV2<Map.Entry<String, Long>, Map<String, Long>> other) {
    other.value().forEach(this::add);
  }

  @Override
  public Map<String, Long> value() {
    return counts;
  }
}
