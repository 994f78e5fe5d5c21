package dev.rekey.jobs.backfill.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.rekey.common.Json;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.plan.RepeatedLoad;
import dev.rekey.jobs.backfill.staging.Ledger;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.staging.Staging;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * The {@link LoadRecord}s of a target table, kept as a table attribute {@code
 * rekey.backfill.<snapshot>} (a JSON list, one per run of that snapshot into the table): every
 * client of the cluster sees it whatever staging dir it uses, {@code describe 'T'} shows it, and it
 * goes with the table (a dropped and re-created target has none; a clone of the table keeps it, as
 * it keeps the cells).
 */
public final class LoadRecords {
  static final String PREFIX = "rekey.backfill.";

  private static final ObjectReader READER =
      Json.MAPPER
          .readerFor(new TypeReference<List<LoadRecord>>() {})
          .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private LoadRecords() {}

  public static String key(String snapshot) {
    return PREFIX + snapshot;
  }

  /** The recorded loads of {@code snapshot} into the table of {@code target}. */
  static List<LoadRecord> of(TableDescriptor target, String snapshot) {
    String value = target.getValue(key(snapshot));
    if (value == null) {
      return List.of();
    }
    try {
      return READER.readValue(value);
    } catch (JsonProcessingException e) {
      throw RekeyException.cannot(
          "Cannot backfill %1$s: its attribute %2$s is not a list of backfill records (%3$s); check"
              + " it with `describe '%1$s'` and remove it with `alter '%1$s', METHOD =>"
              + " 'table_att_unset', NAME => '%2$s'`",
          target.getTableName(), key(snapshot), e.getOriginalMessage());
    }
  }

  /**
   * Records {@code r} in the table's descriptor, read again just before (a change made to it since
   * the run started is kept). The change is a table attribute only, made without reopening the
   * regions; HBase before 2.6.4 (HBASE-29706) refuses that for a table with coprocessors, and then
   * the regions are reopened, as `alter` does, with a note.
   */
  static void record(Admin admin, TableName table, LoadRecord r, Consumer<String> progress)
      throws IOException {
    TableDescriptor now = admin.getDescriptor(table);
    TableDescriptor td =
        TableDescriptorBuilder.newBuilder(now)
            .setValue(
                key(r.snapshot()),
                Json.MAPPER.writeValueAsString(LoadRecord.merged(of(now, r.snapshot()), r)))
            .build();
    try {
      admin.modifyTable(td, false);
    } catch (IOException e) {
      if (e.getMessage() == null || !e.getMessage().contains("reopen regions")) {
        throw e;
      }
      progress.accept(
          String.format(
              "  HBase will not change the attributes of %s without reopening its regions (a table"
                  + " with coprocessors, HBASE-29706): reopening them to record the load",
              table));
      admin.modifyTable(td);
    }
  }

  /**
   * Refuses a run that would load cells of the snapshot that the target's records show loaded
   * already ({@link RepeatedLoad}); returns the note on such a load that the run goes past (a dry
   * run, --no-load, --load-again), or null.
   */
  public static String checkRepeat(
      BackfillOptions o,
      TableDescriptor target,
      Staging staging,
      long snapshotCreated,
      String resumedRun,
      Consumer<String> progress) {
    RepeatedLoad.Decision d =
        RepeatedLoad.decide(
            of(target, o.sourceSnapshot()),
            new RepeatedLoad.Attempt(
                o.targetTable(),
                o.sourceSnapshot(),
                snapshotCreated,
                o.cellTime(),
                o.families(),
                staging.root.toString(),
                resumedRun,
                o.dryRun(),
                o.noLoad(),
                o.loadAgain(),
                o.shard() == null ? null : o.shard().toString()));
    switch (d.verdict()) {
      case REFUSE -> throw RekeyException.refused("%s", d.message());
      case NOTE -> progress.accept(d.message());
      case GO -> {}
    }
    return d.verdict() == RepeatedLoad.Verdict.NOTE ? d.message() : null;
  }

  /**
   * Records the load in the target's descriptor right before the first bulk-load request, so that a
   * run killed during the load is found by the next one (which is then told to --resume it).
   * Nothing is loaded when it cannot be recorded: a later run could not see the load.
   */
  public static void recordLoading(
      Admin admin, TableName table, LoadRecord loading, Consumer<String> progress)
      throws IOException {
    try {
      record(admin, table, loading, progress);
    } catch (IOException | RuntimeException e) {
      throw RekeyException.cannot(
          e,
          "Cannot backfill %1$s: cannot record the load in the attribute %2$s of %1$s, which lets a"
              + " later run find it: %3$s. Nothing was loaded; the HFiles are kept in the staging"
              + " dir (the backfill needs the right to alter %1$s, as to snapshot it; rerun with"
              + " --resume once it has)",
          table,
          key(loading.snapshot()),
          BulkLoadStep.oneLine(e));
    }
  }

  /**
   * Records how the load ended. A failure here only leaves the record saying the load did not
   * finish, which still refuses a repeat and points at --resume: a note, not a failed run.
   */
  public static void recordOutcome(
      Admin admin, TableName table, LoadRecord loading, Manifest m, Consumer<String> progress) {
    boolean verified = Ledger.count(m, RegionState.VERIFIED) == m.regions().size();
    try {
      record(
          admin,
          table,
          loading.withState(
              verified ? LoadRecord.State.VERIFIED : LoadRecord.State.NOT_VERIFIED, Instant.now()),
          progress);
    } catch (IOException | RuntimeException e) {
      progress.accept(
          String.format(
              "  could not record the outcome of the load in %s of %s (%s): it still says the load"
                  + " did not finish",
              key(loading.snapshot()), table, BulkLoadStep.oneLine(e)));
    }
  }
}
