package dev.rekey.jobs.scan;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import java.util.List;
import java.util.Map;
import org.apache.spark.QueryContext;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Runs one report's query on the session's views; a SQL error names the report file and line. */
final class ReportRunner {
  private ReportRunner() {}

  /**
   * Parses and analyses every report of {@code o} against the views' schema, which the layout and
   * the wide columns give before any row is read: a syntax error or an unknown column fails here,
   * with Spark's reason and the file's line, instead of after a read of the whole window. The views
   * are empty local relations in a session of their own (the job's views are untouched); Spark
   * analyses a query eagerly, so no Spark job runs.
   */
  static void check(SparkSession spark, ScanOptions o) {
    if (o.reports().isEmpty()) {
      return;
    }
    SparkSession session = spark.newSession();
    ScanViews views = new ScanViews(o.layout(), o.columns());
    session
        .createDataFrame(List.<Row>of(), views.rowSchema())
        .createOrReplaceTempView(ScanViews.ROWS);
    session
        .createDataFrame(List.<Row>of(), views.cellSchema())
        .createOrReplaceTempView(ScanViews.CELLS);
    for (ReportFile report : o.reports()) {
      query(session, report, o.reportValues());
    }
  }

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
    String where = report.path() + (line > 0 ? ":" + line : "");
    String text = line > 0 ? " (" + report.line(line) + ")" : "";
    return new RekeyException(
        String.format(
            "Cannot run report %s: SQL error at %s%s: %s (the views are %s and %s, see"
                + " sql/README.md)",
            report.name(), where, text, reason(e), ScanViews.ROWS, ScanViews.CELLS),
        ExitCodes.USAGE,
        e);
  }

  /**
   * Spark's reason, on one line: the first non-blank line of its message (a ParseException's
   * message starts with a line break, then the reason and its position, then the query).
   */
  static String reason(AnalysisException e) {
    return String.valueOf(e.getMessage())
        .lines()
        .map(String::trim)
        .filter(l -> !l.isEmpty())
        .findFirst()
        .orElse(e.getClass().getSimpleName());
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
