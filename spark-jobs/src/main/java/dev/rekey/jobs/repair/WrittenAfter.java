package dev.rekey.jobs.repair;

import java.util.Set;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * The new table's families where a delete marker hides only the cells written before it
 * (NEW_VERSION_BEHAVIOR, {@link Masking#writtenAfterFamilies}), read once per repair run: the
 * masking rule of both write paths and whether the early compaction has anything to do depend on
 * them.
 */
record WrittenAfter(Set<String> families, boolean everyFamily) {
  static WrittenAfter of(TableDescriptor table) {
    Set<String> families = Masking.writtenAfterFamilies(table);
    return new WrittenAfter(families, families.size() == table.getColumnFamilyCount());
  }
}
