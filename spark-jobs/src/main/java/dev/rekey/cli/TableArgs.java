package dev.rekey.cli;

import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * --table and --layout of the commands that work on one table through its layout (get, read,
 * create-table): a picocli mixin, declared once, with the checks and messages they share.
 */
final class TableArgs {
  @Option(names = "--table", required = true, description = "Table (namespace:name or name).")
  String table;

  @Mixin LayoutArg layout;

  /** The --layout file, loaded (a usage error names the argument and where it looked). */
  KeyLayout layout() {
    return layout.layout();
  }

  /** The --table, checked to exist on the cluster; {@code verb} says what the command does. */
  TableName existing(Connection conn, String verb) throws IOException {
    TableName name;
    try {
      name = TableName.valueOf(table);
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage(
          "Cannot %s '%s': not a valid table name (%s)", verb, table, e.getMessage());
    }
    try (Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(name)) {
        throw RekeyException.usage(
            "Cannot %s %s: no such table (list tables in the HBase shell with `list`, or check"
                + " --hbase-site)",
            verb, table);
      }
    }
    return name;
  }
}
