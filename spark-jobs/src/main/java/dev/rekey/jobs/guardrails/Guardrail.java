package dev.rekey.jobs.guardrails;

/** What a guardrail finds in a source row before a run; each kind with its limit's name. */
public enum Guardrail {
  /**
   * The row's cells together are over {@code hbase.table.max.rowsize}: a Get or Scan of it fails.
   */
  ROW_TOO_BIG("rows over hbase.table.max.rowsize", "bytes"),
  /**
   * A cell (as a KeyValue under the target key) is over {@code hbase.client.keyvalue.maxsize} or
   * the size given: the backfill quarantines its row, a client can never write it again.
   */
  CELL_TOO_BIG("cells over the cell size limit", "bytes"),
  /** The row has more columns than the count given. */
  ROW_TOO_WIDE("rows wider than the column limit", "columns"),
  /** The key rekeyed with the target layout is over HBase's row key limit (Short.MAX_VALUE). */
  KEY_TOO_LONG("keys over HBase's key length after rekeying", "bytes"),
  /** The source layout cannot decode the key (or the target layout cannot encode its fields). */
  UNDECODABLE("keys the source layout cannot decode", "");

  private final String title;
  private final String unit;

  Guardrail(String title, String unit) {
    this.title = title;
    this.unit = unit;
  }

  /** The kind as a report's heading says it. */
  public String title() {
    return title;
  }

  /** What a finding's measure counts ("" when it has none). */
  public String unit() {
    return unit;
  }
}
