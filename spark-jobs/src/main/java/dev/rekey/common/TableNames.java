package dev.rekey.common;

import org.apache.hadoop.hbase.TableName;

/** A table name from the command line, checked by HBase's own rules before anything starts. */
public final class TableNames {
  private TableNames() {}

  /**
   * HBase's TableName, or a usage error (exit 2) saying why the name is not legal; {@code verb} as
   * in "backfill".
   */
  public static TableName parse(String name, String verb) {
    try {
      return TableName.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage(
          "Cannot %s '%s': not a valid table name (%s; use letters, digits, '_',"
              + " '-' and '.', with an optional 'namespace:' prefix)",
          verb, name, e.getMessage());
    }
  }
}
