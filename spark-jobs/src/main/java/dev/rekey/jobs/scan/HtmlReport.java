package dev.rekey.jobs.scan;

import java.util.List;

/**
 * report.html: one self-contained page (inline CSS and SVG, no scripts, nothing fetched) with the
 * scan's totals, a bar chart of rows per region, the per-region table and each report's first rows.
 */
public final class HtmlReport {
  private static final int CHART_WIDTH = 760;
  private static final int CHART_HEIGHT = 180;

  private HtmlReport() {}

  public static String render(ScanResult r) {
    StringBuilder h = new StringBuilder(16_384);
    h.append(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>rekey scan: ")
        .append(esc(r.source()))
        .append("</title>\n<style>")
        .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}")
        .append("table{border-collapse:collapse;margin:.5em 0 1.5em}")
        .append("th,td{border:1px solid #ccc;padding:2px 8px;font-size:13px;text-align:right}")
        .append("th{background:#f0f0f0}td.t{text-align:left;font-family:monospace}")
        .append(".bar{fill:#4a7bb7}.axis{font-size:11px;fill:#555}</style></head><body>\n");
    h.append("<h1>rekey scan of ")
        .append(esc(r.source()))
        .append("</h1>\n<p>Layout <b>")
        .append(esc(r.layout()))
        .append("</b>, window ")
        .append(esc(r.window().toString()))
        .append(", ")
        .append(r.regions())
        .append(" regions, ")
        .append(r.partitions())
        .append(" partitions (")
        .append(r.splitsPerRegion())
        .append(" per region), ")
        .append(r.millis())
        .append(" ms.</p>\n<p>")
        .append(esc(r.accounting()))
        .append("</p>\n");

    h.append("<h2>Rows per region</h2>\n").append(chart(r.perRegion()));
    h.append(
        "<table><tr><th>region</th><th>start key</th><th>partitions</th><th>rows</th><th>cells</th>"
            + "<th>bytes</th><th>ms</th><th>undecodable</th></tr>\n");
    for (RegionTotals t : r.perRegion()) {
      h.append("<tr><td>")
          .append(t.region())
          .append("</td><td class=\"t\">")
          .append(esc(t.startKeyHex()))
          .append("</td><td>")
          .append(t.partitions())
          .append("</td><td>")
          .append(t.rows())
          .append("</td><td>")
          .append(t.cells())
          .append("</td><td>")
          .append(t.bytes())
          .append("</td><td>")
          .append(t.millis())
          .append("</td><td>")
          .append(t.undecodable())
          .append("</td></tr>\n");
    }
    h.append("</table>\n");

    for (ReportOutput rep : r.reports()) {
      h.append("<h2>Report ")
          .append(esc(rep.name()))
          .append("</h2>\n<p>")
          .append(esc(rep.description()))
          .append("</p>\n<p>")
          .append(rep.rows())
          .append(" rows from <code>")
          .append(esc(rep.file()))
          .append("</code>, written to <code>")
          .append(esc(rep.path()))
          .append("</code>")
          .append(
              rep.preview().size() < rep.rows()
                  ? "; the first " + rep.preview().size() + " shown"
                  : "")
          .append(".</p>\n<table><tr>");
      for (String c : rep.columns()) {
        h.append("<th>").append(esc(c)).append("</th>");
      }
      h.append("</tr>\n");
      for (List<String> row : rep.preview()) {
        h.append("<tr>");
        for (String v : row) {
          h.append(isNumber(v) ? "<td>" : "<td class=\"t\">").append(esc(v)).append("</td>");
        }
        h.append("</tr>\n");
      }
      h.append("</table>\n");
    }
    return h.append("</body></html>\n").toString();
  }

  /** A bar per region, heights relative to the busiest region. */
  static String chart(List<RegionTotals> regions) {
    long max = Math.max(1, regions.stream().mapToLong(RegionTotals::rows).max().orElse(1));
    int n = Math.max(1, regions.size());
    double slot = (double) (CHART_WIDTH - 60) / n;
    double bar = Math.max(1, slot * 0.8);
    StringBuilder s = new StringBuilder();
    s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(CHART_WIDTH)
        .append("\" height=\"")
        .append(CHART_HEIGHT + 30)
        .append("\" role=\"img\" aria-label=\"rows per region\">\n");
    s.append("<text class=\"axis\" x=\"0\" y=\"12\">").append(max).append("</text>");
    s.append("<text class=\"axis\" x=\"0\" y=\"").append(CHART_HEIGHT).append("\">0</text>\n");
    for (int i = 0; i < regions.size(); i++) {
      RegionTotals t = regions.get(i);
      double h = (double) t.rows() / max * (CHART_HEIGHT - 20);
      double x = 50 + i * slot;
      s.append(
          String.format(
              java.util.Locale.ROOT,
              "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>region %d: %d rows</title>"
                  + "</rect>",
              x,
              CHART_HEIGHT - h,
              bar,
              h,
              t.region(),
              t.rows()));
      if (n <= 40 || i % (n / 20 + 1) == 0) {
        s.append(
            String.format(
                java.util.Locale.ROOT,
                "<text class=\"axis\" x=\"%.1f\" y=\"%d\">%d</text>",
                x,
                CHART_HEIGHT + 14,
                t.region()));
      }
      s.append('\n');
    }
    return s.append("</svg>\n").toString();
  }

  private static boolean isNumber(String v) {
    return v != null && v.matches("-?\\d+(\\.\\d+)?(E-?\\d+)?");
  }

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
