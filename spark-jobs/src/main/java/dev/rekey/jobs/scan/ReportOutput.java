package dev.rekey.jobs.scan;

import java.util.List;

/**
 * One report's outcome.
 *
 * @param name report name (its output directory under --out)
 * @param file the .sql file
 * @param description the file's header description
 * @param rows rows the query returned (all written)
 * @param path output directory
 * @param columns result column names
 * @param preview the first rows as display strings (binary as hex, timestamps as UTC ISO-8601), for
 *     report.html
 * @param millis time to run and write it
 */
public record ReportOutput(
    String name,
    String file,
    String description,
    long rows,
    String path,
    List<String> columns,
    List<List<String>> preview,
    long millis) {
  public ReportOutput {
    columns = List.copyOf(columns);
    preview = preview.stream().map(List::copyOf).toList();
  }
}
