package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.ExitCodes;
import dev.rekey.jobs.common.JobResult;
import dev.rekey.jobs.common.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a backfill did (result layer): accounting, per-region rows/files/state, skew, where the
 * staging files are, and how long each phase took. The CLI prints {@link #console()} and the
 * staging dir holds it as _result.json. Loaded cells that verification did not find make exit code
 * 3. {@code earlierLoad} is the note on an earlier load of the same snapshot into the target that a
 * dry run, {@code --no-load} or {@code --load-again} went past (null when there is none).
 */
public record BackfillResult(
    String targetTable,
    String sourceSnapshot,
    String staging,
    String writePath,
    boolean dryRun,
    boolean loaded,
    boolean verified,
    Accounting accounting,
    String versions,
    long olderVersionsNotCopied,
    List<RegionEntry> regions,
    Skew skew,
    int filesWritten,
    double writeSeconds,
    double loadSeconds,
    double verifySeconds,
    String earlierLoad)
    implements JobResult {

  public BackfillResult {
    regions = List.copyOf(regions);
  }

  /** 3 when loaded regions failed verification: cells written are missing from the table. */
  @Override
  public int exitCode() {
    return loaded && !verified ? ExitCodes.MISMATCH : ExitCodes.OK;
  }

  @Override
  public String console() {
    return String.join("\n", lines()) + "\n";
  }

  /** _result.json. */
  @Override
  public String toJson() {
    return Json.pretty(this);
  }

  /**
   * Why the loaded cells are not all there (which regions, and the rerun that loads them again), or
   * empty when the backfill is verified, a dry run or not loaded.
   */
  public Optional<String> notVerified() {
    if (exitCode() != ExitCodes.MISMATCH) {
      return Optional.empty();
    }
    List<String> bad = new ArrayList<>();
    for (RegionEntry r : regions) {
      if (r.state() != RegionState.VERIFIED) {
        bad.add(r.index() + " [" + r.startHex() + ", " + r.endHex() + ")");
      }
    }
    return Optional.of(
        "Backfill of "
            + targetTable
            + " not verified: cells written are missing from the table in region(s) "
            + bad
            + "; their HFiles are kept in the staging dir. Rerun with --resume to load and verify"
            + " them again.");
  }

  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            "%s %s from snapshot %s (staging %s)",
            dryRun ? "Plan (dry run) for" : "Backfill of", targetTable, sourceSnapshot, staging));
    if (writePath != null) {
      out.add("  " + writePath);
    }
    out.add(
        String.format(
            "  %-6s %-34s %12s %12s %14s %6s  %s",
            "region", "start key (hex)", "rows", "cells", "bytes", "files", "state"));
    for (RegionEntry r : regions) {
      out.add(
          String.format(
              "  %-6d %-34s %,12d %,12d %,14d %6d  %s",
              r.index(),
              r.startHex().isEmpty() ? "(first)" : r.startHex(),
              r.rows(),
              r.cells(),
              r.bytes(),
              r.files(),
              r.state()));
    }
    out.add("  " + skew.line());
    out.add("  " + accounting.line());
    out.add(
        String.format(
            "  versions per column copied: %s%s",
            versions,
            olderVersionsNotCopied == 0
                ? ""
                : String.format(
                    "; %,d older cell versions not copied (beyond the target families' VERSIONS)",
                    olderVersionsNotCopied)));
    if (!dryRun) {
      out.add(
          String.format(
              "  %d HFiles; write %.1f s, load %.1f s, verify %.1f s; loaded=%s verified=%s",
              filesWritten, writeSeconds, loadSeconds, verifySeconds, loaded, verified));
    }
    if (earlierLoad != null) {
      out.add("  " + earlierLoad);
    }
    notVerified().ifPresent(out::add);
    return out;
  }
}
