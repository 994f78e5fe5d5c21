package dev.rekey.jobs.backfill.plan;

import dev.rekey.common.RekeyException;
import java.io.Serializable;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import org.apache.hadoop.hbase.regionserver.DateTieredStoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.compactions.ExponentialCompactionWindowFactory;

/**
 * What {@code --time-tiers} asked for (plan layer, pure): a tier width ({@code P1D}, {@code PT6H},
 * ISO-8601), or {@code family}: the base window of the target family's date-tiered compaction, so
 * the loaded files already sit in the windows the family's compactions keep.
 *
 * @param width the width given, null for {@code family}
 */
public record TierRequest(Duration width) implements Serializable {
  public static final String FROM_FAMILY = "family";

  /** {@code --time-tiers} as given: a duration or {@code family}. */
  public static TierRequest parse(String s) {
    if (s == null || s.isBlank()) {
      return null;
    }
    if (s.trim().equalsIgnoreCase(FROM_FAMILY)) {
      return new TierRequest(null);
    }
    Duration d;
    try {
      d = Duration.parse(s.trim().toUpperCase());
    } catch (DateTimeParseException e) {
      throw RekeyException.usage(
          "Cannot parse --time-tiers %s: give an ISO-8601 duration (P1D, P30D, PT6H) or '%s' (the"
              + " target family's date-tiered window)",
          s, FROM_FAMILY);
    }
    if (d.toMillis() < 1000) {
      throw RekeyException.usage(
          "Cannot use --time-tiers %s: a tier must be at least a second wide (P1D for a nightly"
              + " report)",
          s);
    }
    return new TierRequest(d);
  }

  public boolean fromFamily() {
    return width == null;
  }

  /** "--time-tiers P1D", "--time-tiers family (P1D, family d's date-tiered window)". */
  String asked(Duration resolved, String family) {
    return fromFamily()
        ? String.format(
            "--time-tiers family (%s, family %s's date-tiered window)", iso(resolved), family)
        : "--time-tiers " + iso(width);
  }

  /** P1D rather than Duration's PT24H: as a user writes a day. */
  static String iso(Duration d) {
    long day = 86_400_000L;
    return d.toMillis() % day == 0 ? "P" + d.toMillis() / day + "D" : d.toString();
  }

  /**
   * The width to write: the one given, or the base window of {@code family}'s date-tiered
   * compaction ({@code familyConf} is the family descriptor's configuration); refused when the
   * family is not date-tiered.
   */
  Duration resolve(String table, String family, Map<String, String> familyConf) {
    if (!fromFamily()) {
      return width;
    }
    String engine = familyConf.get(StoreEngine.STORE_ENGINE_CLASS_KEY);
    if (engine == null || !engine.equals(DateTieredStoreEngine.class.getName())) {
      throw RekeyException.usage(
          "Cannot take --time-tiers from family %s of %s: it has no date-tiered compaction (%s is"
              + " %s). Give a width (--time-tiers P1D), or create the table with --family"
              + " %s:compaction=date_tiered",
          family,
          table,
          StoreEngine.STORE_ENGINE_CLASS_KEY,
          engine == null ? "unset" : engine,
          family);
    }
    String base = familyConf.get(ExponentialCompactionWindowFactory.BASE_WINDOW_MILLIS_KEY);
    // HBase's own default base window when the family sets the engine alone: 6 hours
    return Duration.ofMillis(base == null ? 6 * 3_600_000L : Long.parseLong(base));
  }
}
