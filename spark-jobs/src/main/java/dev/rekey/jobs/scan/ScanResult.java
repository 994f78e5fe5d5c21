package dev.rekey.jobs.scan;

import dev.rekey.common.JobResult;
import dev.rekey.common.Json;
import dev.rekey.common.TimeWindow;
import dev.rekey.read.RegionScan;
import dev.rekey.read.StoreFiles;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a scan did (immutable): per-region and per-partition stats, totals, the reports and where
 * everything was written. {@link #toJson()} is summary.json.
 */
public record ScanResult(
    String source,
    String layout,
    TimeWindow window,
    int regions,
    int partitions,
    int splitsPerRegion,
    List<RegionTotals> perRegion,
    List<RegionStats> perPartition,
    List<ReportOutput> reports,
    String out,
    String summaryJson,
    String reportHtml,
    long millis,
    String reading,
    String pruning,
    List<RegionScan> regionScans)
    implements JobResult {

  public ScanResult {
    regionScans = List.copyOf(regionScans);
    perRegion = List.copyOf(perRegion);
    perPartition = List.copyOf(perPartition);
    reports = List.copyOf(reports);
  }

  public long rows() {
    return perPartition.stream().mapToLong(RegionStats::rows).sum();
  }

  public long cells() {
    return perPartition.stream().mapToLong(RegionStats::cells).sum();
  }

  public long bytes() {
    return perPartition.stream().mapToLong(RegionStats::bytes).sum();
  }

  public long undecodable() {
    return perPartition.stream().mapToLong(RegionStats::undecodable).sum();
  }

  /**
   * Rows the scan returned: decoded + undecodable (the time range and families filter server-side).
   */
  public long read() {
    return rows() + undecodable();
  }

  /** The accounting line every job prints: read = decoded + undecodable. */
  public String accounting() {
    return String.format(
        "read %,d rows = %,d decoded + %,d undecodable; %,d cells, %,d bytes",
        read(), rows(), undecodable(), cells(), bytes());
  }

  /**
   * The store files the snapshot reader read and skipped by time range, over the regions it read
   * from their files; null for a live table (its RegionServers skip files on their own).
   */
  public StoreFiles storeFiles() {
    return RegionScan.totalStoreFiles(regionScans);
  }

  /** "store files: 4 read, 116 skipped by time range (...)", or null without store file facts. */
  public String storeFilesLine() {
    StoreFiles f = storeFiles();
    if (f == null) {
      return null;
    }
    return String.format(
        "store files: %,d read, %,d skipped by time range (%,d of %,d bytes not read)",
        f.read(), f.skipped(), f.bytesSkipped(), f.bytesRead() + f.bytesSkipped());
  }

  @Override
  public String console() {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            "Scanned %s with layout %s, window %s: %d regions, %d partitions, %.1f s%n",
            source, layout, window, regions, partitions, millis / 1000.0));
    out.append("  ").append(accounting()).append('\n');
    out.append("  read: ").append(pruning).append('\n');
    StoreFiles files = storeFiles();
    out.append("  region  start key                  rows        cells          ms")
        .append(files == null ? "" : "  files read  skipped (bytes)")
        .append('\n');
    for (RegionTotals t : perRegion) {
      out.append(
          String.format(
              "  %6d  %-20s %10d %12d %11d",
              t.region(),
              t.startKeyHex().isEmpty() ? "-" : t.startKeyHex(),
              t.rows(),
              t.cells(),
              t.millis()));
      StoreFiles f =
          t.region() < regionScans.size() ? regionScans.get(t.region()).storeFiles() : null;
      if (f != null) {
        out.append(String.format("  %10d  %7d (%,d)", f.read(), f.skipped(), f.bytesSkipped()));
      }
      out.append('\n');
    }
    if (files != null) {
      out.append("  ").append(storeFilesLine()).append('\n');
    }
    for (ReportOutput rep : reports) {
      out.append(
          String.format("  report %s: %,d rows -> %s%n", rep.name(), rep.rows(), rep.path()));
    }
    out.append("  summary: ").append(summaryJson).append('\n');
    out.append("  html:    ").append(reportHtml).append('\n');
    return out.toString();
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("source", source);
    m.put("layout", layout);
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("from", window.from());
    w.put("to", window.to());
    w.put("text", window.toString());
    m.put("window", w);
    m.put("regions", regions);
    m.put("partitions", partitions);
    m.put("splitsPerRegion", splitsPerRegion);
    Map<String, Object> totals = new LinkedHashMap<>();
    totals.put("read", read());
    totals.put("rows", rows());
    totals.put("undecodable", undecodable());
    totals.put("cells", cells());
    totals.put("bytes", bytes());
    totals.put("millis", millis);
    StoreFiles files = storeFiles();
    if (files != null) {
      // the snapshot reader's store files over every region (per region in regionScans)
      totals.put("storeFiles", files.toMap());
    }
    m.put("totals", totals);
    m.put("reading", reading);
    m.put("pruning", pruning);
    m.put("perRegion", perRegion);
    // per region: the key ranges its task read (hex) and the rows its scanners returned
    m.put("regionScans", regionScans.stream().map(RegionScan::toMap).toList());
    m.put("perPartition", perPartition);
    m.put(
        "reports",
        reports.stream()
            .map(
                r -> {
                  Map<String, Object> x = new LinkedHashMap<>();
                  x.put("name", r.name());
                  x.put("file", r.file());
                  x.put("rows", r.rows());
                  x.put("path", r.path());
                  x.put("columns", r.columns());
                  x.put("millis", r.millis());
                  return x;
                })
            .toList());
    m.put("out", out);
    m.put("reportHtml", reportHtml);
    return m;
  }

  @Override
  public String toJson() {
    return Json.pretty(toMap());
  }
}
