package dev.rekey.jobs.repair;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rekey.common.Json;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeArgs;
import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.reconcile.ReconcileReport;
import dev.rekey.jobs.reconcile.TimeBuckets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * What --from-reconcile repairs: a reconcile report's buckets (range and size), its time option and
 * its mismatched buckets. Driver-side; a bad report is a usage error (exit 2).
 *
 * @param report the reconcile.json read (a dir given is its reconcile.json)
 * @param time the report's --time, or null
 * @param mismatched the indexes of the buckets the report found to differ
 */
record ReportBuckets(Path report, TimeBuckets buckets, String time, Set<Integer> mismatched) {

  /** Reads {@code given} (reconcile.json, or the dir holding it). */
  static ReportBuckets read(Path given) {
    Path report = Files.isDirectory(given) ? given.resolve(ReconcileReport.JSON) : given;
    JsonNode root = readReport(report);
    TimeBuckets b =
        new TimeBuckets(
            new TimeWindow(
                TimeArgs.instant(root.path("from").asText(), "from in " + report),
                TimeArgs.instant(root.path("to").asText(), "to in " + report)),
            root.path("bucketMillis").asLong());
    String time = root.hasNonNull("time") ? root.get("time").asText() : null;
    Set<Integer> mismatched = new TreeSet<>();
    for (JsonNode n : root.path("buckets")) {
      if ("MISMATCH".equals(n.path("status").asText())) {
        mismatched.add(n.path("index").asInt());
      }
    }
    return new ReportBuckets(report, b, time, mismatched);
  }

  private static JsonNode readReport(Path report) {
    if (!Files.isRegularFile(report)) {
      throw RekeyException.usage(
          "Cannot repair from %s: no such reconcile report (run `rekey reconcile ... --out DIR`"
              + " first and give --from-reconcile DIR/reconcile.json)",
          report);
    }
    try {
      JsonNode root = Json.MAPPER.readTree(report.toFile());
      if (!root.has("bucketMillis") || !root.has("buckets") || !root.has("from")) {
        throw RekeyException.usage(
            "Cannot repair from %s: it is not a reconcile.json (no from, bucketMillis or"
                + " buckets)",
            report);
      }
      return root;
    } catch (IOException e) {
      throw RekeyException.usage("Cannot read reconcile report %s: %s", report, e.getMessage());
    }
  }
}
