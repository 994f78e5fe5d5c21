package dev.rekey.jobs.createtable;

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
 * name[:compression=..,bloom=..,blocksize=..,encoding=..,ttl=..,versions=..]}. Values are HBase's
 * own names, case-insensitive: compression NONE|GZ|SNAPPY|LZ4|ZSTD|LZO, bloom NONE|ROW|ROWCOL,
 * encoding NONE|PREFIX|DIFF|FAST_DIFF|ROW_INDEX_V1, blocksize in bytes (suffix k or m allowed), ttl
 * in seconds (or FOREVER), versions ≥ 1. Unset settings keep HBase's defaults.
 */
public record FamilySpec(
    String name,
    Compression.Algorithm compression,
    BloomType bloom,
    Integer blockSize,
    DataBlockEncoding encoding,
    Integer ttlSeconds,
    Integer versions) {

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
    Map<String, String> settings = new LinkedHashMap<>();
    if (colon >= 0) {
      for (String kv : s.substring(colon + 1).split(",")) {
        if (kv.isBlank()) {
          continue;
        }
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException(
              "Invalid --family '" + arg + "': '" + kv + "' is not key=value");
        }
        String key = kv.substring(0, eq).trim().toLowerCase(Locale.ROOT);
        if (settings.put(key, kv.substring(eq + 1).trim()) != null) {
          throw new IllegalArgumentException(
              "Invalid --family '" + arg + "': '" + key + "' given twice");
        }
      }
    }
    Compression.Algorithm compression = null;
    BloomType bloom = null;
    Integer blockSize = null;
    DataBlockEncoding encoding = null;
    Integer ttl = null;
    Integer versions = null;
    for (Map.Entry<String, String> e : settings.entrySet()) {
      String v = e.getValue();
      String where = "Invalid --family '" + arg + "': " + e.getKey() + "=" + v;
      switch (e.getKey()) {
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
        default ->
            throw new IllegalArgumentException(
                "Invalid --family '"
                    + arg
                    + "': unknown setting '"
                    + e.getKey()
                    + "' (known: compression, bloom, blocksize, encoding, ttl, versions)");
      }
    }
    return new FamilySpec(name, compression, bloom, blockSize, encoding, ttl, versions);
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
    throw new IllegalArgumentException(where + " is not one of " + allowed);
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
