package dev.rekey.jobs.guardrails;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a guardrail read found, as analyze and the backfill print it and write it in their JSON: the
 * limits, the rows checked, and per kind the rows found, per source region (start key in hex) and
 * the worst examples.
 *
 * @param limits the limits, as one line
 * @param rows rows checked
 * @param kinds one entry per {@link Guardrail}, in its order
 */
public record GuardrailReport(String limits, long rows, List<Kind> kinds) {
  /**
   * @param kind which limit
   * @param rows rows found
   * @param regions rows found per source region with any (start key hex → rows), in key order
   * @param worst the worst examples, worst first
   */
  public record Kind(
      Guardrail kind, long rows, Map<String, Long> regions, List<GuardrailTally.Example> worst) {}

  public GuardrailReport {
    kinds = List.copyOf(kinds);
  }

  /**
   * @param regionStarts the source regions' start keys in hex, in the order the tally counts them
   */
  public static GuardrailReport of(
      GuardrailLimits limits, GuardrailTally tally, List<String> regionStarts) {
    List<Kind> kinds = new ArrayList<>();
    for (Guardrail g : Guardrail.values()) {
      long[] per = tally.perRegion(g);
      Map<String, Long> regions = new LinkedHashMap<>();
      for (int i = 0; i < per.length; i++) {
        if (per[i] > 0) {
          regions.put(i < regionStarts.size() ? regionStarts.get(i) : "#" + i, per[i]);
        }
      }
      kinds.add(new Kind(g, tally.count(g), regions, tally.worst(g)));
    }
    return new GuardrailReport(limits.describe(), tally.rows(), kinds);
  }

  /** True when any row broke any limit. */
  public boolean found() {
    return kinds.stream().anyMatch(k -> k.rows() > 0);
  }

  public Kind kind(Guardrail g) {
    return kinds.get(g.ordinal());
  }

  /** The kinds found, as "2 cells over ..., 1 key ..." (empty when none). */
  public String summary() {
    List<String> parts = new ArrayList<>();
    for (Kind k : kinds) {
      if (k.rows() > 0) {
        parts.add(String.format(Locale.ROOT, "%,d %s", k.rows(), k.kind().title()));
      }
    }
    return String.join(", ", parts);
  }

  /** The report as printed: a head, then per kind found its regions and worst keys. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            "guardrails: %,d rows checked against %s: %s",
            rows,
            limits,
            found() ? summary() : "nothing found"));
    for (Kind k : kinds) {
      if (k.rows() == 0) {
        continue;
      }
      out.add(
          String.format(
              Locale.ROOT,
              "  %s: %,d rows in %d region(s)",
              k.kind(),
              k.rows(),
              k.regions().size()));
      k.regions()
          .forEach(
              (start, n) ->
                  out.add(
                      String.format(
                          Locale.ROOT,
                          "    region starting %s: %,d",
                          start.isEmpty() ? "(first)" : start,
                          n)));
      for (GuardrailTally.Example e : k.worst()) {
        out.add(String.format(Locale.ROOT, "    key %s: %s", e.keyHex(), e.detail()));
      }
    }
    return out;
  }

  /** For the job's JSON. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("limits", limits);
    m.put("rowsChecked", rows);
    m.put("found", found());
    Map<String, Object> byKind = new LinkedHashMap<>();
    for (Kind k : kinds) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("rows", k.rows());
      one.put("regions", k.regions());
      List<Map<String, Object>> worst = new ArrayList<>();
      for (GuardrailTally.Example e : k.worst()) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("key", e.keyHex());
        x.put("measure", e.measure());
        x.put("detail", e.detail());
        worst.add(x);
      }
      one.put("worst", worst);
      byKind.put(k.kind().name(), one);
    }
    m.put("kinds", byKind);
    return m;
  }
}
