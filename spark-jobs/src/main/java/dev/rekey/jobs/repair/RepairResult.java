package dev.rekey.jobs.repair;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.JobResult;
import dev.rekey.common.Json;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The immutable outcome of a repair run ({@link Outcome}): the old side's snapshot and its time
 * ({@link OldSide}), which buckets and how they were chosen ({@link Selection}), how it wrote
 * ({@link Write}), per repaired bucket what was found, written and found again, and how long each
 * phase took ({@link Timings}). Built by name with {@link RepairResultBuilder}. Rendered by {@link
 * RepairReport}; several targets' results are serialised by Jackson as one flat object each, in the
 * order below (the accessors of the phase records' fields).
 *
 * @param table the new table repaired
 */
@JsonPropertyOrder({
  "old",
  "snapshot",
  "snapshotTime",
  "table",
  "from",
  "to",
  "bucketMillis",
  "comparedFirst",
  "compared",
  "path",
  "compacted",
  "mutationFile",
  "buckets",
  "phases",
  "seconds"
})
public record RepairResult(
    String table,
    @JsonIgnore OldSide oldSide,
    @JsonIgnore Selection selection,
    @JsonIgnore Write write,
    List<TimeBucketRepair> buckets,
    @JsonIgnore Timings timings)
    implements JobResult {

  /** How a repair ended. */
  public enum Outcome {
    /** {@code --dry-run}: the mutations are in a file; nothing changed. */
    DRY_RUN,
    /** Every repaired bucket matches now (or none differed). */
    MATCHES,
    /** Some repaired bucket still differs after the writes: exit code 3. */
    STILL_DIFFERS
  }

  /**
   * The old side: as the user gave it ({@code table T} or {@code snapshot S}), the snapshot read
   * (the one taken of a live table for the run) and its creation time, the line between damage and
   * dual writes.
   */
  public record OldSide(String described, String snapshot, long snapshotTime) {}

  /**
   * The buckets of [from, to) and how the repaired ones were chosen.
   *
   * @param comparedFirst true when they came from comparing every bucket of [from, to) (not from a
   *     reconcile report or a replayed mutation file)
   * @param compared buckets compared to choose the ones to repair
   */
  public record Selection(
      long from, long to, long bucketMillis, boolean comparedFirst, int compared) {}

  /**
   * How the repair wrote.
   *
   * @param path the write path the size rule chose (null when nothing needed writing)
   * @param compacted regions major-compacted because delete markers hid cells to put
   * @param mutationFile the dry run's mutation file, or null
   */
  public record Write(RepairPath path, boolean compacted, Path mutationFile) {}

  /**
   * @param phases seconds per phase in the order they ran ({@link PhaseTimes}: snapshot, find
   *     buckets, compare, marker scan, compaction, write, re-check)
   * @param seconds the whole run
   */
  public record Timings(Map<String, Double> phases, double seconds) {
    /** Before the run's phase times are known. */
    public static final Timings NONE = new Timings(Map.of(), 0);

    public Timings {
      phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
    }
  }

  public RepairResult {
    buckets = List.copyOf(buckets);
  }

  /** This result with the run's phase times and its whole time. */
  RepairResult withTimings(Timings t) {
    return new RepairResult(table, oldSide, selection, write, buckets, t);
  }

  public Outcome outcome() {
    if (write.mutationFile() != null) {
      return Outcome.DRY_RUN;
    }
    return buckets.stream().allMatch(TimeBucketRepair::matchesNow)
        ? Outcome.MATCHES
        : Outcome.STILL_DIFFERS;
  }

  public boolean dryRun() {
    return outcome() == Outcome.DRY_RUN;
  }

  /** True when every repaired bucket matches now (a dry run: false). */
  public boolean matches() {
    return outcome() == Outcome.MATCHES;
  }

  @JsonProperty("old")
  public String old() {
    return oldSide.described();
  }

  @JsonProperty("snapshot")
  public String snapshot() {
    return oldSide.snapshot();
  }

  @JsonProperty("snapshotTime")
  public long snapshotTime() {
    return oldSide.snapshotTime();
  }

  @JsonProperty("from")
  public long from() {
    return selection.from();
  }

  @JsonProperty("to")
  public long to() {
    return selection.to();
  }

  @JsonProperty("bucketMillis")
  public long bucketMillis() {
    return selection.bucketMillis();
  }

  @JsonProperty("comparedFirst")
  public boolean comparedFirst() {
    return selection.comparedFirst();
  }

  @JsonProperty("compared")
  public int compared() {
    return selection.compared();
  }

  @JsonProperty("path")
  public RepairPath path() {
    return write.path();
  }

  @JsonProperty("compacted")
  public boolean compacted() {
    return write.compacted();
  }

  @JsonProperty("mutationFile")
  public Path mutationFile() {
    return write.mutationFile();
  }

  @JsonProperty("phases")
  public Map<String, Double> phases() {
    return timings.phases();
  }

  @JsonProperty("seconds")
  public double seconds() {
    return timings.seconds();
  }

  public long cellsPut() {
    return buckets.stream()
        .filter(b -> b.written() != null && !b.resumed())
        .mapToLong(b -> b.written().cellsPut())
        .sum();
  }

  public long cellsDeleted() {
    return buckets.stream()
        .filter(b -> b.written() != null && !b.resumed())
        .mapToLong(b -> b.written().cellsDeleted())
        .sum();
  }

  /** 0 when every repaired bucket matches now (or a dry run wrote its file), 3 otherwise. */
  @Override
  public int exitCode() {
    return outcome() == Outcome.STILL_DIFFERS ? ExitCodes.MISMATCH : ExitCodes.OK;
  }

  @Override
  public String console() {
    return RepairReport.console(this);
  }

  /** repair.json. */
  @Override
  public String toJson() {
    return Json.pretty(RepairReport.json(this));
  }
}
