package dev.rekey.jobs.reconcile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Renders a {@link ReconcileResult}: the console table, {@code reconcile.json} and a self-contained
 * {@code reconcile.html} (inline SVG, no scripts, no external files). Files are written as {@code *.tmp} and renamed.
 */
public final class ReconcileReport {
  public static final String JSON = "reconcile.json";
  public static final String HTML = "reconcile.html";

  private ReconcileReport() {
  }

  /** The console report: sides, one line per bucket, the drill-downs, and the verdict. */
  public static void print(ReconcileResult r, PrintStream out) {
    out.printf("old: %s (layout %s, %s) %s%n", r.old().source(), r.old().layout(), regions(r.old().regions()),
        r.old().accounting());
    out.printf("new: %s (layout %s, %s) %s%n", r.neu().source(), r.neu().layout(), regions(r.neu().regions()),
        r.neu().accounting());
    out.printf("buckets of %s from %s to %s, time %s%s%n", human(r.bucketMillis()), TimeSpec.iso(r.from()),
        TimeSpec.iso(r.to()), r.time(), r.digest() ? ", content digests compared" : ", counts only (add --digest to compare content)");
    out.printf("%-24s %12s %12s %11s %10s  %s%n", "bucket", "old rows", "new rows", "difference", "digest ok", "status");
    for (BucketComparison b : r.buckets()) {
      out.printf(Locale.ROOT, "%-24s %,12d %,12d %+,11d %10s  %s%n", TimeSpec.iso(b.start()), b.old().rows(),
          b.neu().rows(), b.difference(), b.digestOk(), b.status());
    }
    for (BucketComparison b : r.buckets()) {
      BucketDrill d = r.drill(b.index());
      if (d == null) {
        continue;
      }
      out.printf("bucket %s: %,d missing in new, %,d extra in new, %,d with different content%s%n",
          TimeSpec.iso(b.start()), d.missingInNew(), d.extraInNew(), d.contentDiffers(),
          d.samples().isEmpty() ? "" : "; samples:");
      for (Sample s : d.samples()) {
        out.println("  " + s.line());
      }
    }
    if (r.matches()) {
      out.printf("MATCH: all %d buckets agree (%d empty on both sides) in %.1f s%n", r.buckets().size(),
          r.emptyBuckets(), r.seconds());
    } else {
      out.printf("MISMATCH: %d of %d buckets differ (%.1f s)%n", r.mismatchedBuckets(), r.buckets().size(),
          r.seconds());
    }
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
    return n;
  }

  /** A self-contained page: summary, an SVG chart of rows per bucket (old and new bars, mismatches in red), tables. */
  public static String html(ReconcileResult r) {
    StringBuilder h = new StringBuilder(16_384);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rekey reconcile</title>\n<style>")
        .append("body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse}")
        .append("td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}th{background:#f3f3f3}")
        .append("tr.bad td{background:#fde2e2}td.l{text-align:left}.ok{color:#1a7f37}.bad{color:#c62828}")
        .append("code{font-size:12px}</style></head><body>\n");
    h.append("<h1>rekey reconcile: <span class=\"").append(r.matches() ? "ok\">MATCH" : "bad\">MISMATCH")
        .append("</span></h1>\n<p>").append(esc(String.format("%d buckets of %s from %s to %s, time %s, %s; %d mismatched,"
            + " %d empty; %.1f s", r.buckets().size(), human(r.bucketMillis()), TimeSpec.iso(r.from()),
            TimeSpec.iso(r.to()), r.time(), r.digest() ? "content digests compared" : "counts only",
            r.mismatchedBuckets(), r.emptyBuckets(), r.seconds()))).append("</p>\n<ul>");
    for (SideSummary s : new SideSummary[] {r.old(), r.neu()}) {
      h.append("<li>").append(s == r.old() ? "old: " : "new: ").append(esc(s.source())).append(" (layout ")
          .append(esc(s.layout())).append(", ").append(regions(s.regions())).append("): ").append(esc(s.accounting()))
          .append("</li>");
    }
    h.append("</ul>\n");
    chart(r, h);
    h.append("<h2>Buckets</h2>\n<table><tr><th>bucket</th><th>old rows</th><th>new rows</th><th>difference</th>")
        .append("<th>old cells</th><th>new cells</th><th>digest ok</th><th>status</th></tr>\n");
    for (BucketComparison b : r.buckets()) {
      h.append(b.matches() ? "<tr>" : "<tr class=\"bad\">").append("<td class=\"l\">")
          .append(TimeSpec.iso(b.start())).append("</td><td>").append(b.old().rows()).append("</td><td>")
          .append(b.neu().rows()).append("</td><td>").append(String.format("%+d", b.difference())).append("</td><td>")
          .append(b.old().cells()).append("</td><td>").append(b.neu().cells()).append("</td><td>")
          .append(b.digestOk()).append("</td><td>").append(b.status()).append("</td></tr>\n");
    }
    h.append("</table>\n");
    for (BucketComparison b : r.buckets()) {
      BucketDrill d = r.drill(b.index());
      if (d == null) {
        continue;
      }
      h.append("<h3>").append(TimeSpec.iso(b.start())).append(": ").append(d.missingInNew()).append(" missing in new, ")
          .append(d.extraInNew()).append(" extra in new, ").append(d.contentDiffers())
          .append(" with different content</h3>\n<table><tr><th>kind</th><th>natural key</th><th>old row key</th>")
          .append("<th>new row key</th><th>old cells</th><th>new cells</th><th>differing cells</th></tr>\n");
      for (Sample s : d.samples()) {
        StringBuilder key = new StringBuilder();
        s.key().forEach((k, v) -> key.append(k).append('=').append(v).append(' '));
        h.append("<tr><td class=\"l\">").append(s.kind().label()).append("</td><td class=\"l\"><code>")
            .append(esc(key.toString().trim())).append("</code></td><td class=\"l\"><code>")
            .append(s.oldRowKey() == null ? "-" : "0x" + s.oldRowKey()).append("</code></td><td class=\"l\"><code>")
            .append(s.newRowKey() == null ? "-" : "0x" + s.newRowKey()).append("</code></td><td>").append(s.oldCells())
            .append("</td><td>").append(s.newCells()).append("</td><td class=\"l\"><code>")
            .append(esc(String.join("; ", s.cellDiffs()))).append("</code></td></tr>\n");
      }
      h.append("</table>\n");
    }
    return h.append("</body></html>\n").toString();
  }

  private static void chart(ReconcileResult r, StringBuilder h) {
    int n = r.buckets().size();
    int width = 900;
    int height = 240;
    int left = 60;
    int bottom = 30;
    double slot = (double) (width - left - 10) / n;
    long max = 1;
    for (BucketComparison b : r.buckets()) {
      max = Math.max(max, Math.max(b.old().rows(), b.neu().rows()));
    }
    double scale = (height - bottom - 10) / (double) max;
    h.append("<h2>Rows per bucket</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width)
        .append("\" height=\"").append(height).append("\" role=\"img\" aria-label=\"rows per bucket\">\n");
    h.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"14\" font-size=\"11\">%,d</text>", max));
    h.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>%n", left,
        height - bottom, width - 10, height - bottom));
    for (BucketComparison b : r.buckets()) {
      double x = left + b.index() * slot;
      if (!b.matches()) {
        h.append(String.format(Locale.ROOT, "<rect class=\"mismatch\" x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\""
            + " fill=\"#fde2e2\"/>%n", x, slot, height - bottom));
      }
      double bw = Math.max(0.5, slot * 0.4);
      double ho = b.old().rows() * scale;
      double hn = b.neu().rows() * scale;
      h.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#5b8def\">"
          + "<title>%s old %d rows</title></rect>%n", x + slot * 0.1, height - bottom - ho, bw, ho,
          TimeSpec.iso(b.start()), b.old().rows()));
      h.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
          + "<title>%s new %d rows</title></rect>%n", x + slot * 0.5, height - bottom - hn, bw, hn,
          b.matches() ? "#2e9e5b" : "#c62828", TimeSpec.iso(b.start()), b.neu().rows()));
    }
    h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>", left, height - 10,
        TimeSpec.iso(r.from())));
    h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%s</text>%n",
        width - 10, height - 10, TimeSpec.iso(r.to())));
    h.append("</svg>\n<p>blue: old rows; green: new rows (red where the bucket mismatches).</p>\n");
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
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  private static void atomicWrite(Path target, String text) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
