package dev.rekey.jobs.scan;

import dev.rekey.common.JobPhase;
import dev.rekey.common.OutputDir;
import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.Hex;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.storage.StorageLevel;

/**
 * One report of a scan, run and written: its query on the views the scan registered, the output in
 * the scan's format, and a preview of its first rows as text for report.html.
 */
final class ReportWrite {
  /** Reports up to this many rows are written as one file. */
  static final long SINGLE_FILE_ROWS = 1_000_000;

  private final SparkSession spark;
  private final ScanOptions options;

  ReportWrite(SparkSession spark, ScanOptions options) {
    this.spark = spark;
    this.options = options;
  }

  /**
   * Runs the report on the session's views and writes it to {@code out/<name>/}; the result has its
   * row count and the first {@code --html-rows} rows for report.html.
   */
  ReportOutput run(ReportFile report, OutputDir out, Consumer<String> progress) {
    long t0 = System.nanoTime();
    progress.accept("  report " + report.name() + " (" + report.path() + ")");
    Dataset<Row> df =
        ReportRunner.query(spark, report, options.reportValues())
            .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      long rows;
      List<Row> preview;
      org.apache.hadoop.fs.Path dir = out.resolve(report.name());
      try (JobPhase phase =
          JobPhase.start(spark.sparkContext(), "scan: report %s", report.name())) {
        rows = df.count();
        preview = df.limit(options.htmlRows()).collectAsList();
        Dataset<Row> w = options.format() == OutputFormat.CSV ? binaryAsHex(df) : df;
        // one file for a report of up to a million rows (most are aggregates); coalesce keeps an
        // ORDER BY's order
        w = rows <= SINGLE_FILE_ROWS ? w.coalesce(1) : w;
        w.write()
            .mode(SaveMode.Overwrite)
            .format(options.format().sparkName())
            .option("header", "true")
            .save(dir.toString());
      } catch (RuntimeException e) {
        if (e instanceof RekeyException) {
          throw e;
        }
        throw RekeyException.cannot(
            e,
            "Report %s (%s) failed while running: %s",
            report.name(),
            report.path(),
            String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()));
      }
      List<String> columns = Arrays.asList(df.columns());
      List<List<String>> shown = new ArrayList<>();
      for (Row r : preview) {
        List<String> cells = new ArrayList<>(r.size());
        for (int i = 0; i < r.size(); i++) {
          cells.add(display(r.get(i)));
        }
        shown.add(cells);
      }
      long ms = (System.nanoTime() - t0) / 1_000_000;
      progress.accept(
          String.format(
              "    %,d rows -> %s (%s)", rows, out.display(dir), options.format().sparkName()));
      return new ReportOutput(
          report.name(),
          report.path().toString(),
          report.description(),
          rows,
          out.display(dir),
          columns,
          shown,
          ms);
    } finally {
      df.unpersist(true);
    }
  }

  /** CSV cannot hold binary: write it as lower-case hex. */
  static Dataset<Row> binaryAsHex(Dataset<Row> df) {
    Dataset<Row> out = df;
    for (StructField f : df.schema().fields()) {
      if (f.dataType() instanceof BinaryType) {
        Column c = functions.lower(functions.hex(functions.col("`" + f.name() + "`")));
        out = out.withColumn(f.name(), c);
      }
    }
    return out;
  }

  static String display(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof byte[] b) {
      return Hex.of(b);
    }
    if (v instanceof Timestamp t) {
      return t.toInstant().toString();
    }
    return v.toString();
  }
}
