package dev.rekey.jobs.analyze;

import dev.rekey.admin.plan.SplitFile;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code --splits} argument of analyze's simulation: {@code hex:N} (HBase HexStringSplit),
 * {@code uniform:N} (UniformSplit), {@code natural:N} (the proposed layout's own split points;
 * {@code natural} alone = one region per salt bucket), or a split file as {@code rekey plan --out}
 * writes it.
 */
public record SplitSpec(String description, List<byte[]> points) {
  public static SplitSpec parse(String spec, KeyLayout proposed) {
    String s = spec.trim();
    int colon = s.indexOf(':');
    String kind = colon < 0 ? s : s.substring(0, colon);
    String arg = colon < 0 ? null : s.substring(colon + 1);
    switch (kind) {
      case "hex" -> {
        int n = count(arg, spec);
        return new SplitSpec("HexStringSplit x " + n, SplitPoints.hexString(n));
      }
      case "uniform" -> {
        int n = count(arg, spec);
        return new SplitSpec("UniformSplit x " + n, SplitPoints.uniform(n));
      }
      case "natural", "salt" -> {
        if (proposed == null) {
          throw new IllegalArgumentException(
              "--splits " + spec + " needs a layout to take the split points from (--layout2)");
        }
        int n =
            arg == null && proposed.prefix().buckets() > 0
                ? proposed.prefix().buckets()
                : count(arg, spec);
        return new SplitSpec(
            proposed.name() + " natural split points x " + n, proposed.splitPoints(n));
      }
      default -> {
        return new SplitSpec("split file " + s, SplitFile.read(Path.of(s)));
      }
    }
  }

  private static int count(String arg, String spec) {
    try {
      return Integer.parseInt(arg);
    } catch (NumberFormatException | NullPointerException e) {
      throw new IllegalArgumentException(
          "--splits " + spec + ": expected hex:N, uniform:N, natural[:N] or a split file");
    }
  }
}
