package dev.rekey.admin.createtable;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A {@code --family} argument: {@code
 * name[:compression=..,bloom=..,blocksize=..,encoding=..,ttl=..,versions=..,compaction=..]}. Values
 * are HBase's own names, case-insensitive: compression NONE|GZ|SNAPPY|LZ4|ZSTD|LZO, bloom
 * NONE|ROW|ROWCOL, encoding NONE|PREFIX|DIFF|FAST_DIFF|ROW_INDEX_V1, blocksize in bytes (suffix k
 * or m allowed), ttl in seconds (or FOREVER), versions ≥ 1; compaction DEFAULT|DATE_TIERED, the
 * latter with {@code window} (an ISO-8601 duration, default P1D), {@code windows_per_tier} (≥ 2)
 * and {@code max_age} (a duration) ({@link DateTiered}); new_version_behavior true|false (HBase's
 * NEW_VERSION_BEHAVIOR: a delete marker hides only cells written before it, so {@code rekey repair}
 * re-puts deleted cells without a major compaction). Unset settings keep HBase's defaults.
 */
public record FamilySpec(
    String name,
    Compression.Algorithm compression,
    BloomType bloom,
    Integer blockSize,
    DataBlockEncoding encoding,
    Integer ttlSeconds,
    Integer versions,
    DateTiered dateTiered,
    Boolean newVersionBehavior) {

  /** The settings --family knows, in the order messages list them. */
  static final String KNOWN =
      "compression, bloom, blocksize, encoding, ttl, versions, compaction, window, "
          + "windows_per_tier, max_age, new_version_behavior";

  /**
   * Parses the argument; IllegalArgumentException names the family, the setting and the allowed
   * values.
   */
  public static FamilySpec parse(String arg) {
    String s = arg == null ? "" : arg.trim();
    int colon = s.indexOf(':');
    String name = colon < 0 ? s : s.substring(0, colon);
    if (name.isEmpty() || !name.matches("[A-Za-z0-9_.-]+")) {
      throw new IllegalArgumentException(
          "Invalid --family '"
              + arg
              + "': the family name must be letters, digits, "
              + "'_', '-' or '.' (e.g. --family d:compression=gz,bloom=row)");
    }
    Settings settings = new Settings();
    for (Map.Entry<String, String> e : keyValues(arg, colon < 0 ? "" : s.substring(colon + 1))) {
      settings.set(e.getKey(), e.getValue(), arg);
    }
    return settings.spec(name, arg);
  }

  /** The {@code key=value} pairs after the family name, keys lower-cased, each key once. */
  private static Iterable<Map.Entry<String, String>> keyValues(String arg, String list) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String kv : list.split(",")) {
      if (kv.isBlank()) {
        continue;
      }
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            String.format("Invalid --family '%s': '%s' is not key=value", arg, kv));
      }
      String key = kv.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      if (settings.put(key, kv.substring(eq + 1).trim()) != null) {
        throw new IllegalArgumentException(
            String.format("Invalid --family '%s': '%s' given twice", arg, key));
      }
    }
    return settings.entrySet();
  }

  /** The settings read so far: each checked as it is set, the whole checked by {@link #spec}. */
  private static final class Settings {
    Compression.Algorithm compression;
    BloomType bloom;
    Integer blockSize;
    DataBlockEncoding encoding;
    Integer ttl;
    Integer versions;
    String compaction;
    java.time.Duration window;
    Integer windowsPerTier;
    java.time.Duration maxAge;
    Boolean newVersionBehavior;

    void set(String key, String v, String arg) {
      String where = "Invalid --family '" + arg + "': " + key + "=" + v;
      switch (key) {
        case "compression" -> compression = enumValue(Compression.Algorithm.class, v, where);
        case "bloom" -> bloom = enumValue(BloomType.class, v, where);
        case "encoding" -> encoding = enumValue(DataBlockEncoding.class, v, where);
        case "blocksize" -> blockSize = positive(size(v, where), where);
        case "ttl" ->
            ttl =
                v.equalsIgnoreCase("forever")
                    ? HConstants.FOREVER
                    : positive(integer(v, where), where);
        case "versions" -> versions = positive(integer(v, where), where);
        case "compaction" -> {
          compaction = v.toLowerCase(Locale.ROOT);
          if (!compaction.equals("default") && !compaction.equals("date_tiered")) {
            throw new IllegalArgumentException(where + " is not one of default, date_tiered");
          }
        }
        case "window" -> window = duration(v, where);
        case "windows_per_tier" -> {
          windowsPerTier = integer(v, where);
          if (windowsPerTier < 2) {
            throw new IllegalArgumentException(where + " must be at least 2");
          }
        }
        case "max_age" -> maxAge = duration(v, where);
        case "new_version_behavior" -> {
          if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(where + " is not one of true, false");
          }
          newVersionBehavior = Boolean.parseBoolean(v);
        }
        default ->
            throw new IllegalArgumentException(
                String.format(
                    "Invalid --family '%s': unknown setting '%s' (known: %s)", arg, key, KNOWN));
      }
    }

    FamilySpec spec(String name, String arg) {
      boolean tiered = "date_tiered".equals(compaction);
      if (!tiered && (window != null || windowsPerTier != null || maxAge != null)) {
        throw new IllegalArgumentException(
            "Invalid --family '"
                + arg
                + "': window, windows_per_tier and max_age set date-tiered compaction's windows"
                + " (add compaction=date_tiered)");
      }
      return new FamilySpec(
          name,
          compression,
          bloom,
          blockSize,
          encoding,
          ttl,
          versions,
          tiered ? new DateTiered(window, windowsPerTier, maxAge) : null,
          newVersionBehavior);
    }
  }

  private static java.time.Duration duration(String v, String where) {
    java.time.Duration d;
    try {
      d = java.time.Duration.parse(v.toUpperCase(Locale.ROOT));
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException(
          where + " is not an ISO-8601 duration (e.g. P1D for a day, PT6H for 6 hours)");
    }
    if (d.toMillis() < 1) {
      throw new IllegalArgumentException(where + " must be positive");
    }
    return d;
  }

  public ColumnFamilyDescriptor toDescriptor() {
    ColumnFamilyDescriptorBuilder b = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(name));
    if (compression != null) {
      b.setCompressionType(compression);
    }
    if (bloom != null) {
      b.setBloomFilterType(bloom);
    }
    if (blockSize != null) {
      b.setBlocksize(blockSize);
    }
    if (encoding != null) {
      b.setDataBlockEncoding(encoding);
    }
    if (ttlSeconds != null) {
      b.setTimeToLive(ttlSeconds);
    }
    if (versions != null) {
      b.setMaxVersions(versions);
    }
    if (dateTiered != null) {
      dateTiered.configuration().forEach(b::setConfiguration);
    }
    if (newVersionBehavior != null) {
      b.setNewVersionBehavior(newVersionBehavior);
    }
    return b.build();
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, String v, String where) {
    for (E c : type.getEnumConstants()) {
      if (c.name().equalsIgnoreCase(v)) {
        return c;
      }
    }
    StringBuilder allowed = new StringBuilder();
    for (E c : type.getEnumConstants()) {
      allowed.append(allowed.length() == 0 ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT));
    }
    throw new IllegalArgumentException(String.format("%s is not one of %s", where, allowed));
  }

  private static int integer(String v, String where) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(where + " is not a whole number");
    }
  }

  private static int size(String v, String where) {
    String t = v.toLowerCase(Locale.ROOT);
    int mult = 1;
    if (t.endsWith("k")) {
      mult = 1024;
      t = t.substring(0, t.length() - 1);
    } else if (t.endsWith("m")) {
      mult = 1024 * 1024;
      t = t.substring(0, t.length() - 1);
    }
    long n = integer(t, where) * (long) mult;
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(where + " is too large");
    }
    return (int) n;
  }

  private static int positive(int n, String where) {
    if (n < 1) {
      throw new IllegalArgumentException(where + " must be at least 1");
    }
    return n;
  }
}
