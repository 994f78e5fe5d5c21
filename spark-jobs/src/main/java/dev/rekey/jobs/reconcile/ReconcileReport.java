package dev.rekey.jobs.reconcile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rekey.jobs.common.RegionScan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link ReconcileResult}: the console table, {@code reconcile.json} and a self-contained
 * {@code reconcile.html} (inline SVG, no scripts, no external files). Files are written as {@code
 * *.tmp} and renamed.
 */
public final class ReconcileReport {
  public static final String JSON = "reconcile.json";
  public static final String HTML = "reconcile.html";

  private ReconcileReport() {}

  /** The console report with runs of matching buckets folded into one line each. */
  public static void print(ReconcileResult r, PrintStream out) {
    print(r, out, false);
  }

  /**
   * The console report: the sides, the range, one line per mismatched bucket and one per run of
   * matching (or empty) buckets between them, or every bucket with {@code allBuckets}; then the
   * drill-downs and the verdict.
   */
  public static void print(ReconcileResult r, PrintStream out, boolean allBuckets) {
    out.printf(
        "old: %s (layout %s, %s) %s%n",
        r.old().source(), r.old().layout(), regions(r.old().regions()), r.old().accounting());
    out.printf(
        "new: %s (layout %s, %s) %s%n",
        r.neu().source(), r.neu().layout(), regions(r.neu().regions()), r.neu().accounting());
    for (SideSummary s : new SideSummary[] {r.old(), r.neu()}) {
      if (!s.pruning().isEmpty()) {
        out.printf("  %s reads %s; %s%n", s == r.old() ? "old" : "new", s.reading(), s.pruning());
      }
    }
    out.printf(
        "%s, time %s%s%n",
        range(r),
        r.time(),
        r.digest()
            ? ", content digests compared"
            : ", counts only (add --digest to compare content)");
    List<BucketRun> lines = allBuckets ? BucketRun.each(r.buckets()) : BucketRun.of(r.buckets());
    int width = 24; // an ISO instant and room; runs widen it
    for (BucketRun run : lines) {
      width = Math.max(width, run.label().length());
    }
    String row = "%-" + width + "s %12s %12s %11s %10s  %s%n";
    out.printf(row, "bucket", "old rows", "new rows", "difference", "digest ok", "status");
    for (BucketRun run : lines) {
      out.printf(
          Locale.ROOT,
          row,
          run.label(),
          String.format(Locale.ROOT, "%,d", run.oldRows()),
          String.format(Locale.ROOT, "%,d", run.newRows()),
          String.format(Locale.ROOT, "%+,d", run.newRows() - run.oldRows()),
          run.digestOk(),
          run.status());
    }
    if (lines.size() < r.buckets().size()) {
      out.printf(
          Locale.ROOT,
          "(%,d buckets on %,d line%s: runs of matching or empty buckets are folded into one; "
              + "--all-buckets lists every bucket)%n",
          r.buckets().size(),
          lines.size(),
          lines.size() == 1 ? "" : "s");
    }
    for (BucketComparison b : r.buckets()) {
      BucketDrill d = r.drill(b.index());
      if (d == null) {
        continue;
      }
      out.printf(
          Locale.ROOT,
          "bucket %s: %,d missing in new, %,d extra in new, %,d with different content%s%n",
          TimeSpec.iso(b.start()),
          d.missingInNew(),
          d.extraInNew(),
          d.contentDiffers(),
          d.samples().isEmpty() ? "" : "; samples:");
      for (Sample s : d.samples()) {
        out.println("  " + s.line());
      }
    }
    out.println(verdict(r));
  }

  /** "MATCH: all 24 buckets agree ..." or "MISMATCH: 5 of 17,520 buckets differ ...". */
  static String verdict(ReconcileResult r) {
    long rows = r.buckets().size() - r.emptyBuckets();
    if (r.matches()) {
      return String.format(
          Locale.ROOT,
          "MATCH: all %,d buckets agree (%,d with rows, %,d empty on both sides) in %.1f s",
          r.buckets().size(),
          rows,
          r.emptyBuckets(),
          r.seconds());
    }
    return String.format(
        Locale.ROOT,
        "MISMATCH: %,d of %,d buckets differ (%,d with rows, %,d empty on both sides) in "
            + "%.1f s",
        r.mismatchedBuckets(),
        r.buckets().size(),
        rows,
        r.emptyBuckets(),
        r.seconds());
  }

  /** "buckets of 1h from A to B" and, without --from/--to, where that range came from. */
  static String range(ReconcileResult r) {
    return String.format(
        Locale.ROOT,
        "%,d buckets of %s from %s to %s%s",
        r.buckets().size(),
        human(r.bucketMillis()),
        TimeSpec.iso(r.from()),
        TimeSpec.iso(r.to()),
        r.rangeFromData() ? " (the range of the data: no --from/--to given)" : "");
  }

  /** Writes reconcile.json and reconcile.html into dir (created if needed). */
  public static void write(ReconcileResult r, Path dir) throws IOException {
    Files.createDirectories(dir);
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    atomicWrite(dir.resolve(JSON), mapper.writeValueAsString(json(mapper, r)));
    atomicWrite(dir.resolve(HTML), html(r));
  }

  public static ObjectNode json(ObjectMapper m, ReconcileResult r) {
    ObjectNode root = m.createObjectNode();
    root.put("match", r.matches());
    root.put("exitCode", r.exitCode());
    root.put("from", TimeSpec.iso(r.from()));
    root.put("to", TimeSpec.iso(r.to()));
    root.put("bucketMillis", r.bucketMillis());
    root.put("rangeFromData", r.rangeFromData());
    root.put("time", r.time());
    root.put("digest", r.digest());
    root.put("mismatchedBuckets", r.mismatchedBuckets());
    root.put("emptyBuckets", r.emptyBuckets());
    root.put("seconds", r.seconds());
    root.set("old", side(m, r.old()));
    root.set("new", side(m, r.neu()));
    ArrayNode buckets = root.putArray("buckets");
    for (BucketComparison b : r.buckets()) {
      ObjectNode n = buckets.addObject();
      n.put("index", b.index());
      n.put("start", TimeSpec.iso(b.start()));
      n.put("end", TimeSpec.iso(b.end()));
      n.put("status", b.status());
      n.put("oldRows", b.old().rows());
      n.put("newRows", b.neu().rows());
      n.put("difference", b.difference());
      n.put("oldCells", b.old().cells());
      n.put("newCells", b.neu().cells());
      if (r.digest()) {
        n.put("oldDigest", b.old().digest().hex());
        n.put("newDigest", b.neu().digest().hex());
        n.put("digestOk", b.digestMatches());
      }
      BucketDrill d = r.drill(b.index());
      if (d != null) {
        ObjectNode dn = n.putObject("drill");
        dn.put("missingInNew", d.missingInNew());
        dn.put("extraInNew", d.extraInNew());
        dn.put("contentDiffers", d.contentDiffers());
        ArrayNode samples = dn.putArray("samples");
        for (Sample s : d.samples()) {
          ObjectNode sn = samples.addObject();
          sn.put("kind", s.kind().name());
          ObjectNode key = sn.putObject("key");
          s.key().forEach(key::put);
          sn.put("oldRowKey", s.oldRowKey());
          sn.put("newRowKey", s.newRowKey());
          sn.put("oldCells", s.oldCells());
          sn.put("newCells", s.newCells());
          sn.put("oldTime", s.oldTime());
          sn.put("newTime", s.newTime());
          ArrayNode diffs = sn.putArray("cellDiffs");
          s.cellDiffs().forEach(diffs::add);
        }
      }
    }
    return root;
  }

  private static ObjectNode side(ObjectMapper m, SideSummary s) {
    ObjectNode n = m.createObjectNode();
    n.put("source", s.source());
    n.put("layout", s.layout());
    n.put("regions", s.regions());
    n.put("partitions", s.partitions());
    n.put("read", s.read());
    n.put("inRange", s.inRange());
    n.put("outsideRange", s.outsideRange());
    n.put("cells", s.cells());
    n.put("reading", s.reading());
    n.put("pruning", s.pruning());
    // per region: the key ranges its task read (hex) and the rows its scanners returned
    n.set("regionScans", m.valueToTree(s.regionScans().stream().map(RegionScan::toMap).toList()));
    return n;
  }

  /**
   * A self-contained page: the verdict, the mismatched buckets with their drill-downs first, a
   * chart of rows per bucket on which every mismatch is marked at least a few pixels wide whatever
   * the range, then all buckets with runs of matching ones folded into one row.
   */
  public static String html(ReconcileResult r) {
    StringBuilder h = new StringBuilder(16_384);
    h.append(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rekey reconcile</title>\n<style>")
        .append(
            "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse}")
        .append(
            "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}th{background:#f3f3f3}")
        .append(
            "tr.bad td{background:#fde2e2}tr.run td{color:#555}td.l{text-align:left}.ok{color:#1a7f37}")
        .append(".bad{color:#c62828}code{font-size:12px}</style></head><body>\n");
    h.append("<h1>rekey reconcile: <span class=\"")
        .append(r.matches() ? "ok\">MATCH" : "bad\">MISMATCH")
        .append("</span></h1>\n<p><b>")
        .append(esc(verdict(r)))
        .append("</b><br>")
        .append(
            esc(
                range(r)
                    + ", time "
                    + r.time()
                    + ", "
                    + (r.digest() ? "content digests compared" : "counts only")))
        .append("</p>\n<ul>");
    for (SideSummary s : new SideSummary[] {r.old(), r.neu()}) {
      h.append("<li>")
          .append(s == r.old() ? "old: " : "new: ")
          .append(esc(s.source()))
          .append(" (layout ")
          .append(esc(s.layout()))
          .append(", ")
          .append(regions(s.regions()))
          .append("): ")
          .append(esc(s.accounting()))
          .append("</li>");
    }
    h.append("</ul>\n");
    if (!r.matches()) {
      h.append("<h2>Mismatched buckets (")
          .append(String.format(Locale.ROOT, "%,d", r.mismatchedBuckets()))
          .append(")</h2>\n");
      bucketTable(
          h,
          r.buckets().stream()
              .filter(b -> !b.matches())
              .map(b -> new BucketRun(List.of(b)))
              .toList());
      drills(r, h);
    }
    chart(r, h);
    List<BucketRun> runs = BucketRun.of(r.buckets());
    h.append("<h2>All buckets</h2>\n");
    if (runs.size() < r.buckets().size()) {
      h.append(
          String.format(
              Locale.ROOT,
              "<p>%,d buckets on %,d row%s: each run of matching or empty buckets is one "
                  + "row (reconcile.json lists every bucket).</p>%n",
              r.buckets().size(),
              runs.size(),
              runs.size() == 1 ? "" : "s"));
    }
    bucketTable(h, runs);
    return h.append("</body></html>\n").toString();
  }

  private static void bucketTable(StringBuilder h, List<BucketRun> runs) {
    h.append(
            "<table><tr><th>bucket</th><th>buckets</th><th>old rows</th><th>new rows</th><th>difference</th>")
        .append("<th>old cells</th><th>new cells</th><th>digest ok</th><th>status</th></tr>\n");
    for (BucketRun run : runs) {
      h.append(run.mismatch() ? "<tr class=\"bad\">" : run.single() ? "<tr>" : "<tr class=\"run\">")
          .append("<td class=\"l\">")
          .append(esc(run.label()))
          .append("</td><td>")
          .append(num(run.size()))
          .append("</td><td>")
          .append(num(run.oldRows()))
          .append("</td><td>")
          .append(num(run.newRows()))
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%+,d", run.newRows() - run.oldRows()))
          .append("</td><td>")
          .append(num(run.oldCells()))
          .append("</td><td>")
          .append(num(run.newCells()))
          .append("</td><td>")
          .append(run.digestOk())
          .append("</td><td>")
          .append(esc(run.status()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static void drills(ReconcileResult r, StringBuilder h) {
    for (BucketComparison b : r.buckets()) {
      BucketDrill d = r.drill(b.index());
      if (d == null) {
        continue;
      }
      h.append("<h3>")
          .append(TimeSpec.iso(b.start()))
          .append(": ")
          .append(num(d.missingInNew()))
          .append(" missing in new, ")
          .append(num(d.extraInNew()))
          .append(" extra in new, ")
          .append(num(d.contentDiffers()))
          .append(" with different content</h3>\n");
      if (d.samples().isEmpty()) {
        continue;
      }
      h.append("<table><tr><th>kind</th><th>natural key</th><th>old row key</th>")
          .append(
              "<th>new row key</th><th>old cells</th><th>new cells</th><th>differing cells</th></tr>\n");
      for (Sample s : d.samples()) {
        StringBuilder key = new StringBuilder();
        s.key().forEach((k, v) -> key.append(k).append('=').append(v).append(' '));
        h.append("<tr><td class=\"l\">")
            .append(s.kind().label())
            .append("</td><td class=\"l\"><code>")
            .append(esc(key.toString().trim()))
            .append("</code></td><td class=\"l\"><code>")
            .append(s.oldRowKey() == null ? "-" : "0x" + s.oldRowKey())
            .append("</code></td><td class=\"l\"><code>")
            .append(s.newRowKey() == null ? "-" : "0x" + s.newRowKey())
            .append("</code></td><td>")
            .append(s.oldCells())
            .append("</td><td>")
            .append(s.newCells())
            .append("</td><td class=\"l\"><code>")
            .append(esc(String.join("; ", s.cellDiffs())))
            .append("</code></td></tr>\n");
      }
      h.append("</table>\n");
    }
  }

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

  private static void chart(ReconcileResult r, StringBuilder h) {
    List<ChartColumn> cols = ChartColumn.of(r.buckets(), CHART_COLUMNS);
    int width = 1000;
    int left = 70;
    int right = 10;
    int strip = 18; // the mismatch strip above the plot
    int plotTop = strip + 6;
    int plotHeight = 200;
    int axis = plotTop + plotHeight;
    int height = axis + 34;
    double slot = (double) (width - left - right) / cols.size();
    long max = 1;
    for (ChartColumn c : cols) {
      max = Math.max(max, Math.max(c.oldRows(), c.newRows()));
    }
    double scale = plotHeight / (double) max;
    int per = cols.get(0).buckets();
    h.append("<h2>Rows per bucket</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(width)
        .append("\" height=\"")
        .append(height)
        .append("\" role=\"img\" aria-label=\"rows per bucket\" ")
        .append("font-family=\"system-ui,sans-serif\" font-size=\"11\">\n");
    h.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%,d</text>%n",
            left - 6,
            plotTop + 10,
            max));
    h.append(
        String.format(
            Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>%n", left - 6, axis));
    h.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#c62828\">differs</text>%n",
            left - 6,
            strip - 4));
    h.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"2\" width=\"%d\" height=\"%d\" fill=\"#f6f6f6\"/>%n",
            left,
            width - left - right,
            strip - 2));
    // bands and marks first, bars over them
    for (int i = 0; i < cols.size(); i++) {
      ChartColumn c = cols.get(i);
      if (c.mismatched() == 0) {
        continue;
      }
      double w = Math.max(slot, MIN_MARK_PX);
      double x = left + i * slot + slot / 2 - w / 2;
      String title =
          esc(
              c.firstMismatch()
                  + (c.mismatched() > 1 ? " and " + (c.mismatched() - 1) + " more" : "")
                  + ": "
                  + c.mismatched()
                  + " bucket(s) differ");
      h.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"mismatch\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                  + " fill=\"#fbd0d0\"/>%n",
              x,
              plotTop,
              w,
              plotHeight));
      h.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"mark\" x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"%d\""
                  + " fill=\"#c62828\"><title>%s</title></rect>%n",
              x,
              w,
              strip - 2,
              title));
    }
    for (int i = 0; i < cols.size(); i++) {
      ChartColumn c = cols.get(i);
      double x = left + i * slot;
      double bw = Math.max(0.6, slot * 0.42);
      double ho = c.oldRows() * scale;
      double hn = c.newRows() * scale;
      if (ho > 0) {
        h.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                    + " fill=\"#5b8def\"><title>%s: old %,d rows</title></rect>%n",
                x + slot * 0.08,
                axis - ho,
                bw,
                ho,
                esc(c.label()),
                c.oldRows()));
      }
      if (hn > 0) {
        h.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                    + " fill=\"%s\"><title>%s: new %,d rows</title></rect>%n",
                x + slot * 0.5,
                axis - hn,
                bw,
                hn,
                c.mismatched() == 0 ? "#2e9e5b" : "#c62828",
                esc(c.label()),
                c.newRows()));
      }
    }
    h.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>%n",
            left,
            axis,
            width - right,
            axis));
    h.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\">%s</text>",
            left,
            axis + 16,
            TimeSpec.iso(r.from())));
    h.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
            left + (width - left - right) / 2,
            axis + 16,
            TimeSpec.iso(r.from() + (r.to() - r.from()) / 2)));
    h.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
            width - right,
            axis + 16,
            TimeSpec.iso(r.to())));
    h.append(
            "</svg>\n<p>Blue: old rows; green: new rows; red: a bucket that differs (marked in the strip on top, at least ")
        .append((int) MIN_MARK_PX)
        .append(" px wide at any range)")
        .append(
            per > 1
                ? String.format(
                    Locale.ROOT,
                    "; each column sums %,d consecutive buckets of %s",
                    per,
                    human(r.bucketMillis()))
                : "")
        .append(".</p>\n");
  }

  private static String num(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  static String regions(int n) {
    return n == 1 ? "1 region" : n + " regions";
  }

  static String human(long millis) {
    if (millis % 86_400_000L == 0) {
      return millis / 86_400_000L + "d";
    }
    if (millis % 3_600_000L == 0) {
      return millis / 3_600_000L + "h";
    }
    if (millis % 60_000L == 0) {
      return millis / 60_000L + "m";
    }
    if (millis % 1_000L == 0) {
      return millis / 1_000L + "s";
    }
    return millis + "ms";
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  private static void atomicWrite(Path target, String text) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
