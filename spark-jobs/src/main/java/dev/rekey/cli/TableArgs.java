package dev.rekey.cli;

import dev.rekey.jobs.common.RekeyException;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

/** A --table argument checked against the cluster, with the message the read commands share. */
final class TableArgs {
  private TableArgs() {}

  static TableName existing(Connection conn, String table, String verb) throws IOException {
    TableName name;
    try {
      name = TableName.valueOf(table);
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage(
          "Cannot " + verb + " '" + table + "': not a valid table name (" + e.getMessage() + ")");
    }
    try (Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(name)) {
        throw RekeyException.usage(
            "Cannot "
                + verb
                + " "
                + table
                + ": no such table (list tables in the HBase shell "
                + "with `list`, or check --hbase-site)");
      }
    }
    return name;
  }
}
