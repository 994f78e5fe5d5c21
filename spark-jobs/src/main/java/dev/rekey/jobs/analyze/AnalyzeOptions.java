package dev.rekey.jobs.analyze;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TableNames;
import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.guardrails.GuardrailRequest;
import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;

/**
 * Validated options of an analyze run (plan layer: no Spark, no HBase). Build with {@link
 * #builder()}; {@link Builder#build()} throws a usage RekeyException before anything starts.
 *
 * @param source the live table or a snapshot (its table's regions and metrics are shown)
 * @param layout the layout of the keys, or null (enables salt tail placement and the simulation)
 * @param sample keys to sample
 * @param servers RegionServers the new table will have (bucket count advice), or null: the live
 *     ones
 * @param window only the rows of this time window are analyzed ({@link TimeWindow#ALL}: every row):
 *     the layout's key ranges holding it when its time field follows the prefix, else a cell time
 *     range
 * @param layout2 a proposed layout to simulate on the sampled keys, or null (the keys as they are)
 * @param splits proposed split points to simulate, or null (no simulation)
 * @param out where analyze.json and analyze.html go, a path or Hadoop URI as given ({@link
 *     dev.rekey.common.OutputDir}), or null (none written)
 * @param guardrails check every row read against the cluster's size limits and these ({@code
 *     --guardrails}), or null (not checked)
 */
public record AnalyzeOptions(
    Source source,
    KeyLayout layout,
    int sample,
    Integer servers,
    TimeWindow window,
    KeyLayout layout2,
    SplitSpec splits,
    String out,
    GuardrailRequest guardrails) {
  public static final int DEFAULT_SAMPLE = 100_000;
  public static final int MIN_SAMPLE = 100;

  /** Every check a bad option fails, here so that no AnalyzeOptions exists unchecked. */
  public AnalyzeOptions {
    if (source == null || source.kind() == Source.Kind.TABLE_VIA_SNAPSHOT) {
      throw RekeyException.usage(
          "Cannot analyze: no source (give --table T, or --snapshot S to read its files)");
    }
    if (source.kind() == Source.Kind.TABLE) {
      TableNames.parse(source.name(), "analyze");
    }
    String what = "Cannot analyze " + source + ": ";
    if (sample < MIN_SAMPLE) {
      throw RekeyException.usage(
          "%s--sample %s is too small (give at least %s)", what, sample, MIN_SAMPLE);
    }
    if (servers != null && servers < 1) {
      throw RekeyException.usage(
          "%s--servers %s is not a count of servers (give 1 or more)", what, servers);
    }
    if (window == null) {
      throw RekeyException.usage(what + "no time window (give --from/--to, or none for all)");
    }
    if (layout2 != null && splits == null) {
      throw RekeyException.usage(
          what + "--layout2 needs --splits (hex:N, uniform:N, natural[:N] or a split file)");
    }
    if (layout2 != null && layout == null) {
      throw RekeyException.usage(
          "%ssimulating --layout2 %s needs the current layout (--layout) to decode"
              + " the sampled keys",
          what, layout2.name());
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder {
    private Source source;
    private KeyLayout layout;
    private int sample = DEFAULT_SAMPLE;
    private Integer servers;
    private TimeWindow window = TimeWindow.ALL;
    private KeyLayout layout2;
    private String splits;
    private String out;
    private GuardrailRequest guardrails;

    /** The live table or a snapshot; read through the RegionServers or from its files. */
    public Builder source(Source s) {
      this.source = s;
      return this;
    }

    public Builder layout(KeyLayout l) {
      this.layout = l;
      return this;
    }

    public Builder sample(int n) {
      this.sample = n;
      return this;
    }

    public Builder servers(Integer s) {
      this.servers = s;
      return this;
    }

    /** Analyze only the rows of this window (built by {@code TimeArgs.window}). */
    public Builder window(TimeWindow w) {
      this.window = w;
      return this;
    }

    /**
     * Simulate a proposed layout (null = the keys as they are) with split points (hex:N, uniform:N,
     * natural[:N] or a split file).
     */
    public Builder simulate(KeyLayout proposed, String splitSpec) {
      this.layout2 = proposed;
      this.splits = splitSpec;
      return this;
    }

    public Builder out(String dir) {
      this.out = dir;
      return this;
    }

    /** Check every row read against the guardrails (null: not checked). */
    public Builder guardrails(GuardrailRequest g) {
      this.guardrails = g;
      return this;
    }

    public AnalyzeOptions build() {
      SplitSpec spec = null;
      if (splits != null && source != null) {
        try {
          spec = SplitSpec.parse(splits, layout2 != null ? layout2 : layout);
        } catch (IllegalArgumentException e) {
          throw RekeyException.usage("Cannot analyze %s: %s", source, e.getMessage());
        }
      }
      return new AnalyzeOptions(
          source, layout, sample, servers, window, layout2, spec, out, guardrails);
    }
  }
}
