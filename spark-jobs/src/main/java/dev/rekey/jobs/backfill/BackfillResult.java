package dev.rekey.jobs.backfill;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.JobResult;
import dev.rekey.common.Json;
import dev.rekey.jobs.backfill.plan.Skew;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.guardrails.GuardrailReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a backfill did (result layer): how it ended ({@link Outcome}), accounting, per-region
 * rows/files/state, where the staging files are, and how long each phase took ({@link Timings}).
 * The CLI prints {@link #console()} and the staging dir holds it as _result.json, where the outcome
 * reads as the flags {@code dryRun}, {@code loaded} and {@code verified}, and the skew and the
 * HFiles written are worked out from the regions. Loaded cells that verification did not find make
 * exit code 3. {@code earlierLoad} is the note on an earlier load of the same snapshot into the
 * target that a dry run, {@code --no-load} or {@code --load-again} went past (null when there is
 * none).
 */
@JsonPropertyOrder({
  "targetTable",
  "sourceSnapshot",
  "staging",
  "writePath",
  "dryRun",
  "loaded",
  "verified",
  "accounting",
  "versions",
  "olderVersionsNotCopied",
  "regions",
  "skew",
  "filesWritten",
  "writeSeconds",
  "loadSeconds",
  "verifySeconds",
  "earlierLoad",
  "guardrails"
})
public record BackfillResult(
    String targetTable,
    String sourceSnapshot,
    String staging,
    String writePath,
    @JsonIgnore Outcome outcome,
    Accounting accounting,
    String versions,
    long olderVersionsNotCopied,
    List<RegionEntry> regions,
    @JsonIgnore Timings timings,
    String earlierLoad,
    @JsonInclude(JsonInclude.Include.NON_NULL) GuardrailReport guardrails)
    implements JobResult {

  /** A result without a guardrail check. */
  public BackfillResult(
      String targetTable,
      String sourceSnapshot,
      String staging,
      String writePath,
      Outcome outcome,
      Accounting accounting,
      String versions,
      long olderVersionsNotCopied,
      List<RegionEntry> regions,
      Timings timings,
      String earlierLoad) {
    this(
        targetTable,
        sourceSnapshot,
        staging,
        writePath,
        outcome,
        accounting,
        versions,
        olderVersionsNotCopied,
        regions,
        timings,
        earlierLoad,
        null);
  }

  /** How a backfill ended. */
  public enum Outcome {
    /** {@code --dry-run}: the plan and what the data would give each region; nothing written. */
    PLANNED,
    /** HFiles written and kept in the staging dir, not loaded ({@code --no-load}). */
    WRITTEN,
    /** Every region verified: its cells are in the table. */
    VERIFIED,
    /** Loaded, and cells written are missing from the table in some region: exit code 3. */
    NOT_VERIFIED;

    /** A run that wrote or resumed: verified when every region is, else as far as it went. */
    static Outcome of(boolean loaded, List<RegionEntry> regions) {
      if (regions.stream().allMatch(r -> r.state() == RegionState.VERIFIED)) {
        return VERIFIED;
      }
      return loaded ? NOT_VERIFIED : WRITTEN;
    }
  }

  /** How long the write, the load and the verification took, in seconds (0: not run). */
  public record Timings(double writeSeconds, double loadSeconds, double verifySeconds) {
    public static final Timings NONE = new Timings(0, 0, 0);
  }

  public BackfillResult {
    regions = List.copyOf(regions);
  }

  @JsonProperty("dryRun")
  public boolean dryRun() {
    return outcome == Outcome.PLANNED;
  }

  @JsonProperty("loaded")
  public boolean loaded() {
    return outcome == Outcome.VERIFIED || outcome == Outcome.NOT_VERIFIED;
  }

  @JsonProperty("verified")
  public boolean verified() {
    return outcome == Outcome.VERIFIED;
  }

  /** max/mean rows per region. */
  @JsonProperty("skew")
  public Skew skew() {
    return Skew.of(regions.stream().map(RegionEntry::rows).toList());
  }

  /** The HFiles written for the regions (expected, for a dry run). */
  @JsonProperty("filesWritten")
  public int filesWritten() {
    return regions.stream().mapToInt(RegionEntry::files).sum();
  }

  @JsonProperty("writeSeconds")
  public double writeSeconds() {
    return timings.writeSeconds();
  }

  @JsonProperty("loadSeconds")
  public double loadSeconds() {
    return timings.loadSeconds();
  }

  @JsonProperty("verifySeconds")
  public double verifySeconds() {
    return timings.verifySeconds();
  }

  /** 3 when loaded regions failed verification: cells written are missing from the table. */
  @Override
  public int exitCode() {
    return outcome == Outcome.NOT_VERIFIED ? ExitCodes.MISMATCH : ExitCodes.OK;
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
    if (outcome != Outcome.NOT_VERIFIED) {
      return Optional.empty();
    }
    List<String> bad = new ArrayList<>();
    for (RegionEntry r : regions) {
      if (r.state() != RegionState.VERIFIED) {
        bad.add(String.format("%d [%s, %s)", r.index(), r.startHex(), r.endHex()));
      }
    }
    return Optional.of(
        String.format(
            "Backfill of %s not verified: cells written are missing from the table in region(s)"
                + " %s; their HFiles are kept in the staging dir. Rerun with --resume to load and"
                + " verify them again.",
            targetTable, bad));
  }

  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            "%s %s from snapshot %s (staging %s)",
            dryRun() ? "Plan (dry run) for" : "Backfill of", targetTable, sourceSnapshot, staging));
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
    out.add("  " + skew().line());
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
    if (!dryRun()) {
      out.add(
          String.format(
              "  %d HFiles; write %.1f s, load %.1f s, verify %.1f s; loaded=%s verified=%s",
              filesWritten(),
              timings.writeSeconds(),
              timings.loadSeconds(),
              timings.verifySeconds(),
              loaded(),
              verified()));
    }
    if (earlierLoad != null) {
      out.add("  " + earlierLoad);
    }
    if (guardrails != null) {
      guardrails.lines().forEach(l -> out.add("  " + l));
    }
    notVerified().ifPresent(out::add);
    return out;
  }
}
