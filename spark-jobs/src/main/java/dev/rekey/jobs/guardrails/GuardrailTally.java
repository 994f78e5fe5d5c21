package dev.rekey.jobs.guardrails;

import dev.rekey.rowkey.Hex;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The findings of a partition (or of all, once {@link #merge}d): per kind the rows found, per
 * source region, and the worst {@code worst} examples as hex keys (pure; Serializable for Spark).
 * Worst means the largest measure, ties and undecodable keys in key order, so a rerun and any merge
 * order keep the same examples.
 */
public final class GuardrailTally implements Serializable {
  private static final long serialVersionUID = 1L;

  /** One example row: its key in hex, its source region, the measure and what exactly. */
  public record Example(String keyHex, int region, long measure, String detail)
      implements Serializable {}

  /** Largest measure first, then key order. */
  static final Comparator<Example> WORST_FIRST =
      Comparator.comparingLong(Example::measure).reversed().thenComparing(Example::keyHex);

  private static final Guardrail[] KINDS = Guardrail.values();
  private final int worst;
  private final long[][] perRegion;
  private final long[] counts = new long[KINDS.length];
  private final List<List<Example>> examples = new ArrayList<>();
  private long rows;

  public GuardrailTally(int regions, int worst) {
    this.worst = worst;
    this.perRegion = new long[KINDS.length][Math.max(1, regions)];
    for (int i = 0; i < KINDS.length; i++) {
      examples.add(new ArrayList<>());
    }
  }

  /** A row checked in {@code region} with what it broke (often nothing). */
  public void add(int region, byte[] key, List<Finding> findings) {
    rows++;
    for (Finding f : findings) {
      int k = f.kind().ordinal();
      counts[k]++;
      perRegion[k][region]++;
      keep(k, new Example(Hex.of(key), region, f.measure(), f.detail()));
    }
  }

  private void keep(int kind, Example e) {
    List<Example> list = examples.get(kind);
    if (list.size() == worst && (worst == 0 || WORST_FIRST.compare(e, list.get(worst - 1)) >= 0)) {
      return; // not worse than the best kept
    }
    int at = 0;
    while (at < list.size() && WORST_FIRST.compare(list.get(at), e) <= 0) {
      at++;
    }
    list.add(at, e);
    if (list.size() > worst) {
      list.remove(list.size() - 1);
    }
  }

  /** This tally with {@code o}'s added (same regions and worst); returns this. */
  public GuardrailTally merge(GuardrailTally o) {
    rows += o.rows;
    for (int k = 0; k < KINDS.length; k++) {
      counts[k] += o.counts[k];
      for (int r = 0; r < perRegion[k].length; r++) {
        perRegion[k][r] += o.perRegion[k][r];
      }
      for (Example e : o.examples.get(k)) {
        keep(k, e);
      }
    }
    return this;
  }

  public long rows() {
    return rows;
  }

  public long count(Guardrail kind) {
    return counts[kind.ordinal()];
  }

  /** Rows found per source region, in region order. */
  public long[] perRegion(Guardrail kind) {
    return perRegion[kind.ordinal()].clone();
  }

  /** The worst examples, worst first. */
  public List<Example> worst(Guardrail kind) {
    return List.copyOf(examples.get(kind.ordinal()));
  }

  /** True when any row broke any limit. */
  public boolean found() {
    for (long c : counts) {
      if (c > 0) {
        return true;
      }
    }
    return false;
  }
}
