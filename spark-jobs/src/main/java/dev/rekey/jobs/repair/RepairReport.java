package dev.rekey.jobs.repair;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rekey.common.AtomicFile;
import dev.rekey.common.HtmlPage;
import dev.rekey.common.Json;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/**
 * Renders a {@link RepairResult}: the console lines, {@code repair.json} and {@code repair.html}.
 */
public final class RepairReport {
  public static final String JSON = "repair.json";
  public static final String HTML = "repair.html";

  private RepairReport() {}

  /** Writes repair.json and repair.html into {@code dir} ({@code *.tmp} renamed). */
  public static void write(RepairResult r, Path dir) {
    AtomicFile.writeJson(dir.resolve(JSON), json(r));
    AtomicFile.write(dir.resolve(HTML), html(r));
  }

  static String iso(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }

  /**
   * The old side as the console and the page name it: {@code table T (snapshot S)}, or {@code
   * snapshot S} when the old side is the snapshot itself (--old-snapshot, or the one snapshot
   * several targets share), not its name twice.
   */
  static String oldSide(String described, String snapshot) {
    return described.equals("snapshot " + snapshot)
        ? described
        : described + " (snapshot " + snapshot + ")";
  }

  static String console(RepairResult r) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "repair %s from %s, taken %s (cells newer than it are dual writes, never touched)%n",
            r.table(),
            oldSide(r.old(), r.snapshot()),
            iso(r.snapshotTime())));
    b.append(
        String.format(
            Locale.ROOT,
            "%d bucket%s of %s to repair in [%s, %s)%s%n",
            r.buckets().size(),
            r.buckets().size() == 1 ? "" : "s",
            java.time.Duration.ofMillis(r.bucketMillis())
                .toString()
                .substring(2)
                .toLowerCase(Locale.ROOT),
            iso(r.from()),
            iso(r.to()),
            r.comparedFirst()
                ? String.format(Locale.ROOT, " (%,d buckets compared first)", r.compared())
                : " (the mismatched buckets of the reconcile report)"));
    if (r.buckets().isEmpty()) {
      b.append("nothing to repair: no bucket differs\n");
    }
    if (r.path() != null) {
      b.append(r.path().describe()).append('\n');
    }
    if (r.compacted()) {
      b.append("delete markers hid cells to put: their regions were major-compacted first\n");
    }
    bucketTable(b, r);
    ending(b, r);
    if (!r.phases().isEmpty()) {
      b.append(
          String.format(
              Locale.ROOT, "time: %.1f s (%s)%n", r.seconds(), PhaseTimes.describe(r.phases())));
    }
    return b.toString();
  }

  /** One line per time bucket: its status, what was written, what the compare found. */
  private static void bucketTable(StringBuilder b, RepairResult r) {
    String row = "%-22s %-30s %10s %10s  %s%n";
    b.append(String.format(Locale.ROOT, row, "bucket", "status", "cells put", "deleted", "found"));
    for (TimeBucketRepair x : r.buckets()) {
      b.append(
          String.format(
              Locale.ROOT,
              row,
              iso(x.start()),
              x.status(),
              x.written() == null ? "-" : String.format(Locale.ROOT, "%,d", x.written().cellsPut()),
              x.written() == null
                  ? "-"
                  : String.format(Locale.ROOT, "%,d", x.written().cellsDeleted()),
              x.found() == null ? "(written by the earlier run)" : x.found().describe()));
      if (!x.reason().isEmpty()) {
        b.append("    still differs: ").append(x.reason()).append('\n');
      }
      if (x.written() != null && x.written().putsKeptDeleted() > 0) {
        b.append(
            String.format(
                Locale.ROOT,
                "    %,d cells not put: a delete marker newer than the snapshot hides them (deleted"
                    + " by a writer after it)%n",
                x.written().putsKeptDeleted()));
      }
    }
  }

  /** The last word: a dry run's file, or what was written and whether every bucket matches. */
  private static void ending(StringBuilder b, RepairResult r) {
    if (r.dryRun()) {
      b.append(
          String.format(
              Locale.ROOT,
              "dry run: nothing changed; the mutations are in %s (replay with rekey repair --apply %s)%n",
              r.mutationFile(),
              r.mutationFile()));
    } else if (r.matches()) {
      b.append(
          String.format(
              Locale.ROOT,
              "repair: %,d cells put, %,d deleted; every repaired bucket matches now%n",
              r.cellsPut(),
              r.cellsDeleted()));
    } else {
      long left = r.buckets().stream().filter(x -> !x.matchesNow()).count();
      b.append(
          String.format(
              Locale.ROOT,
              "repair: %,d cells put, %,d deleted; %d bucket%s still differ%s (see above)%n",
              r.cellsPut(),
              r.cellsDeleted(),
              left,
              left == 1 ? "" : "s",
              left == 1 ? "s" : ""));
    }
  }

  static ObjectNode json(RepairResult r) {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("match", r.matches());
    root.put("exitCode", r.exitCode());
    root.put("table", r.table());
    root.put("old", r.old());
    root.put("snapshot", r.snapshot());
    root.put("snapshotTime", iso(r.snapshotTime()));
    root.put("from", iso(r.from()));
    root.put("to", iso(r.to()));
    root.put("bucketMillis", r.bucketMillis());
    root.put("comparedFirst", r.comparedFirst());
    root.put("compared", r.compared());
    root.put("writePath", r.path() == null ? null : r.path().kind().name());
    root.put("writePathReason", r.path() == null ? null : r.path().describe());
    root.put("compacted", r.compacted());
    root.put("dryRun", r.dryRun());
    root.put("mutationFile", r.mutationFile() == null ? null : r.mutationFile().toString());
    root.put("cellsPut", r.cellsPut());
    root.put("cellsDeleted", r.cellsDeleted());
    root.put("seconds", r.seconds());
    ObjectNode phases = root.putObject("phases");
    r.phases().forEach(phases::put);
    ArrayNode buckets = root.putArray("buckets");
    for (TimeBucketRepair x : r.buckets()) {
      ObjectNode n = buckets.addObject();
      n.put("index", x.index());
      n.put("start", iso(x.start()));
      n.put("end", iso(x.end()));
      n.put("status", x.status());
      n.put("resumed", x.resumed());
      if (x.found() != null) {
        n.set("found", Json.MAPPER.valueToTree(x.found()));
      }
      if (x.written() != null) {
        n.set("written", Json.MAPPER.valueToTree(x.written()));
      }
      if (x.after() != null) {
        n.set("after", Json.MAPPER.valueToTree(x.after()));
      }
      n.put("reason", x.reason());
    }
    return root;
  }

  static String html(RepairResult r) {
    HtmlPage page = new HtmlPage("rekey repair " + r.table());
    page.h1("repair ", HtmlPage.code(r.table()));
    String verdict =
        r.dryRun()
            ? "Dry run: nothing changed; mutations in " + r.mutationFile()
            : r.matches()
                ? "Every repaired bucket matches now."
                : "Some repaired buckets still differ.";
    if (r.dryRun() || r.matches()) {
      page.p(HtmlPage.span("ok", verdict));
    } else {
      page.warning(verdict);
    }
    page.p(
        "Old side: ",
        HtmlPage.code(oldSide(r.old(), r.snapshot())),
        ", taken ",
        iso(r.snapshotTime()),
        ". Cells of ",
        HtmlPage.code(r.table()),
        " newer than it are dual writes and were not touched.");
    if (r.path() != null) {
      page.p(r.path().describe());
    }
    if (r.compacted()) {
      page.p("Delete markers hid cells to put: their regions were major-compacted first.");
    }
    if (!r.phases().isEmpty()) {
      // the same figures as the console's time: line, for the reader of the page alone
      page.p(
          String.format(
              Locale.ROOT, "Time: %.1f s (%s).", r.seconds(), PhaseTimes.describe(r.phases())));
    }
    HtmlPage.Table t =
        new HtmlPage.Table("bucket", "status", "found", "cells put", "deleted", "still differs");
    for (TimeBucketRepair x : r.buckets()) {
      Object[] cells = {
        iso(x.start()),
        x.status(),
        x.found() == null ? "(earlier run)" : x.found().describe(),
        x.written() == null ? "-" : x.written().cellsPut(),
        x.written() == null ? "-" : x.written().cellsDeleted(),
        x.reason()
      };
      if (x.matchesNow() || r.dryRun()) {
        t.row(cells);
      } else {
        t.rowWithClass("bad", cells);
      }
    }
    page.h2("Buckets");
    page.add(t);
    return page.render();
  }
}
