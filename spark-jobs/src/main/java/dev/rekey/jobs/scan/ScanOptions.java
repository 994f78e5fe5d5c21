package dev.rekey.jobs.scan;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.read.ReadPlan;
import dev.rekey.read.RegionReader;
import dev.rekey.read.Source;
import dev.rekey.rowkey.FieldValues;
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validated, immutable options of one scan (the plan layer: no Spark, no HBase). Build with {@link
 * #builder()}; {@link Builder#build()} rejects bad combinations with messages that name the option
 * and the fix.
 */
public final class ScanOptions {
  /** Default {@code --out}: relative to the working directory. */
  public static final String DEFAULT_OUT = "scan-out";

  public static final OutputFormat DEFAULT_FORMAT = OutputFormat.PARQUET;
  public static final int DEFAULT_SPLITS_PER_REGION = 1;
  public static final int MAX_SPLITS_PER_REGION = 64;

  /** Undecodable keys shown (hex) in the failure message and summary. */
  public static final int DEFAULT_SAMPLES = 5;

  /** Report rows shown per table in report.html (all rows are in the output files). */
  public static final int DEFAULT_HTML_ROWS = 200;

  private final Source source;
  private final KeyLayout layout;
  private final TimeWindow window;
  private final List<ReportFile> reports;
  private final String out;
  private final OutputFormat format;
  private final int splitsPerRegion;
  private final List<String> families;
  private final List<WideColumn> columns;
  private final Map<String, String> params;
  private final int caching;
  private final int samples;
  private final int htmlRows;
  private final Map<String, String> where;
  private final ReadPlan readPlan;

  private ScanOptions(Builder b, List<WideColumn> columns, ReadPlan readPlan) {
    this.where = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(b.where));
    this.readPlan = readPlan;
    this.source = b.source;
    this.layout = b.layout;
    this.window = b.window;
    this.reports = List.copyOf(b.reports);
    this.out = b.out;
    this.format = b.format;
    this.splitsPerRegion = b.splitsPerRegion;
    this.families = List.copyOf(b.families);
    this.columns = List.copyOf(columns);
    this.params = Map.copyOf(b.params);
    this.caching = b.caching;
    this.samples = b.samples;
    this.htmlRows = b.htmlRows;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Source source() {
    return source;
  }

  public KeyLayout layout() {
    return layout;
  }

  public TimeWindow window() {
    return window;
  }

  public List<ReportFile> reports() {
    return reports;
  }

  /** As given: a path or Hadoop URI, resolved by the job ({@link dev.rekey.common.OutputDir}). */
  public String out() {
    return out;
  }

  public OutputFormat format() {
    return format;
  }

  public int splitsPerRegion() {
    return splitsPerRegion;
  }

  /** Families to read; empty = all. */
  public List<String> families() {
    return families;
  }

  /** Wide columns: --column ones first, then those the reports declare (deduplicated). */
  public List<WideColumn> columns() {
    return columns;
  }

  /** --param values (every one is declared by some report); from/to come from the window. */
  public Map<String, String> params() {
    return params;
  }

  /** The values a report is rendered with: --param values plus from/to of the window. */
  public Map<String, String> reportValues() {
    Map<String, String> v = new LinkedHashMap<>(params);
    v.put("from", Long.toString(window.from()));
    v.put("to", Long.toString(window.to()));
    return v;
  }

  public int caching() {
    return caching;
  }

  public int samples() {
    return samples;
  }

  public int htmlRows() {
    return htmlRows;
  }

  /** --where FIELD=VALUE pairs (the key's leading fields, in key order): one entity's key range. */
  public Map<String, String> where() {
    return where;
  }

  /**
   * What the scan reads: the key ranges of the window when the layout keeps time in key order (else
   * every key, the window being a cell time range), narrowed to the --where entity's range.
   */
  public ReadPlan readPlan() {
    return readPlan;
  }

  /** Builder; every setter takes the CLI's value as is, {@link #build()} validates. */
  public static final class Builder {
    private Source source;
    private KeyLayout layout;
    private TimeWindow window = TimeWindow.ALL;
    private final List<ReportFile> reports = new ArrayList<>();
    private String out = DEFAULT_OUT;
    private OutputFormat format = DEFAULT_FORMAT;
    private int splitsPerRegion = DEFAULT_SPLITS_PER_REGION;
    private final List<String> families = new ArrayList<>();
    private final List<WideColumn> columns = new ArrayList<>();
    private final Map<String, String> params = new LinkedHashMap<>();
    private int caching = RegionReader.DEFAULT_CACHING;
    private int samples = DEFAULT_SAMPLES;
    private int htmlRows = DEFAULT_HTML_ROWS;
    private final Map<String, String> where = new LinkedHashMap<>();

    public Builder source(Source s) {
      this.source = s;
      return this;
    }

    public Builder table(String t) {
      return source(Source.table(t));
    }

    public Builder snapshot(String s) {
      return source(Source.snapshot(s));
    }

    public Builder layout(KeyLayout l) {
      this.layout = l;
      return this;
    }

    public Builder window(TimeWindow w) {
      this.window = w;
      return this;
    }

    public Builder report(ReportFile r) {
      this.reports.add(r);
      return this;
    }

    public Builder reports(List<ReportFile> r) {
      this.reports.addAll(r);
      return this;
    }

    public Builder out(String dirOrUri) {
      this.out = dirOrUri;
      return this;
    }

    /** A local directory. */
    public Builder out(Path p) {
      this.out = p.toAbsolutePath().toString();
      return this;
    }

    public Builder format(OutputFormat f) {
      this.format = f;
      return this;
    }

    public Builder splitsPerRegion(int k) {
      this.splitsPerRegion = k;
      return this;
    }

    public Builder families(List<String> f) {
      this.families.addAll(f);
      return this;
    }

    public Builder column(WideColumn c) {
      this.columns.add(c);
      return this;
    }

    public Builder columns(List<WideColumn> c) {
      this.columns.addAll(c);
      return this;
    }

    /** A report parameter, KEY=VALUE. */
    public Builder param(String keyValue) {
      int eq = keyValue.indexOf('=');
      if (eq <= 0) {
        throw RekeyException.usage(
            "Invalid --param '" + keyValue + "': expected NAME=VALUE, e.g. window_minutes=5");
      }
      return param(keyValue.substring(0, eq).trim(), keyValue.substring(eq + 1));
    }

    public Builder param(String name, String value) {
      this.params.put(name, value);
      return this;
    }

    /** An entity's key field, FIELD=VALUE (values as `rekey key encode` takes them). */
    public Builder where(String keyValue) {
      int eq = keyValue.indexOf('=');
      if (eq <= 0) {
        throw RekeyException.usage(
            "Invalid --where '" + keyValue + "': expected FIELD=VALUE, e.g. userId=alice");
      }
      this.where.put(keyValue.substring(0, eq).trim(), keyValue.substring(eq + 1));
      return this;
    }

    public Builder caching(int c) {
      this.caching = c;
      return this;
    }

    public Builder samples(int s) {
      this.samples = s;
      return this;
    }

    public Builder htmlRows(int n) {
      this.htmlRows = n;
      return this;
    }

    public ScanOptions build() {
      if (source == null) {
        throw RekeyException.usage("Give exactly one of --table T or --snapshot S");
      }
      if (layout == null) {
        throw RekeyException.usage(
            "Missing --layout: the layout file that decodes %s's row keys (e.g."
                + " conf/layouts/events-v2.yaml)",
            source);
      }
      if (!layout.decodable()) {
        throw RekeyException.usage(
            "Cannot scan %s with layout %s: its keys are full hashes and cannot be"
                + " decoded into fields; give the layout of a table that keeps the natural"
                + " key",
            source, layout.name());
      }
      if (splitsPerRegion < 1 || splitsPerRegion > MAX_SPLITS_PER_REGION) {
        throw RekeyException.usage(
            "Invalid --splits-per-region %s: expected 1..%s",
            splitsPerRegion, MAX_SPLITS_PER_REGION);
      }
      if (caching < 0) {
        throw RekeyException.usage(
            "Invalid --caching %s: expected a number of rows, or 0 for HBase's own setting",
            caching);
      }
      for (String f : families) {
        if (f.isBlank() || f.contains(":")) {
          throw RekeyException.usage(
              "Invalid --families entry '" + f + "': give family names, e.g. --families d,e");
        }
      }
      Set<String> names = new LinkedHashSet<>();
      for (ReportFile r : reports) {
        if (!names.add(r.name())) {
          throw RekeyException.usage(
              "Report %s given twice (%s): each report writes --out/%s/",
              r.name(), r.path(), r.name());
        }
      }
      for (String p : params.keySet()) {
        if (p.equals("from") || p.equals("to")) {
          throw RekeyException.usage(
              "--param " + p + " is set by the scan from --from/--to/--day; use those");
        }
        if (reports.stream().noneMatch(r -> r.params().containsKey(p))) {
          throw RekeyException.usage(
              "Unknown --param %s: no report declares it (reports: %s)", p, names);
        }
      }
      return new ScanOptions(
          this, ScanColumns.merge(layout, columns, reports, families), readPlan());
    }

    private ReadPlan readPlan() {
      ReadPlan p =
          window.equals(TimeWindow.ALL)
              ? ReadPlan.all()
              : ReadPlan.window(layout, window.from(), window.to());
      if (where.isEmpty()) {
        return p;
      }
      try {
        return ReadPlan.entity(layout, FieldValues.parse(layout, where)).and(p);
      } catch (IllegalArgumentException e) { // KeyEncodeException is one
        throw RekeyException.usage(
            "Cannot scan %s --where %s: %s (give the key's leading fields in key"
                + " order, %s, e.g. --where %s=VALUE)",
            source, where, e.getMessage(), layout.fieldNames(), layout.fieldNames().get(0));
      }
    }
  }
}
