package dev.rekey.jobs.reconcile;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rekey.common.Json;
import dev.rekey.common.OutputDir;
import dev.rekey.read.RegionScan;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link ReconcileResult}: the console table and {@code reconcile.json}, and writes them
 * with {@code reconcile.html} ({@link ReconcileHtml}).
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
    List<TimeBucketRun> lines =
        allBuckets ? TimeBucketRun.each(r.buckets()) : TimeBucketRun.of(r.buckets());
    int width = 24; // an ISO instant and room; runs widen it
    for (TimeBucketRun run : lines) {
      width = Math.max(width, run.label().length());
    }
    String row = "%-" + width + "s %12s %12s %11s %10s  %s%n";
    out.printf(row, "bucket", "old rows", "new rows", "difference", "digest ok", "status");
    for (TimeBucketRun run : lines) {
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
    for (TimeBucketComparison b : r.buckets()) {
      TimeBucketDrill d = r.drill(b.index());
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
  public static void write(ReconcileResult r, OutputDir dir) {
    dir.create();
    dir.write(JSON, Json.pretty(json(r)) + "\n");
    dir.write(HTML, ReconcileHtml.render(r));
  }

  public static ObjectNode json(ReconcileResult r) {
    ObjectNode root = Json.MAPPER.createObjectNode();
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
    root.set("old", side(r.old()));
    root.set("new", side(r.neu()));
    ArrayNode buckets = root.putArray("buckets");
    for (TimeBucketComparison b : r.buckets()) {
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
      TimeBucketDrill d = r.drill(b.index());
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

  private static ObjectNode side(SideSummary s) {
    ObjectNode n = Json.MAPPER.createObjectNode();
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
    n.set(
        "regionScans",
        Json.MAPPER.valueToTree(s.regionScans().stream().map(RegionScan::toMap).toList()));
    return n;
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
}
