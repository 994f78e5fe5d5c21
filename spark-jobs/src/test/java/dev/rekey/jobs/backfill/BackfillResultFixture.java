package dev.rekey.jobs.backfill;

import java.util.List;

/** Results of each outcome for {@link BackfillResultTest}, built as the backfill builds them. */
final class BackfillResultFixture {
  private BackfillResultFixture() {}

  static BackfillResult dryRun(List<RegionEntry> regions, Accounting acc, String earlierLoad) {
    return new BackfillResult(
        "T",
        "S",
        "/s",
        "in source order",
        true,
        false,
        false,
        acc,
        "all",
        3,
        regions,
        Skew.of(regions.stream().map(RegionEntry::rows).toList()),
        3,
        0,
        0,
        0,
        earlierLoad);
  }

  static BackfillResult notVerified(List<RegionEntry> regions, Accounting acc) {
    return new BackfillResult(
        "T",
        "S",
        "/s",
        "in source order",
        false,
        true,
        false,
        acc,
        "all",
        0,
        regions,
        Skew.of(regions.stream().map(RegionEntry::rows).toList()),
        3,
        1.5,
        2.0,
        0.25,
        null);
  }
}
