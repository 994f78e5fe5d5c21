package dev.rekey.jobs.analyze;

import dev.rekey.jobs.common.AtomicJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The analyze result as a console table, analyze.json and a self-contained analyze.html (inline
 * SVG, no scripts).
 */
public final class AnalyzeReport {
  static final int MAX_ROWS_PRINTED = 64;

  private AnalyzeReport() {}

  /** Writes analyze.json and analyze.html into the directory; returns their paths. */
  public static List<Path> write(AnalyzeResult r, Path dir) {
    Path json = dir.resolve("analyze.json");
    Path html = dir.resolve("analyze.html");
    AtomicJson.write(json, r);
    AtomicJson.writeText(html, html(r));
    return List.of(json, html);
  }

  public static String console(AnalyzeResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "analyze %s%s: %,d rows read, %,d sampled, %d live RegionServer(s), %.1f s%n",
            r.source(),
            r.layout() == null ? "" : " (layout " + r.layout() + ")",
            r.rowsRead(),
            r.sampledRows(),
            r.liveServers(),
            r.seconds()));
    sb.append(r.leadingByte())
        .append("; top values: ")
        .append(topBytes(r.leadingByteHistogram(), 4))
        .append('\n');
    sb.append(
        String.format(
            Locale.ROOT,
            "write order: %.1f%% of writes append above every earlier key; %s rows (%,d "
                + "sampled): %.0f%% in region %d, %d region(s) hit%n",
            100 * r.appendFraction(),
            r.recentLabel(),
            r.recentRows(),
            100 * r.recentTopRegionShare(),
            r.recentTopRegion() + 1,
            r.recentRegionsHit()));
    sb.append(String.format(Locale.ROOT, "%nregions of %s:%n", r.table()));
    sb.append(
        String.format(
            Locale.ROOT,
            "  %4s  %-18s  %-18s  %-22s  %12s  %12s  %12s  %9s%n",
            "#",
            "start",
            "end",
            "server",
            "rows",
            "read req",
            "write req",
            "store MB"));
    int i = 0;
    for (RegionStat g : r.regions()) {
      if (i++ == MAX_ROWS_PRINTED) {
        sb.append("  ... ")
            .append(r.regions().size() - MAX_ROWS_PRINTED)
            .append(" more in analyze.json\n");
        break;
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "  %4d  %-18s  %-18s  %-22s  %,12d  %,12d  %,12d  %9.1f%n",
              g.index() + 1,
              shortHex(g.startKeyHex(), "(start)"),
              shortHex(g.endKeyHex(), "(end)"),
              g.server(),
              g.rows(),
              g.readRequests(),
              g.writeRequests(),
              g.storeFileMb() + g.memStoreMb()));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "%nRegionServers:%n  %-22s  %8s  %12s  %12s  %14s  %s%n",
            "server",
            "regions",
            "read req",
            "write req",
            "all requests",
            "salt tails"));
    for (ServerStat s : r.servers()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-22s  %8d  %,12d  %,12d  %,14d  %s%n",
              s.server(),
              s.tableRegions(),
              s.tableReadRequests(),
              s.tableWriteRequests(),
              s.allRequests(),
              s.tailBuckets().isEmpty() ? "-" : s.tailBuckets()));
    }
    Verdict v = r.verdict();
    sb.append(
        String.format(Locale.ROOT, "%nverdict: %s%n", v.hotspot() ? "HOTSPOT" : "no hotspot"));
    v.reasons().forEach(x -> sb.append("  - ").append(x).append('\n'));
    sb.append(
        String.format(
            Locale.ROOT,
            "recommendation: %s%s, %d regions%n",
            v.shape(),
            v.buckets() > 0 ? ", N = " + v.buckets() : "",
            v.regions()));
    v.recommendation().forEach(x -> sb.append("  - ").append(x).append('\n'));
    Simulation s = r.simulation();
    if (s != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%nsimulation: %s with %s: %d regions, max/mean %.2f, %d empty, 90%% of rows "
                  + "in %d region(s)%n",
              s.layout(),
              s.splits(),
              s.regions(),
              s.maxOverMean(),
              s.emptyRegions(),
              s.regionsFor90Percent()));
      for (int k = 0; k < s.predictedRows().size() && k < MAX_ROWS_PRINTED; k++) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  region %4d  %,12d predicted rows%n",
                k + 1,
                s.predictedRows().get(k)));
      }
      s.warnings().forEach(w -> sb.append("warning: ").append(w).append('\n'));
    }
    return sb.toString();
  }

  static String topBytes(long[] h, int n) {
    long total = 0;
    for (long c : h) {
      total += c;
    }
    List<Integer> idx = new ArrayList<>();
    for (int b = 0; b < 256; b++) {
      idx.add(b);
    }
    idx.sort((a, b) -> Long.compare(h[b], h[a]));
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < n && h[idx.get(k)] > 0; k++) {
      sb.append(k == 0 ? "" : ", ")
          .append(
              String.format(
                  Locale.ROOT,
                  "0x%02x %.1f%%",
                  idx.get(k),
                  100.0 * h[idx.get(k)] / Math.max(1, total)));
    }
    return sb.length() == 0 ? "none" : sb.toString();
  }

  private static String shortHex(String hex, String empty) {
    if (hex.isEmpty()) {
      return empty;
    }
    return hex.length() > 18 ? hex.substring(0, 16) + ".." : hex;
  }

  // ------------------------------------------------------------------------------------------------ html

  public static String html(AnalyzeResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>rekey analyze ")
        .append(esc(r.source()))
        .append(
            "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse}"
                + "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right;font-size:13px}th{background:#eee}"
                + ".hot{color:#b00;font-weight:bold}.ok{color:#070;font-weight:bold}svg{background:#fafafa;border:1px solid #ddd}"
                + "</style></head><body>\n");
    sb.append("<h1>rekey analyze: ").append(esc(r.source())).append("</h1>\n");
    sb.append(
        String.format(
            Locale.ROOT,
            "<p>%,d rows read, %,d sampled; layout %s; %d live RegionServer(s).</p>%n",
            r.rowsRead(),
            r.sampledRows(),
            esc(r.layout() == null ? "not given" : r.layout()),
            r.liveServers()));
    Verdict v = r.verdict();
    sb.append("<h2>Verdict: <span class=\"")
        .append(v.hotspot() ? "hot\">HOTSPOT" : "ok\">no hotspot")
        .append("</span></h2>\n<ul>");
    v.reasons().forEach(x -> sb.append("<li>").append(esc(x)).append("</li>"));
    sb.append("</ul>\n<h2>Recommendation: ")
        .append(esc(v.shape()))
        .append(v.buckets() > 0 ? ", N = " + v.buckets() : "")
        .append(", ")
        .append(v.regions())
        .append(" regions</h2>\n<ul>");
    v.recommendation().forEach(x -> sb.append("<li>").append(esc(x)).append("</li>"));
    sb.append("</ul>\n");

    sb.append("<h2>Leading byte of the row keys</h2>\n<p>")
        .append(esc(r.leadingByte()))
        .append(", over the sampled rows.</p>\n");
    List<Long> hist = new ArrayList<>();
    // a salted key's leading byte only takes 0..N-1: show those N values, wide enough to compare
    int shown = r.saltBuckets() > 0 ? r.saltBuckets() : 256;
    for (int b = 0; b < shown; b++) {
      hist.add(r.leadingByteHistogram()[b]);
    }
    sb.append(
        bars(
            hist,
            shown == 256 ? 3 : Math.max(4, Math.min(40, 760 / shown)),
            160,
            shown == 256
                ? "leading byte 0x00 .. 0xff"
                : String.format(Locale.ROOT, "salt byte 0x00 .. 0x%02x", shown - 1),
            "#4477aa"));

    sb.append(
        "<h2>Regions</h2>\n<p>Rows read per region, and the RegionServer's write request counts.</p>\n");
    List<Long> rows = new ArrayList<>();
    List<Long> writes = new ArrayList<>();
    r.regions()
        .forEach(
            g -> {
              rows.add(Math.max(0, g.rows()));
              writes.add(g.writeRequests());
            });
    int w = Math.max(4, Math.min(40, 760 / Math.max(1, rows.size())));
    sb.append(bars(rows, w, 120, "rows per region", "#228833"));
    sb.append(bars(writes, w, 120, "write requests per region", "#cc6677"));
    sb.append(
        "<table><tr><th>#</th><th>start</th><th>end</th><th>server</th><th>rows</th><th>read req</th>"
            + "<th>write req</th><th>store MB</th></tr>\n");
    for (RegionStat g : r.regions()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%,d</td><td>%,d</td>"
                  + "<td>%,d</td><td>%.1f</td></tr>%n",
              g.index() + 1,
              esc(g.startKeyHex()),
              esc(g.endKeyHex()),
              esc(g.server()),
              g.rows(),
              g.readRequests(),
              g.writeRequests(),
              g.storeFileMb() + g.memStoreMb()));
    }
    sb.append(
        "</table>\n<h2>RegionServers</h2>\n<table><tr><th>server</th><th>regions</th><th>read req</th>"
            + "<th>write req</th><th>all requests</th><th>salt tails</th></tr>\n");
    for (ServerStat s : r.servers()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%d</td><td>%,d</td><td>%,d</td><td>%,d</td><td>%s</td></tr>%n",
              esc(s.server()),
              s.tableRegions(),
              s.tableReadRequests(),
              s.tableWriteRequests(),
              s.allRequests(),
              s.tailBuckets().isEmpty() ? "-" : esc(s.tailBuckets().toString())));
    }
    sb.append("</table>\n");
    Simulation s = r.simulation();
    if (s != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "<h2>Simulation: %s with %s</h2>%n<p>%d regions, max/mean %.2f, %d empty, 90%% "
                  + "of rows in %d region(s).</p>%n",
              esc(s.layout()),
              esc(s.splits()),
              s.regions(),
              s.maxOverMean(),
              s.emptyRegions(),
              s.regionsFor90Percent()));
      s.warnings().forEach(x -> sb.append("<p class=\"hot\">").append(esc(x)).append("</p>\n"));
      sb.append(
          bars(
              s.predictedRows(),
              Math.max(4, Math.min(40, 760 / Math.max(1, s.regions()))),
              120,
              "predicted rows per proposed region",
              "#aa7733"));
    }
    sb.append("</body></html>\n");
    return sb.toString();
  }

  /** A bar chart as inline SVG: one bar per value, scaled to the largest. */
  static String bars(List<Long> values, int barWidth, int height, String label, String color) {
    long max = 1;
    for (long x : values) {
      max = Math.max(max, x);
    }
    int width = Math.max(200, values.size() * barWidth + 2);
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
                + "aria-label=\"%s\">",
            width,
            height + 16,
            esc(label)));
    for (int i = 0; i < values.size(); i++) {
      long x = values.get(i);
      int h = x == 0 ? 0 : Math.max(1, (int) Math.round((double) x / max * height));
      sb.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%d: %,d"
                  + "</title></rect>",
              1 + i * barWidth,
              height - h,
              Math.max(1, barWidth - (barWidth > 3 ? 1 : 0)),
              h,
              color,
              i,
              x));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"2\" y=\"%d\" font-size=\"11\">%s (max %,d)</text></svg>%n",
            height + 13,
            esc(label),
            max));
    return sb.toString();
  }

  static String esc(String s) {
    return s == null
        ? ""
        : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
