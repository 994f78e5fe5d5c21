package dev.rekey.jobs.reconcile;

import dev.rekey.rowkey.Hex;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-bucket accumulator of the drill-down (Spark aggregateByKey): counts of differing natural keys
 * by kind and the {@code limit} smallest of them (by canonical natural key bytes in hex), so the
 * samples do not depend on partitioning.
 */
final class DrillDown implements Serializable {
  private static final long serialVersionUID = 1L;

  /** One differing natural key: old and/or new row (null = absent on that side). */
  record Diff(Sample.Kind kind, RowRecord old, RowRecord neu) implements Serializable {
    String naturalKeyHex() {
      return Hex.of(old != null ? old.naturalKey() : neu.naturalKey());
    }
  }

  private final int limit;
  private long missing;
  private long extra;
  private long changed;
  private final TreeMap<String, Diff> smallest = new TreeMap<>();

  DrillDown(int limit) {
    this.limit = limit;
  }

  /** The diff between the two sides' rows of one natural key, or null if they agree. */
  static Diff diff(RowRecord old, RowRecord neu) {
    if (old == null) {
      return new Diff(Sample.Kind.EXTRA_IN_NEW, null, neu);
    }
    if (neu == null) {
      return new Diff(Sample.Kind.MISSING_IN_NEW, old, null);
    }
    if (old.bucket() != neu.bucket()
        || old.cells() != neu.cells()
        || !old.digest().equals(neu.digest())) {
      return new Diff(Sample.Kind.CONTENT_DIFFERS, old, neu);
    }
    return null;
  }

  DrillDown add(Diff d) {
    switch (d.kind()) {
      case MISSING_IN_NEW -> missing++;
      case EXTRA_IN_NEW -> extra++;
      default -> changed++;
    }
    keep(d.naturalKeyHex(), d);
    return this;
  }

  DrillDown merge(DrillDown o) {
    missing += o.missing;
    extra += o.extra;
    changed += o.changed;
    o.smallest.forEach(this::keep);
    return this;
  }

  private void keep(String key, Diff d) {
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

  List<Diff> samples() {
    return new ArrayList<>(smallest.values());
  }

  Map<String, Diff> byKey() {
    return smallest;
  }
}
