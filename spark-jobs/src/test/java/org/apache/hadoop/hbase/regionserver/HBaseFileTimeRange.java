package org.apache.hadoop.hbase.regionserver;

import org.apache.hadoop.hbase.io.TimeRange;

/**
 * HBase's own file-level time range test, package-private in HBase: here only so that a test can
 * hold rekey's skip decision to it ({@code dev.rekey.read.StoreFilesTest}).
 */
public final class HBaseFileTimeRange {
  private HBaseFileTimeRange() {}

  /** {@code StoreFileReader.passesTimerangeFilter}, as {@code StoreFileScanner} calls it. */
  public static boolean passes(HStoreFile file, TimeRange window, long oldestUnexpired) {
    return file.getReader().passesTimerangeFilter(window, oldestUnexpired);
  }
}
