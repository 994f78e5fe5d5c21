package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.compare.KeyDiff;
import dev.rekey.rowkey.Hex;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Per-bucket accumulator of the drill-down (Spark aggregateByKey): counts of differing natural keys
 * by kind and the {@code limit} smallest of them (by canonical natural key bytes in hex), so the
 * samples do not depend on partitioning.
 */
final class DrillDown implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int limit;
  private long missing;
  private long extra;
  private long changed;
  private final TreeMap<String, KeyDiff> smallest = new TreeMap<>();

  DrillDown(int limit) {
    this.limit = limit;
  }

  DrillDown add(KeyDiff d) {
    switch (d.kind()) {
      case MISSING_IN_NEW -> missing++;
      case EXTRA_IN_NEW -> extra++;
      default -> changed++;
    }
    keep(Hex.of(d.naturalKey()), d);
    return this;
  }

  DrillDown merge(DrillDown o) {
    missing += o.missing;
    extra += o.extra;
    changed += o.changed;
    o.smallest.forEach(this::keep);
    return this;
  }

  private void keep(String key, KeyDiff d) {
    if (limit == 0) {
      return;
    }
    smallest.put(key, d);
    if (smallest.size() > limit) {
      smallest.pollLastEntry();
    }
  }

  long missing() {
    return missing;
  }

  long extra() {
    return extra;
  }

  long changed() {
    return changed;
  }

  List<KeyDiff> samples() {
    return new ArrayList<>(smallest.values());
  }
}
