package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.RekeyException;
import java.util.Map;
import org.apache.spark.QueryContext;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Runs one report's query on the session's views; a SQL error names the report file and line. */
final class ReportRunner {
  private ReportRunner() {}

  static Dataset<Row> query(SparkSession spark, ReportFile report, Map<String, String> values) {
    String sql = report.render(values);
    try {
      return spark.sql(sql);
    } catch (
        Exception
            e) { // Scala throws checked AnalysisException (ParseException is one too) undeclared
      if (e instanceof AnalysisException ae) {
        throw sqlError(report, sql, ae);
      }
      throw e;
    }
  }

  static RekeyException sqlError(ReportFile report, String sql, AnalysisException e) {
    int line = locate(report, sql, e);
    String first = String.valueOf(e.getMessage()).lines().findFirst().orElse("").trim();
    String where = report.path() + (line > 0 ? ":" + line : "");
    String text = line > 0 ? " (" + report.line(line) + ")" : "";
    return new RekeyException(
        "Report "
            + report.name()
            + " failed: SQL error at "
            + where
            + text
            + ": "
            + first
            + " (the views are "
            + ScanViews.ROWS
            + " and "
            + ScanViews.CELLS
            + ", see sql/README.md)",
        dev.rekey.jobs.common.ExitCodes.USAGE,
        e);
  }

  /**
   * The 1-based line of the error in the file (substitution keeps lines): from Spark's query
   * context, else its parser line, else the first line naming the unresolved object; 0 if unknown.
   */
  static int locate(ReportFile report, String sql, AnalysisException e) {
    for (QueryContext c : e.getQueryContext()) {
      if (c.startIndex() >= 0 && c.startIndex() <= sql.length()) {
        return lineAt(sql, c.startIndex());
      }
    }
    if (e.line().isDefined()) {
      return (Integer) e.line().get();
    }
    Map<String, String> p = e.getMessageParameters();
    for (String key : new String[] {"objectName", "routineName", "relationName", "columnName"}) {
      String v = p.get(key);
      if (v != null) {
        String name = v.replace("`", "");
        int dot = name.lastIndexOf('.');
        int l = report.lineMentioning(dot >= 0 ? name.substring(dot + 1) : name);
        if (l > 0) {
          return l;
        }
      }
    }
    return 0;
  }

  static int lineAt(String text, int index) {
    int line = 1;
    for (int i = 0; i < index && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
