package dev.rekey.jobs.analyze;

import java.util.List;
import java.util.Map;

/**
 * How analyze read its source, as analyze.json records it: the window, how the read was limited to
 * it (key ranges per region when the layout's time field follows the prefix, else a cell time
 * range) and the rows the regions' scanners returned.
 *
 * @param reading what was read and whether that loads the RegionServers
 * @param window the time window [from, to) in epoch millis as ISO text, or "all time"
 * @param pruning which limit the read used and why (key ranges, a cell time range, or every key)
 * @param rowsScanned rows the regions' scanners returned, all regions together
 * @param regionScans per region: its boundaries, the key ranges read (hex) and its rows scanned
 */
public record AnalyzeRead(
    String reading,
    String window,
    String pruning,
    long rowsScanned,
    List<Map<String, Object>> regionScans) {
  public AnalyzeRead {
    regionScans = List.copyOf(regionScans);
  }
}
