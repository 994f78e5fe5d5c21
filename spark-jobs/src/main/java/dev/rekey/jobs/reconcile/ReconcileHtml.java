package dev.rekey.jobs.reconcile;

import static dev.rekey.common.HtmlPage.bold;
import static dev.rekey.common.HtmlPage.code;
import static dev.rekey.common.HtmlPage.span;

import dev.rekey.common.HtmlPage;
import dev.rekey.common.SvgChart;
import java.util.List;
import java.util.Locale;

/**
 * reconcile.html: the verdict, the mismatched buckets with their drill-downs first, a chart of rows
 * per bucket on which every mismatch is marked at least a few pixels wide whatever the range, then
 * all buckets with runs of matching ones folded into one row.
 */
public final class ReconcileHtml {
  /**
   * Most columns a chart draws: more buckets than this are summed into columns of several
   * consecutive buckets.
   */
  static final int CHART_COLUMNS = 240;

  /**
   * A mismatch mark is never narrower than this (px), so one bad hour among two years of them still
   * shows.
   */
  static final double MIN_MARK_PX = 5;

  private ReconcileHtml() {}

  public static String render(ReconcileResult r) {
    HtmlPage page = new HtmlPage("rekey reconcile");
    page.h1("rekey reconcile: ", r.matches() ? span("ok", "MATCH") : span("bad", "MISMATCH"))
        .p(
            bold(ReconcileReport.verdict(r)),
            new HtmlPage.Markup("<br>"),
            ReconcileReport.range(r)
                + ", time "
                + r.time()
                + ", "
                + (r.digest() ? "content digests compared" : "counts only"))
        .list(List.of(side("old", r.old()), side("new", r.neu())));
    if (!r.matches()) {
      page.h2("Mismatched buckets (", String.format(Locale.ROOT, "%,d", r.mismatchedBuckets()), ")")
          .add(
              bucketTable(
                  r.buckets().stream()
                      .filter(b -> !b.matches())
                      .map(b -> new TimeBucketRun(List.of(b)))
                      .toList()));
      drills(r, page);
    }
    chart(r, page);
    List<TimeBucketRun> runs = TimeBucketRun.of(r.buckets());
    page.h2("All buckets");
    if (runs.size() < r.buckets().size()) {
      page.p(
          String.format(
              Locale.ROOT,
              "%,d buckets on %,d row%s: each run of matching or empty buckets is one row"
                  + " (reconcile.json lists every bucket).",
              r.buckets().size(),
              runs.size(),
              runs.size() == 1 ? "" : "s"));
    }
    return page.add(bucketTable(runs)).render();
  }

  private static String side(String name, SideSummary s) {
    return name
        + ": "
        + s.source()
        + " (layout "
        + s.layout()
        + ", "
        + ReconcileReport.regions(s.regions())
        + "): "
        + s.accounting();
  }

  private static HtmlPage.Table bucketTable(List<TimeBucketRun> runs) {
    HtmlPage.Table t =
        new HtmlPage.Table(
            "bucket",
            "buckets",
            "old rows",
            "new rows",
            "difference",
            "old cells",
            "new cells",
            "digest ok",
            "status");
    for (TimeBucketRun run : runs) {
      t.rowWithClass(
          run.mismatch() ? "bad" : run.single() ? null : "run",
          run.label(),
          run.size(),
          run.oldRows(),
          run.newRows(),
          String.format(Locale.ROOT, "%+,d", run.newRows() - run.oldRows()),
          run.oldCells(),
          run.newCells(),
          run.digestOk(),
          run.status());
    }
    return t;
  }

  private static void drills(ReconcileResult r, HtmlPage page) {
    for (TimeBucketComparison b : r.buckets()) {
      TimeBucketDrill d = r.drill(b.index());
      if (d == null) {
        continue;
      }
      page.h3(
          String.format(
              Locale.ROOT,
              "%s: %,d missing in new, %,d extra in new, %,d with different content",
              TimeSpec.iso(b.start()),
              d.missingInNew(),
              d.extraInNew(),
              d.contentDiffers()));
      if (d.samples().isEmpty()) {
        continue;
      }
      HtmlPage.Table t =
          new HtmlPage.Table(
              "kind",
              "natural key",
              "old row key",
              "new row key",
              "old cells",
              "new cells",
              "differing cells");
      for (Sample s : d.samples()) {
        StringBuilder key = new StringBuilder();
        s.key().forEach((k, v) -> key.append(k).append('=').append(v).append(' '));
        t.row(
            s.kind().label(),
            code(key.toString().trim()),
            code(s.oldRowKey() == null ? "-" : "0x" + s.oldRowKey()),
            code(s.newRowKey() == null ? "-" : "0x" + s.newRowKey()),
            s.oldCells(),
            s.newCells(),
            code(String.join("; ", s.cellDiffs())));
      }
      page.add(t);
    }
  }

  private static void chart(ReconcileResult r, HtmlPage page) {
    List<ChartColumn> cols = ChartColumn.of(r.buckets(), CHART_COLUMNS);
    int width = 1000;
    int left = 70;
    int right = 10;
    int strip = 18; // the mismatch strip above the plot
    int plotTop = strip + 6;
    int plotHeight = 200;
    int axis = plotTop + plotHeight;
    double slot = (double) (width - left - right) / cols.size();
    long max = 1;
    for (ChartColumn c : cols) {
      max = Math.max(max, Math.max(c.oldRows(), c.newRows()));
    }
    double scale = plotHeight / (double) max;
    SvgChart svg = new SvgChart(width, axis + 34, "rows per bucket");
    svg.text(left - 6, plotTop + 10, "end", "axis", String.format(Locale.ROOT, "%,d", max))
        .text(left - 6, axis, "end", "axis", "0")
        .text(left - 6, strip - 4, "end", "warn", "differs")
        .rect(null, left, 2, width - left - right, strip - 2, "#f6f6f6", null);
    // bands and marks first, bars over them
    for (int i = 0; i < cols.size(); i++) {
      ChartColumn c = cols.get(i);
      if (c.mismatched() == 0) {
        continue;
      }
      double w = Math.max(slot, MIN_MARK_PX);
      double x = left + i * slot + slot / 2 - w / 2;
      String title =
          c.firstMismatch()
              + (c.mismatched() > 1 ? " and " + (c.mismatched() - 1) + " more" : "")
              + ": "
              + c.mismatched()
              + " bucket(s) differ";
      svg.rect("mismatch", x, plotTop, w, plotHeight, "#fbd0d0", null)
          .rect("mark", x, 2, w, strip - 2, "#c62828", title);
    }
    for (int i = 0; i < cols.size(); i++) {
      ChartColumn c = cols.get(i);
      double x = left + i * slot;
      double bw = Math.max(0.6, slot * 0.42);
      double ho = c.oldRows() * scale;
      double hn = c.newRows() * scale;
      if (ho > 0) {
        svg.rect(null, x + slot * 0.08, axis - ho, bw, ho, "#5b8def", rows(c, "old", c.oldRows()));
      }
      if (hn > 0) {
        String fill = c.mismatched() == 0 ? "#2e9e5b" : "#c62828";
        svg.rect(null, x + slot * 0.5, axis - hn, bw, hn, fill, rows(c, "new", c.newRows()));
      }
    }
    long mid = r.from() + (r.to() - r.from()) / 2;
    svg.line(left, axis, width - right, axis)
        .text(left, axis + 16, "start", "axis", TimeSpec.iso(r.from()))
        .text(left + (width - left - right) / 2.0, axis + 16, "middle", "axis", TimeSpec.iso(mid))
        .text(width - right, axis + 16, "end", "axis", TimeSpec.iso(r.to()));
    int per = cols.get(0).buckets();
    page.h2("Rows per bucket")
        .add(svg.markup())
        .p(
            "Blue: old rows; green: new rows; red: a bucket that differs (marked in the strip on"
                + " top, at least "
                + (int) MIN_MARK_PX
                + " px wide at any range)"
                + (per > 1
                    ? String.format(
                        Locale.ROOT,
                        "; each column sums %,d consecutive buckets of %s",
                        per,
                        ReconcileReport.human(r.bucketMillis()))
                    : "")
                + ".");
  }

  private static String rows(ChartColumn c, String side, long rows) {
    return String.format(Locale.ROOT, "%s: %s %,d rows", c.label(), side, rows);
  }
}
