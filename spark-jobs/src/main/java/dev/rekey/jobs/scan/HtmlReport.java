package dev.rekey.jobs.scan;

import static dev.rekey.common.HtmlPage.bold;
import static dev.rekey.common.HtmlPage.code;

import dev.rekey.common.HtmlPage;
import dev.rekey.common.SvgChart;
import java.util.List;

/**
 * report.html: the scan's totals, a bar chart of rows per region, the per-region table and each
 * report's first rows, on one {@link HtmlPage}.
 */
public final class HtmlReport {
  private HtmlReport() {}

  public static String render(ScanResult r) {
    HtmlPage page = new HtmlPage("rekey scan: " + r.source());
    page.h1("rekey scan of ", r.source())
        .p(
            "Layout ",
            bold(r.layout()),
            ", window " + r.window() + ", " + r.regions() + " regions, " + r.partitions(),
            " partitions (" + r.splitsPerRegion() + " per region), " + r.millis() + " ms.")
        .p(r.accounting());

    List<RegionTotals> regions = r.perRegion();
    page.h2("Rows per region")
        .add(
            SvgChart.bars(
                "rows per region",
                regions.stream().map(RegionTotals::rows).toList(),
                "#4a7bb7",
                i -> String.valueOf(regions.get(i).region()),
                i -> "region " + regions.get(i).region() + ": " + regions.get(i).rows() + " rows"));
    HtmlPage.Table table =
        new HtmlPage.Table(
            "region", "start key", "partitions", "rows", "cells", "bytes", "ms", "undecodable");
    for (RegionTotals t : regions) {
      table.row(
          t.region(),
          code(t.startKeyHex()),
          t.partitions(),
          t.rows(),
          t.cells(),
          t.bytes(),
          t.millis(),
          t.undecodable());
    }
    page.add(table);

    for (ReportOutput rep : r.reports()) {
      page.h2("Report ", rep.name())
          .p(rep.description())
          .p(
              rep.rows() + " rows from ",
              code(rep.file()),
              ", written to ",
              code(rep.path()),
              rep.preview().size() < rep.rows()
                  ? "; the first " + rep.preview().size() + " shown."
                  : ".");
      HtmlPage.Table preview = new HtmlPage.Table(rep.columns().toArray(String[]::new));
      rep.preview().forEach(row -> preview.row(row.toArray()));
      page.add(preview);
    }
    return page.render();
  }
}
