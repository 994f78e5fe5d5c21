package dev.rekey.admin.createtable;

import dev.rekey.admin.plan.SplitFile;
import dev.rekey.jobs.analyze.KeyStats;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.PrefixSpec;
import dev.rekey.rowkey.SplitPoints;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Which split points a new table gets, from {@code --regions N} and {@code --splits
 * salt|uniform|hex|FILE} (pure):
 *
 * <ul>
 *   <li>only {@code --regions N}: the layout's natural points ({@link KeyLayout#splitPoints}: salt
 *       bucket boundaries, even hash-prefix boundaries, else UniformSplit);
 *   <li>{@code salt}: one region per salt bucket (the layout must be salted; N, if given, must
 *       equal the buckets);
 *   <li>{@code uniform} / {@code hex}: HBase's UniformSplit / HexStringSplit for N regions (never
 *       mix them: hex-text points on raw-byte keys leave most regions empty);
 *   <li>anything else is a {@link SplitFile} path (N, if given, must match the file).
 * </ul>
 */
public final class SplitChoice {
  private SplitChoice() {}

  /**
   * The split points; IllegalArgumentException says which option is wrong and what to pass instead.
   */
  public static List<byte[]> choose(KeyLayout layout, Integer regions, String splits) {
    if (regions != null && regions < 1) {
      throw new IllegalArgumentException("--regions must be at least 1, got " + regions);
    }
    if (splits == null) {
      if (regions == null) {
        throw new IllegalArgumentException(
            "Give --regions N (the layout's natural split points) or --splits "
                + "salt|uniform|hex|FILE");
      }
      return layout.splitPoints(regions);
    }
    switch (splits.toLowerCase(Locale.ROOT)) {
      case "salt":
        {
          if (layout.prefix().kind() != PrefixSpec.Kind.SALT) {
            throw new IllegalArgumentException(
                String.format(
                    "--splits salt needs a salted layout, but %s has prefix %s (use"
                        + " --regions N for its natural split points)",
                    layout.name(), layout.prefix()));
          }
          int buckets = layout.prefix().buckets();
          if (regions != null && regions != buckets) {
            throw new IllegalArgumentException(
                String.format(
                    "--splits salt gives one region per salt bucket: layout %s has %s"
                        + " buckets, so --regions must be %s (or omitted), not %s",
                    layout.name(), buckets, buckets, regions));
          }
          return SplitPoints.salt(buckets);
        }
      case "uniform":
        return SplitPoints.uniform(required(regions, "uniform"));
      case "hex":
        {
          List<byte[]> points = SplitPoints.hexString(required(regions, "hex"));
          if (hexOnRawPrefix(layout, points)) {
            throw new IllegalArgumentException(
                String.format(
                    "--splits hex puts HexStringSplit boundaries on layout %s, whose prefix %s is"
                        + " raw bytes: almost every row would land in a handful of regions. %s"
                        + " (--splits uniform, --regions N alone%s)",
                    layout.name(),
                    layout.prefix(),
                    KeyStats.HEX_ON_RAW,
                    layout.prefix().kind() == PrefixSpec.Kind.SALT ? ", or --splits salt" : ""));
          }
          return points;
        }
      default:
        {
          List<byte[]> points = SplitFile.read(Path.of(splits));
          if (regions != null && regions != points.size() + 1) {
            throw new IllegalArgumentException(
                String.format(
                    "--regions %s does not match split file %s (%s points = %s regions);"
                        + " omit --regions",
                    regions, splits, points.size(), (points.size() + 1)));
          }
          return points;
        }
    }
  }

  /**
   * Analyze's "wrong split algorithm" rule ({@link KeyStats#hexSplitsOnRawKeys}) on the keys a
   * raw-byte prefix makes — its salt buckets' leading bytes, or the whole byte range of a hash — in
   * place of sampled ones; a layout without a prefix is not judged (its keys may be hex text).
   */
  static boolean hexOnRawPrefix(KeyLayout layout, List<byte[]> points) {
    PrefixSpec p = layout.prefix();
    if (p.kind() == PrefixSpec.Kind.NONE) {
      return false;
    }
    List<byte[]> keys =
        p.kind() == PrefixSpec.Kind.SALT
            ? new java.util.ArrayList<>(SplitPoints.salt(p.buckets()))
            : new java.util.ArrayList<>(SplitPoints.uniform(256));
    keys.add(new byte[] {0});
    return KeyStats.hexSplitsOnRawKeys(points, keys);
  }

  private static int required(Integer regions, String kind) {
    if (regions == null) {
      throw new IllegalArgumentException("--splits " + kind + " needs --regions N");
    }
    return regions;
  }
}
