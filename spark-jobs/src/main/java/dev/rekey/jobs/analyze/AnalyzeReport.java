package dev.rekey.jobs.analyze;

import static dev.rekey.common.HtmlPage.code;
import static dev.rekey.common.HtmlPage.span;

import dev.rekey.common.HtmlPage;
import dev.rekey.common.Json;
import dev.rekey.common.OutputDir;
import dev.rekey.common.SvgChart;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.Path;

/** The analyze result as a console table, analyze.json and analyze.html (an {@link HtmlPage}). */
public final class AnalyzeReport {
  static final int MAX_ROWS_PRINTED = 64;
  public static final String JSON = "analyze.json";
  public static final String HTML = "analyze.html";

  private AnalyzeReport() {}

  /** Writes analyze.json and analyze.html into the directory; returns their paths. */
  public static List<Path> write(AnalyzeResult r, OutputDir dir) {
    dir.create();
    dir.write(JSON, Json.pretty(r) + "\n");
    dir.write(HTML, html(r));
    return files(dir);
  }

  /** Where {@link #write} puts analyze.json and analyze.html in {@code dir}. */
  public static List<Path> files(OutputDir dir) {
    return List.of(dir.resolve(JSON), dir.resolve(HTML));
  }

  public static String console(AnalyzeResult r) {
    StringBuilder sb = new StringBuilder();
    summary(sb, r);
    regions(sb, r);
    servers(sb, r);
    verdict(sb, r);
    simulation(sb, r);
    return sb.toString();
  }

  /** The source, what was read, the leading byte and the write order. */
  private static void summary(StringBuilder sb, AnalyzeResult r) {
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
  }

  /** The table's regions, the first {@link #MAX_ROWS_PRINTED}. */
  private static void regions(StringBuilder sb, AnalyzeResult r) {
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
  }

  /** The RegionServers' share of the table's requests. */
  private static void servers(StringBuilder sb, AnalyzeResult r) {
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
  }

  /** The verdict with its reasons, the recommendation with its own. */
  private static void verdict(StringBuilder sb, AnalyzeResult r) {
    Verdict v = r.verdict();
    sb.append(String.format(Locale.ROOT, "%nverdict: %s%n", v.headline()));
    v.reasons().forEach(x -> sb.append("  - ").append(x).append('\n'));
    sb.append(
        String.format(
            Locale.ROOT,
            "recommendation: %s%s, %d regions%n",
            v.shape(),
            v.buckets() > 0 ? ", N = " + v.buckets() : "",
            v.regions()));
    v.recommendation().forEach(x -> sb.append("  - ").append(x).append('\n'));
  }

  /** The proposed layout's simulated spread, when one was asked for. */
  private static void simulation(StringBuilder sb, AnalyzeResult r) {
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

  public static String html(AnalyzeResult r) {
    HtmlPage page = new HtmlPage("rekey analyze " + r.source());
    page.h1("rekey analyze: ", r.source())
        .p(
            String.format(
                Locale.ROOT,
                "%,d rows read, %,d sampled; layout %s; %d live RegionServer(s).",
                r.rowsRead(),
                r.sampledRows(),
                r.layout() == null ? "not given" : r.layout(),
                r.liveServers()));
    Verdict v = r.verdict();
    page.h2(
            "Verdict: ",
            switch (v.outcome()) {
              case HOTSPOT -> span("bad", v.headline());
              case NO_HOTSPOT -> span("ok", v.headline());
              case CANNOT_JUDGE -> v.headline();
            })
        .list(v.reasons())
        .h2(
            "Recommendation: "
                + v.shape()
                + (v.buckets() > 0 ? ", N = " + v.buckets() : "")
                + ", "
                + v.regions()
                + " regions")
        .list(v.recommendation());

    leadingByte(page, r);
    regions(page, r);
    simulation(page, r);
    return page.render();
  }

  /** The leading byte's histogram: a salted key's N values, else all 256. */
  private static void leadingByte(HtmlPage page, AnalyzeResult r) {
    // a salted key's leading byte only takes 0..N-1: show those N values, wide enough to compare
    int shown = r.saltBuckets() > 0 ? r.saltBuckets() : 256;
    List<Long> hist = new ArrayList<>();
    for (int b = 0; b < shown; b++) {
      hist.add(r.leadingByteHistogram()[b]);
    }
    page.h2("Leading byte of the row keys")
        .p(r.leadingByte(), ", over the sampled rows.")
        .add(
            SvgChart.bars(
                shown == 256 ? "rows per leading byte" : "rows per salt byte",
                hist,
                "#4477aa",
                AnalyzeReport::hexByte,
                b -> hexByte(b) + ": " + hist.get(b) + " rows"));
  }

  /** Rows and write requests per region, the regions' and the servers' tables. */
  private static void regions(HtmlPage page, AnalyzeResult r) {
    List<RegionStat> regions = r.regions();
    page.h2("Regions")
        .p("Rows read per region, and the RegionServer's write request counts.")
        .add(
            SvgChart.bars(
                "rows per region",
                regions.stream().map(g -> Math.max(0, g.rows())).toList(),
                "#228833",
                i -> String.valueOf(i + 1),
                i -> "region " + (i + 1) + ": " + regions.get(i).rows() + " rows"))
        .add(
            SvgChart.bars(
                "write requests per region",
                regions.stream().map(RegionStat::writeRequests).toList(),
                "#cc6677",
                i -> String.valueOf(i + 1),
                i -> "region " + (i + 1) + ": " + regions.get(i).writeRequests() + " writes"));
    HtmlPage.Table table =
        new HtmlPage.Table(
            "#", "start", "end", "server", "rows", "read req", "write req", "store MB");
    for (RegionStat g : regions) {
      table.row(
          g.index() + 1,
          code(g.startKeyHex()),
          code(g.endKeyHex()),
          g.server(),
          g.rows(),
          g.readRequests(),
          g.writeRequests(),
          g.storeFileMb() + g.memStoreMb());
    }
    HtmlPage.Table servers =
        new HtmlPage.Table(
            "server", "regions", "read req", "write req", "all requests", "salt tails");
    for (ServerStat s : r.servers()) {
      servers.row(
          s.server(),
          s.tableRegions(),
          s.tableReadRequests(),
          s.tableWriteRequests(),
          s.allRequests(),
          s.tailBuckets().isEmpty() ? "-" : s.tailBuckets().toString());
    }
    page.add(table).h2("RegionServers").add(servers);
  }

  /** The proposed layout's simulated spread, when one was asked for. */
  private static void simulation(HtmlPage page, AnalyzeResult r) {
    Simulation s = r.simulation();
    if (s != null) {
      page.h2("Simulation: " + s.layout() + " with " + s.splits())
          .p(
              String.format(
                  Locale.ROOT,
                  "%d regions, max/mean %.2f, %d empty, 90%% of rows in %d region(s).",
                  s.regions(),
                  s.maxOverMean(),
                  s.emptyRegions(),
                  s.regionsFor90Percent()));
      s.warnings().forEach(page::warning);
      page.add(
          SvgChart.bars(
              "predicted rows per proposed region",
              s.predictedRows(),
              "#aa7733",
              i -> String.valueOf(i + 1),
              i -> "region " + (i + 1) + ": " + s.predictedRows().get(i) + " rows"));
    }
  }

  private static String hexByte(int b) {
    return String.format(Locale.ROOT, "0x%02x", b);
  }
}
