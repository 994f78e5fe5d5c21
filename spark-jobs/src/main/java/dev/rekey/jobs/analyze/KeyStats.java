package dev.rekey.jobs.analyze;

import dev.rekey.rowkey.DecodedKey;
import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.FieldType;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyDecodeException;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.PrefixSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The key statistics of analyze, as pure functions over sampled keys and region boundaries
 * (unsigned byte order, as HBase compares keys). Region boundaries are given as the regions' start
 * keys, the first one empty.
 */
public final class KeyStats {
  /** Recent writes: the last hour before the newest timestamp in the sample. */
  public static final long RECENT_WINDOW_MS = 3_600_000L;

  /**
   * If the sample spans less than this, "recent" is the newest tenth of the rows instead of the
   * last hour.
   */
  public static final long MIN_SPAN_FOR_HOUR_MS = 2 * RECENT_WINDOW_MS;

  private KeyStats() {}

  /** Rows per leading byte value (256 bins); empty keys are not counted. */
  public static long[] leadingByteHistogram(List<byte[]> keys) {
    long[] h = new long[256];
    for (byte[] k : keys) {
      if (k.length > 0) {
        h[k[0] & 0xff]++;
      }
    }
    return h;
  }

  /**
   * The eighth of the leading-byte space (32 values: 0x00-0x1f, 0x20-0x3f, ...) holding the most
   * rows: its index.
   */
  public static int busiestEighth(long[] histogram) {
    int best = 0;
    long bestRows = -1;
    for (int e = 0; e < 8; e++) {
      long rows = eighthRows(histogram, e);
      if (rows > bestRows) {
        bestRows = rows;
        best = e;
      }
    }
    return best;
  }

  /**
   * Share (0..1) of the rows in the busiest eighth of the leading-byte space; 1/8 = perfectly even.
   */
  public static double busiestEighthShare(long[] histogram) {
    long total = Arrays.stream(histogram).sum();
    return total == 0 ? 0 : (double) eighthRows(histogram, busiestEighth(histogram)) / total;
  }

  private static long eighthRows(long[] h, int e) {
    long rows = 0;
    for (int b = e * 32; b < e * 32 + 32; b++) {
      rows += h[b];
    }
    return rows;
  }

  /**
   * The leading byte judged against the prefix the layout declares. A salt byte takes only 0..N-1
   * by design (all of it in the first eighth of the byte space for N up to 32), so a salted key is
   * judged by how evenly its N buckets fill; a hash prefix or an unprefixed key by the eighths of
   * the byte space.
   *
   * @param prefix the layout's prefix, or null when no layout was given
   */
  public static String leadingByte(long[] histogram, PrefixSpec prefix) {
    long total = Arrays.stream(histogram).sum();
    if (prefix != null && prefix.kind() == PrefixSpec.Kind.SALT && total > 0) {
      int n = prefix.buckets();
      long min = Long.MAX_VALUE;
      long max = 0;
      long inBuckets = 0;
      for (int b = 0; b < n && b < histogram.length; b++) {
        min = Math.min(min, histogram[b]);
        max = Math.max(max, histogram[b]);
        inBuckets += histogram[b];
      }
      return String.format(
          Locale.ROOT,
          "leading byte: the salt (salting, N = %d: bytes 0x00-0x%02x); each bucket "
              + "holds %.1f%% to %.1f%% of rows (%.2f%% is even)%s",
          n,
          n - 1,
          100.0 * min / total,
          100.0 * max / total,
          100.0 / n,
          inBuckets < total
              ? String.format(
                  Locale.ROOT,
                  "; %.1f%% of rows lead with a byte outside the " + "salt's range",
                  100.0 * (total - inBuckets) / total)
              : "");
    }
    int e = busiestEighth(histogram);
    String what =
        prefix != null && prefix.kind() == PrefixSpec.Kind.HASH_PREFIX
            ? "leading byte (of the hash prefix)"
            : "leading byte";
    return String.format(
        Locale.ROOT,
        "%s: the busiest eighth 0x%02x-0x%02x holds %.1f%% of rows (12.5%% is even)",
        what,
        e * 32,
        e * 32 + 31,
        100 * busiestEighthShare(histogram));
  }

  /** Index of the region holding the key: the last region whose start key is ≤ the key. */
  public static int regionOf(List<byte[]> startKeys, byte[] key) {
    int lo = 0;
    int hi = startKeys.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (Arrays.compareUnsigned(startKeys.get(mid), key) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** Region start keys for split points: {@code [empty, p1, p2, ...]}. */
  public static List<byte[]> startKeys(List<byte[]> splitPoints) {
    List<byte[]> s = new ArrayList<>(splitPoints.size() + 1);
    s.add(new byte[0]);
    s.addAll(splitPoints);
    return s;
  }

  /** Keys per region. */
  public static long[] rowsPerRegion(List<byte[]> startKeys, List<byte[]> keys) {
    long[] c = new long[startKeys.size()];
    for (byte[] k : keys) {
      c[regionOf(startKeys, k)]++;
    }
    return c;
  }

  /**
   * max ÷ mean of the counts (1 = perfectly even; n = everything in one of n). 0 when there are no
   * rows.
   */
  public static double maxOverMean(long[] counts) {
    long total = Arrays.stream(counts).sum();
    if (total == 0 || counts.length == 0) {
      return 0;
    }
    long max = Arrays.stream(counts).max().orElse(0);
    return max / ((double) total / counts.length);
  }

  /** Samples in write order (timestamp, then key). */
  public static List<KeySample> byTime(List<KeySample> samples) {
    List<KeySample> s = new ArrayList<>(samples);
    s.sort(
        Comparator.comparingLong(KeySample::ts)
            .thenComparing(KeySample::key, Arrays::compareUnsigned));
    return s;
  }

  /**
   * Share (0..1) of writes, in timestamp order, whose key is above every earlier key of the sample:
   * the writes that append at the end of the key space, i.e. land in the last region. About 1 for a
   * key led by a growing field, about 1/N for N salt buckets (only the top bucket's newest rows),
   * near 0 for a hashed key. (Comparing only consecutive pairs is fooled by linear hashes such as
   * Arrays.hashCode, whose salt walks upwards in steps.)
   */
  public static double appendFraction(List<KeySample> samples) {
    List<KeySample> s = byTime(samples);
    if (s.size() < 2) {
      return 0;
    }
    byte[] max = s.get(0).key();
    long appends = 0;
    for (int i = 1; i < s.size(); i++) {
      byte[] k = s.get(i).key();
      if (Arrays.compareUnsigned(k, max) > 0) {
        appends++;
        max = k;
      }
    }
    return (double) appends / (s.size() - 1);
  }

  /**
   * The recent writes: the last hour of the sample, or its newest tenth if the sample spans under
   * two hours.
   */
  public static RecentWindow recentWindow(List<KeySample> samples) {
    List<KeySample> s = byTime(samples);
    if (s.isEmpty()) {
      return new RecentWindow("no rows", List.of());
    }
    long max = s.get(s.size() - 1).ts();
    long min = s.get(0).ts();
    if (max - min >= MIN_SPAN_FOR_HOUR_MS) {
      List<KeySample> last = new ArrayList<>();
      for (KeySample k : s) {
        if (k.ts() > max - RECENT_WINDOW_MS) {
          last.add(k);
        }
      }
      return new RecentWindow("the last hour's", last);
    }
    int n = Math.max(1, s.size() / 10);
    return new RecentWindow("the newest 10% of", s.subList(s.size() - n, s.size()));
  }

  /** The recent rows, and how to name them in a sentence ("the last hour's rows"). */
  public record RecentWindow(String label, List<KeySample> rows) {
    public List<byte[]> keys() {
      List<byte[]> k = new ArrayList<>(rows.size());
      rows.forEach(r -> k.add(r.key()));
      return k;
    }
  }

  /**
   * The odds that an even spread puts at least {@code busiest} of {@code rows} rows into one of
   * {@code bins} bins (regions, salt buckets, eighths of the byte space): each row lands in a bin
   * with probability 1/bins, so one bin's count is Binomial(rows, 1/bins), and the busiest of
   * {@code bins} bins is bounded by bins × P(Binomial(rows, 1/bins) ≥ busiest) (the union bound:
   * the busiest bin is picked after looking). 1 when there is one bin or no row: nothing to judge.
   */
  public static double chanceOfBusiest(long rows, long busiest, int bins) {
    if (bins <= 1 || rows <= 0) {
      return 1;
    }
    return Math.min(1, bins * binomialTail(rows, busiest, 1.0 / bins));
  }

  /**
   * P(X ≥ k) for X ~ Binomial(n, p), summed in log space from the pmf at k (exact; n is at most the
   * sample, 100,000 rows by default).
   */
  static double binomialTail(long n, long k, double p) {
    if (k <= 0) {
      return 1;
    }
    if (k > n) {
      return 0;
    }
    // log pmf(k) = log C(n, k) + k log p + (n - k) log(1 - p)
    double logPmf = k * Math.log(p) + (n - k) * Math.log1p(-p);
    for (long j = 1; j <= k; j++) {
      logPmf += Math.log((double) (n - k + j) / j);
    }
    // pmf(i + 1) / pmf(i) = (n - i) / (i + 1) × p / (1 - p); sum the terms relative to pmf(k)
    double sum = 0;
    double term = 1;
    for (long i = k; i <= n && term > 1e-17 * sum; i++) {
      sum += term;
      term *= (double) (n - i) / (i + 1) * p / (1 - p);
    }
    return Math.min(1, Math.exp(logPmf + Math.log(sum)));
  }

  /**
   * The entity with the most rows among the keys: the values of the layout's fields other than its
   * time field (and derived sub-buckets), e.g. the deviceId of {@code ts | deviceId}; null when the
   * layout has no such field. Keys the layout cannot decode are not counted.
   */
  public static Entity busiestEntity(KeyLayout layout, List<byte[]> keys) {
    if (layout == null || !layout.decodable()) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (FieldSpec f : layout.fields()) {
      if (f.type() != FieldType.SUB_BUCKET && !layout.timeField().orElse("").equals(f.name())) {
        names.add(f.name());
      }
    }
    if (names.isEmpty()) {
      return null;
    }
    Map<String, Long> rows = new HashMap<>();
    for (byte[] k : keys) {
      DecodedKey d;
      try {
        d = layout.decode(k);
      } catch (KeyDecodeException e) {
        continue;
      }
      StringBuilder label = new StringBuilder();
      for (String n : names) {
        Object v = d.get(n);
        label
            .append(label.length() == 0 ? "" : ", ")
            .append(n)
            .append(' ')
            .append(v instanceof byte[] b ? "0x" + Hex.of(b) : String.valueOf(v));
      }
      rows.merge(label.toString(), 1L, Long::sum);
    }
    return rows.entrySet().stream()
        .max(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
        .map(e -> new Entity(e.getKey(), e.getValue()))
        .orElse(null);
  }

  /**
   * One entity of the key and its rows.
   *
   * @param label its fields and values, as a sentence shows them ("deviceId 0x00..")
   */
  public record Entity(String label, long rows) {}

  /** Index of the largest count (first on ties). */
  public static int argMax(long[] counts) {
    int best = 0;
    for (int i = 1; i < counts.length; i++) {
      if (counts[i] > counts[best]) {
        best = i;
      }
    }
    return best;
  }

  /** Number of regions whose count is above zero. */
  public static int nonEmpty(long[] counts) {
    return (int) Arrays.stream(counts).filter(c -> c > 0).count();
  }

  /**
   * True if every split point is hex text (ASCII 0-9, a-f, A-F), as HexStringSplit makes, while
   * fewer than half of the keys start with such a character: hex-text boundaries on a raw-byte key
   * space (a classic mistake).
   */
  public static boolean hexSplitsOnRawKeys(List<byte[]> splitPoints, List<byte[]> keys) {
    if (splitPoints.isEmpty() || keys.isEmpty()) {
      return false;
    }
    for (byte[] p : splitPoints) {
      for (byte b : p) {
        if (!isHexChar(b)) {
          return false;
        }
      }
    }
    long hexLed = keys.stream().filter(k -> k.length > 0 && isHexChar(k[0])).count();
    return hexLed * 2 < keys.size();
  }

  /**
   * Why hex-text split points do not fit a raw-byte key space: the reason analyze's simulation
   * warns with and create-table refuses with.
   */
  public static final String HEX_ON_RAW =
      "Hex-text split points such as 04000000 are ASCII; use UniformSplit or the layout's own split"
          + " points for raw bytes (docs/layouts.md: split points)";

  static boolean isHexChar(byte b) {
    return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
  }
}
