package dev.rekey.jobs.guardrails;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The guardrail decisions (pure): which limits a row breaks. The Spark glue ({@link GuardrailFold})
 * measures rows into {@link RowShape}s; the tally ({@link GuardrailTally}) counts and keeps the
 * worst.
 */
public final class Guardrails {
  private Guardrails() {}

  /** Every limit {@code row} breaks, in {@link Guardrail} order; empty when it breaks none. */
  public static List<Finding> check(GuardrailLimits limits, RowShape row) {
    List<Finding> out = new ArrayList<>(1);
    if (limits.maxRowBytes() > 0 && row.rowBytes() > limits.maxRowBytes()) {
      out.add(
          new Finding(
              Guardrail.ROW_TOO_BIG,
              row.rowBytes(),
              String.format(
                  Locale.ROOT,
                  "%,d bytes over %,d (%d columns)",
                  row.rowBytes(),
                  limits.maxRowBytes(),
                  row.columns())));
    }
    if (limits.maxCellBytes() > 0 && row.largestCellBytes() > limits.maxCellBytes()) {
      out.add(
          new Finding(
              Guardrail.CELL_TOO_BIG,
              row.largestCellBytes(),
              String.format(
                  Locale.ROOT,
                  "cell %s is %,d bytes over %,d",
                  row.largestCell(),
                  row.largestCellBytes(),
                  limits.maxCellBytes())));
    }
    if (limits.maxColumns() > 0 && row.columns() > limits.maxColumns()) {
      out.add(
          new Finding(
              Guardrail.ROW_TOO_WIDE,
              row.columns(),
              String.format(
                  Locale.ROOT, "%,d columns over %,d", row.columns(), limits.maxColumns())));
    }
    if (row.targetKeyBytes() > limits.maxKeyBytes()) {
      out.add(
          new Finding(
              Guardrail.KEY_TOO_LONG,
              row.targetKeyBytes(),
              String.format(
                  Locale.ROOT,
                  "%s key of %,d bytes over %,d",
                  limits.target() == null ? "the" : "the rekeyed",
                  row.targetKeyBytes(),
                  limits.maxKeyBytes())));
    }
    if (row.undecodable() != null) {
      out.add(new Finding(Guardrail.UNDECODABLE, 0, row.undecodable()));
    }
    return out;
  }
}
