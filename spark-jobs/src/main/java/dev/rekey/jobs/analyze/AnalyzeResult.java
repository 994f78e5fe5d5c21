package dev.rekey.jobs.analyze;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.rekey.common.JobResult;
import dev.rekey.common.Json;
import dev.rekey.jobs.guardrails.GuardrailReport;
import java.util.List;

/**
 * Everything analyze found: immutable; printed as a console table and written as analyze.json and
 * analyze.html.
 *
 * @param source "table T" or "snapshot S"
 * @param table the live table whose regions and metrics are shown
 * @param layout the current layout name, or null
 * @param rowsRead rows read (all of them; the sample is drawn from these)
 * @param sampledRows rows in the sample
 * @param leadingByteHistogram sampled rows per leading byte (256 values)
 * @param busiestEighth which eighth of the leading-byte space holds the most rows (0 = 0x00-0x1f)
 * @param busiestEighthShare share of sampled rows in it (0.125 = even)
 * @param saltBuckets the salt's bucket count N when the layout declares a salt (its leading byte
 *     then only takes 0..N-1 by design, so it is judged by how evenly those N values fill), else 0
 * @param leadingByte the leading byte judged against the layout's prefix, as a sentence
 * @param appendFraction share of writes (in timestamp order) whose key is above every earlier key
 *     (appends)
 * @param recentLabel how the recent window is named ("the last hour's")
 * @param recentRows sampled rows in the recent window
 * @param recentTopRegion the region that got most recent rows (0-based)
 * @param recentTopRegionShare its share of the recent rows
 * @param recentRegionsHit regions that got any recent row
 * @param liveServers live RegionServers in the cluster
 * @param regions the table's regions
 * @param servers the RegionServers
 * @param verdict the verdict and recommendation
 * @param simulation the proposed layout and split points on the sample, or null
 * @param seconds wall time
 * @param read what was read and how the window limited it (null until {@link Analyze} fills it in)
 * @param guardrails what the guardrail check found in the rows read ({@code --guardrails}), or null
 */
public record AnalyzeResult(
    String source,
    String table,
    String layout,
    long rowsRead,
    long sampledRows,
    long[] leadingByteHistogram,
    int busiestEighth,
    double busiestEighthShare,
    int saltBuckets,
    String leadingByte,
    double appendFraction,
    String recentLabel,
    long recentRows,
    int recentTopRegion,
    double recentTopRegionShare,
    int recentRegionsHit,
    int liveServers,
    List<RegionStat> regions,
    List<ServerStat> servers,
    Verdict verdict,
    Simulation simulation,
    double seconds,
    AnalyzeRead read,
    @JsonInclude(JsonInclude.Include.NON_NULL) GuardrailReport guardrails)
    implements JobResult {

  /** This result with how its source was read. */
  public AnalyzeResult withRead(AnalyzeRead r) {
    return new AnalyzeResult(
        source,
        table,
        layout,
        rowsRead,
        sampledRows,
        leadingByteHistogram,
        busiestEighth,
        busiestEighthShare,
        saltBuckets,
        leadingByte,
        appendFraction,
        recentLabel,
        recentRows,
        recentTopRegion,
        recentTopRegionShare,
        recentRegionsHit,
        liveServers,
        regions,
        servers,
        verdict,
        simulation,
        seconds,
        r,
        guardrails);
  }

  /** This result with what the guardrail check found. */
  public AnalyzeResult withGuardrails(GuardrailReport g) {
    return new AnalyzeResult(
        source,
        table,
        layout,
        rowsRead,
        sampledRows,
        leadingByteHistogram,
        busiestEighth,
        busiestEighthShare,
        saltBuckets,
        leadingByte,
        appendFraction,
        recentLabel,
        recentRows,
        recentTopRegion,
        recentTopRegionShare,
        recentRegionsHit,
        liveServers,
        regions,
        servers,
        verdict,
        simulation,
        seconds,
        read,
        g);
  }

  /**
   * The console table, then how the source was read (when {@link Analyze} filled it in), then the
   * guardrails' findings (when checked).
   */
  @Override
  public String console() {
    StringBuilder b = new StringBuilder(AnalyzeReport.console(this));
    if (read != null) {
      b.append("read ")
          .append(read.window())
          .append(": ")
          .append(read.pruning())
          .append("; ")
          .append(read.rowsScanned())
          .append(" rows scanned\n");
    }
    if (guardrails != null) {
      guardrails.lines().forEach(l -> b.append(l).append('\n'));
    }
    return b.toString();
  }

  /** analyze.json. */
  @Override
  public String toJson() {
    return Json.pretty(this);
  }
}
