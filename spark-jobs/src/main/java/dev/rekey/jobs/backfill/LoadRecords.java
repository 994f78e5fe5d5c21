package dev.rekey.jobs.backfill;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.rekey.jobs.common.Json;
import dev.rekey.jobs.common.RekeyException;
import java.io.IOException;
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
final class LoadRecords {
  static final String PREFIX = "rekey.backfill.";

  private static final ObjectReader READER =
      Json.MAPPER
          .readerFor(new TypeReference<List<LoadRecord>>() {})
          .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private LoadRecords() {}

  static String key(String snapshot) {
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
}
