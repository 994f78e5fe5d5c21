package dev.rekey.admin.createtable;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.regionserver.DateTieredStoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionConfiguration;
import org.apache.hadoop.hbase.regionserver.compactions.ExponentialCompactionWindowFactory;

/**
 * A family's date-tiered compaction ({@code --family d:compaction=date_tiered,window=P1D,...}):
 * HBase's {@link DateTieredStoreEngine} set on the family descriptor's configuration, so that the
 * family's files stay split by cell time after compactions and a window read skips the files
 * outside it ({@code StoreFiles}). Windows are {@code window} wide for the newest data and grow by
 * {@code windowsPerTier} at each tier further back; files older than {@code maxAge} are no longer
 * compacted.
 *
 * @param window the base window (hbase.hstore.compaction.date.tiered.base.window.millis); rekey's
 *     default is a day, a nightly report's window (HBase's own is 6 hours)
 * @param windowsPerTier windows per tier (…date.tiered.windows.per.tier), null for HBase's (4)
 * @param maxAge files whose newest cell is older than this are left alone
 *     (…date.tiered.max.storefile.age.millis), null for HBase's (no limit)
 */
public record DateTiered(Duration window, Integer windowsPerTier, Duration maxAge) {
  public static final Duration DEFAULT_WINDOW = Duration.ofDays(1);

  /**
   * What HBase's reference guide sets next to the engine for date-tiered compaction: a store holds
   * more files (one or more per window), so the write-blocking file count goes up to 60 and a
   * compaction takes 2 to 60 files.
   */
  static final Map<String, String> COMPANIONS =
      Map.of(
          org.apache.hadoop.hbase.regionserver.HStore.BLOCKING_STOREFILES_KEY, "60",
          CompactionConfiguration.HBASE_HSTORE_COMPACTION_MIN_KEY, "2",
          CompactionConfiguration.HBASE_HSTORE_COMPACTION_MAX_KEY, "60");

  public DateTiered {
    if (window == null) {
      window = DEFAULT_WINDOW;
    }
  }

  /** The family descriptor's configuration (key order fixed, for messages and tests). */
  public Map<String, String> configuration() {
    Map<String, String> c = new LinkedHashMap<>();
    c.put(StoreEngine.STORE_ENGINE_CLASS_KEY, DateTieredStoreEngine.class.getName());
    c.put(
        ExponentialCompactionWindowFactory.BASE_WINDOW_MILLIS_KEY,
        Long.toString(window.toMillis()));
    if (windowsPerTier != null) {
      c.put(ExponentialCompactionWindowFactory.WINDOWS_PER_TIER_KEY, windowsPerTier.toString());
    }
    if (maxAge != null) {
      c.put(
          CompactionConfiguration.DATE_TIERED_MAX_AGE_MILLIS_KEY, Long.toString(maxAge.toMillis()));
    }
    new java.util.TreeMap<>(COMPANIONS).forEach(c::put);
    return c;
  }

  /**
   * "date-tiered compaction, 1-day base window, 4 per tier, files older than 365 days left alone",
   * for create-table's output.
   */
  public String describe() {
    return "date-tiered compaction, "
        + human(window).replace(" ", "-").replaceAll("s$", "")
        + " base window"
        + (windowsPerTier == null ? "" : ", " + windowsPerTier + " per tier")
        + (maxAge == null ? "" : ", files older than " + human(maxAge) + " left alone");
  }

  private static String human(Duration d) {
    long ms = d.toMillis();
    if (ms % 86_400_000 == 0) {
      return ms / 86_400_000 + (ms == 86_400_000 ? " day" : " days");
    }
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + (ms == 3_600_000 ? " hour" : " hours");
    }
    return d.toString();
  }
}
