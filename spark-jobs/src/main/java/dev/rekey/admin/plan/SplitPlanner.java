package dev.rekey.admin.plan;

import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.PrefixSpec;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Pure pre-split planning (no cluster): how many regions, and where they start, for a layout. The
 * numbers are the usual sizing rules: regions = GB ÷ region GB × growth (1.5–2), rounded up to a
 * power of two; bucket count N = 1–2× the RegionServers rounded to a power of two, ≤ 256; a few (4)
 * regions per RegionServer for hashed keys; split points from the rowkey library ({@link
 * KeyLayout#splitPoints}); monthly boundaries for time-first keys.
 */
public final class SplitPlanner {
  public static final double MIN_GROWTH = 1.5;
  public static final double MAX_GROWTH = 2.0;
  public static final double DEFAULT_REGION_GB = 6;

  /**
   * Regions per RegionServer when planning by server count: the usual pre-split guidance's worked
   * example, 24 RegionServers with 96 regions.
   */
  public static final int REGIONS_PER_SERVER = 4;

  public static final int MAX_BUCKETS = 256;

  private final KeyLayout layout;
  private Integer regions;
  private Double volumeGb;
  private double regionGb = DEFAULT_REGION_GB;
  private double growth = MIN_GROWTH;
  private Integer servers;
  private YearMonth monthFrom;
  private YearMonth monthTo;

  private SplitPlanner(KeyLayout layout) {
    this.layout = layout;
  }

  public static SplitPlanner forLayout(KeyLayout layout) {
    return new SplitPlanner(layout);
  }

  public SplitPlanner regions(int n) {
    this.regions = n;
    return this;
  }

  public SplitPlanner volume(double gb, double regionGb, double growth) {
    this.volumeGb = gb;
    this.regionGb = regionGb;
    this.growth = growth;
    return this;
  }

  public SplitPlanner servers(int s) {
    this.servers = s;
    return this;
  }

  public SplitPlanner monthly(YearMonth from, YearMonth to) {
    this.monthFrom = from;
    this.monthTo = to;
    return this;
  }

  /** Parses {@code 2026-01..2026-06}. */
  public static YearMonth[] parseMonths(String range) {
    String[] p = range.split("\\.\\.", -1);
    if (p.length != 2) {
      throw new IllegalArgumentException(
          "--monthly must be FROM..TO as yyyy-MM..yyyy-MM (e.g. 2026-01..2026-06), got '"
              + range
              + "'");
    }
    try {
      YearMonth from = YearMonth.parse(p[0].trim());
      YearMonth to = YearMonth.parse(p[1].trim());
      if (to.isBefore(from)) {
        throw new IllegalArgumentException("--monthly " + range + ": TO is before FROM");
      }
      return new YearMonth[] {from, to};
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException(
          "--monthly must be FROM..TO as yyyy-MM..yyyy-MM (e.g. 2026-01..2026-06), got '"
              + range
              + "'");
    }
  }

  /** The smallest power of two ≥ x (x ≥ 1). */
  public static int nextPowerOfTwo(long x) {
    if (x < 1) {
      throw new IllegalArgumentException("must be >= 1, got " + x);
    }
    long p = Long.highestOneBit(x);
    long r = p == x ? p : p << 1;
    if (r > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(x + " regions is more than any table can have");
    }
    return (int) r;
  }

  /** Bucket count N for S RegionServers: the power of two in [S, 2S), at most 256. */
  public static int bucketsFor(int servers) {
    return Math.min(MAX_BUCKETS, nextPowerOfTwo(servers));
  }

  /**
   * Regions for a volume: ceil(GB ÷ region GB × growth) rounded up to a power of two; the
   * arithmetic in words.
   */
  public static int regionsForVolume(
      double gb, double regionGb, double growth, List<String> arithmetic) {
    if (!(gb > 0) || !(regionGb > 0)) {
      throw new IllegalArgumentException(
          String.format(
              "--volume-gb and --region-gb must be > 0, got %s and %s", num(gb), num(regionGb)));
    }
    if (growth < MIN_GROWTH || growth > MAX_GROWTH) {
      throw new IllegalArgumentException(
          "--growth must be in 1.5..2 (room for 1.5 to 2 times today's data), got " + num(growth));
    }
    double raw = gb / regionGb * growth;
    long whole =
        (long) Math.ceil(Math.round(raw * 1e6) / 1e6); // 500/6*1.5 is 125.00000000000001 in doubles
    int n = nextPowerOfTwo(Math.max(1, whole));
    arithmetic.add(
        String.format(
            Locale.ROOT,
            "%s GB ÷ %s GB × %s = %s → %d regions (rounded up to a power of two)",
            num(gb),
            num(regionGb),
            num(growth),
            num(raw),
            n));
    return n;
  }

  public SplitPlan plan() {
    List<String> arithmetic = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    int modes = (regions != null ? 1 : 0) + (volumeGb != null ? 1 : 0) + (servers != null ? 1 : 0);
    if (modes > 1) {
      throw new IllegalArgumentException(
          "give one of --regions, --volume-gb, --servers (got " + modes + ")");
    }
    if (modes == 0 && monthFrom == null) {
      throw new IllegalArgumentException(
          "give one of --regions N, --volume-gb G [--region-gb R --growth 1.5..2], "
              + "--servers S, or --monthly FROM..TO");
    }
    Integer recommendedBuckets = null;
    Integer sized = null;
    if (regions != null) {
      if (regions < 1) {
        throw new IllegalArgumentException("--regions must be >= 1, got " + regions);
      }
      sized = regions;
      arithmetic.add(regions + " regions (given)");
    } else if (volumeGb != null) {
      sized = regionsForVolume(volumeGb, regionGb, growth, arithmetic);
    } else if (servers != null) {
      if (servers < 1) {
        throw new IllegalArgumentException("--servers must be >= 1, got " + servers);
      }
      recommendedBuckets = bucketsFor(servers);
      sized = regionsForServers(recommendedBuckets, arithmetic, warnings);
    }
    List<byte[]> points =
        monthFrom != null
            ? monthly(sized, arithmetic, warnings)
            : evenPoints(sized, arithmetic, warnings);
    return SplitPlan.of(
        layout.name(),
        layout.prefix().toString(),
        recommendedBuckets,
        arithmetic,
        warnings,
        points);
  }

  /** --servers S: N for a salted layout (its own N, warned about if it differs), else regions. */
  private int regionsForServers(
      int recommendedBuckets, List<String> arithmetic, List<String> warnings) {
    PrefixSpec prefix = layout.prefix();
    arithmetic.add(
        String.format(
            Locale.ROOT,
            "%d RegionServers → N = %d buckets (1–2× the servers, a power of two, ≤ 256)",
            servers,
            recommendedBuckets));
    if (servers > MAX_BUCKETS) {
      warnings.add(
          "more than 256 RegionServers: a one-byte salt caps N at 256; use a 2-byte hash prefix for more tails");
    }
    if (prefix.kind() != PrefixSpec.Kind.SALT) {
      int sized = servers * REGIONS_PER_SERVER;
      arithmetic.add(
          String.format(
              Locale.ROOT,
              "%d RegionServers × %d regions each = %d regions",
              servers,
              REGIONS_PER_SERVER,
              sized));
      return sized;
    }
    if (recommendedBuckets != prefix.buckets()) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "layout %s has N = %d buckets, but %d RegionServers call for N = %d: "
                  + "N is fixed when the table is created, so change `buckets:` in the layout now (salting: docs/layouts.md)",
              layout.name(),
              prefix.buckets(),
              servers,
              recommendedBuckets));
    }
    return prefix.buckets();
  }

  /** Split points spread over the key space as the layout's prefix spreads keys. */
  private List<byte[]> evenPoints(int sized, List<String> arithmetic, List<String> warnings) {
    PrefixSpec prefix = layout.prefix();
    switch (prefix.kind()) {
      case SALT -> {
        if (sized != prefix.buckets()) {
          arithmetic.add(
              String.format(
                  Locale.ROOT,
                  "salted layout: pre-split into its N = %d buckets, one region per "
                      + "write tail (not %d); the buckets split further behind their tails as they grow",
                  prefix.buckets(),
                  sized));
        } else {
          arithmetic.add(
              String.format(
                  Locale.ROOT,
                  "salt bytes 1..%d start the %d regions",
                  prefix.buckets() - 1,
                  prefix.buckets()));
        }
        return layout.splitPoints(prefix.buckets());
      }
      case HASH_PREFIX -> {
        arithmetic.add(
            String.format(
                Locale.ROOT,
                "even boundaries of the %d-byte hash prefix: i × %s ÷ %d",
                prefix.bytes(),
                spaceOf(prefix.bytes()),
                sized));
        return layout.splitPoints(sized);
      }
      default -> {
        arithmetic.add("UniformSplit over the raw key bytes (HBase RegionSplitter.UniformSplit)");
        if (layout.timeLeads() && prefix.kind() == PrefixSpec.Kind.NONE && sized > 1) {
          warnings.add(
              "layout "
                  + layout.name()
                  + " starts with the time field and has no prefix: uniform split "
                  + "points put today's writes all in one region. Pre-split by time with --monthly FROM..TO, or re-key "
                  + "with a salt (see `rekey analyze`)");
        }
        return layout.splitPoints(sized);
      }
    }
  }

  /**
   * Month starts FROM+1 .. TO+1 on the leading time field, within every salt bucket for a salted
   * layout.
   */
  private List<byte[]> monthly(Integer sized, List<String> arithmetic, List<String> warnings) {
    PrefixSpec prefix = layout.prefix();
    if (!layout.timeLeads()
        || (prefix.kind() != PrefixSpec.Kind.NONE && prefix.kind() != PrefixSpec.Kind.SALT)) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot plan monthly split points for layout %s (%s): time does not lead"
                  + " its keys, so a month is not a key range (use --regions, --volume-gb or"
                  + " --servers)",
              layout.name(), prefix));
    }
    FieldSpec time = layout.fields().get(0);
    List<byte[]> months = new ArrayList<>();
    int count = 0;
    for (YearMonth m = monthFrom.plusMonths(1);
        !m.isAfter(monthTo.plusMonths(1));
        m = m.plusMonths(1)) {
      long ms = m.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
      months.add(time.codec().valueBytes(ms));
      count++;
    }
    arithmetic.add(
        String.format(
            Locale.ROOT,
            "%d month(s) %s..%s → boundaries at %s-01 … %s-01 UTC on field '%s' → "
                + "%d time regions (the first also takes earlier rows; the last, from %s on, takes new writes)",
            count,
            monthFrom,
            monthTo,
            monthFrom.plusMonths(1),
            monthTo.plusMonths(1),
            time.name(),
            count + 1,
            monthTo.plusMonths(1)));
    List<byte[]> points = new ArrayList<>();
    if (prefix.kind() == PrefixSpec.Kind.SALT) {
      for (int b = 0; b < prefix.buckets(); b++) {
        if (b > 0) {
          points.add(new byte[] {(byte) b});
        }
        for (byte[] t : months) {
          byte[] p = Arrays.copyOf(new byte[] {(byte) b}, 1 + t.length);
          System.arraycopy(t, 0, p, 1, t.length);
          points.add(p);
        }
      }
      arithmetic.add(
          String.format(
              Locale.ROOT,
              "× %d salt buckets = %d regions",
              prefix.buckets(),
              prefix.buckets() * (count + 1)));
    } else {
      points.addAll(months);
      warnings.add(
          "time-first key without a prefix: the newest month's region takes every new write (pre-split "
              + "by time only when the write volume is controllable; docs/analyze-plan-check-config.md); volumes differ by month, so "
              + "merge or split regions as they age");
    }
    points.sort(Arrays::compareUnsigned); // reversed time sorts backwards
    if (sized != null && sized != points.size() + 1) {
      arithmetic.add(
          String.format(
              Locale.ROOT,
              "the monthly boundaries decide the region count (%d), not the sizing (%d)",
              points.size() + 1,
              sized));
    }
    return points;
  }

  private static String spaceOf(int bytes) {
    return bytes <= 3 ? String.format(Locale.ROOT, "%,d", 1L << (8 * bytes)) : "256^" + bytes;
  }

  /** 500 → "500", 1.5 → "1.5", 83.333 → "83.3". */
  static String num(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    String s = String.format(Locale.ROOT, "%.2f", d);
    s = s.replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }
}
