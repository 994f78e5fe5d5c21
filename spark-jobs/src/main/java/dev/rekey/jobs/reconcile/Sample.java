package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.compare.Difference;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * One natural key that differs between the sides, shown decoded and as both sides' row keys in hex.
 *
 * @param kind what differs (never {@link Difference#MATCH})
 * @param key the natural key's fields as text (bytes in hex), in field-name order
 * @param oldRowKey the old side's row key in hex, or null if the old side has no such row
 * @param newRowKey the new side's row key in hex, or null
 * @param oldCells cells on the old side (0 if absent)
 * @param newCells cells on the new side (0 if absent)
 * @param oldTime the old row's time (key field or newest cell), or null
 * @param newTime the new row's time, or null
 * @param cellDiffs for CONTENT_DIFFERS: cells only on the old side ({@code - d:v@ts=hex}) and only
 *     on the new side ({@code + ...}); empty otherwise
 */
public record Sample(
    Difference kind,
    Map<String, String> key,
    String oldRowKey,
    String newRowKey,
    long oldCells,
    long newCells,
    String oldTime,
    String newTime,
    List<String> cellDiffs)
    implements Serializable {

  /** One line for the console: {@code missing in new deviceId=…, ts=… old 0x… new -}. */
  public String line() {
    StringBuilder sb = new StringBuilder(kind.label()).append(": ");
    key.forEach((k, v) -> sb.append(k).append('=').append(v).append(' '));
    sb.append("| old ")
        .append(oldRowKey == null ? "-" : "0x" + oldRowKey + " (" + oldCells + " cells)");
    sb.append(" | new ")
        .append(newRowKey == null ? "-" : "0x" + newRowKey + " (" + newCells + " cells)");
    if (!cellDiffs.isEmpty()) {
      sb.append(" | ").append(String.join(", ", cellDiffs));
    }
    return sb.toString();
  }
}
