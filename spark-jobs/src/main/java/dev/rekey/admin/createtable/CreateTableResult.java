package dev.rekey.admin.createtable;

import java.util.List;

/**
 * What create-table did: the table, whether it was created (false: it existed and --if-not-exists),
 * its regions.
 */
public record CreateTableResult(
    String table,
    boolean created,
    int regions,
    List<String> splitPointsHex,
    List<String> families) {
  public CreateTableResult {
    splitPointsHex = List.copyOf(splitPointsHex);
    families = List.copyOf(families);
  }

  public String summary() {
    return (created ? "Created " : "Table exists, left as is: ")
        + table
        + " with "
        + regions
        + " region"
        + (regions == 1 ? "" : "s")
        + ", families "
        + families;
  }
}
