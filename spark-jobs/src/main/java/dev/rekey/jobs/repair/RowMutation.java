package dev.rekey.jobs.repair;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rekey.common.DecodedCell;
import dev.rekey.common.Json;
import dev.rekey.jobs.compare.Difference;
import dev.rekey.rowkey.Hex;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What repair does to one row of the new table: the natural key (decoded, for people), the new row
 * key, its bucket and the row's {@link RowRepair.Fix}. One line of a mutation file:
 *
 * <pre>
 * {"bucket":2,"key":{"deviceId":"…","ts":"…"},"row":"05…","kind":"MISSING_IN_NEW",
 *  "put":[{"family":"64","qualifier":"76","timestamp":1764374400000,"value":"000000000000002a"}],
 *  "delete":[{"family":"64","qualifier":"76","timestamp":1764374400001}]}
 * </pre>
 *
 * Family, qualifier, value and row key are hex (exact bytes); timestamps are epoch millis.
 */
public record RowMutation(int bucket, Map<String, String> key, byte[] row, RowRepair.Fix fix)
    implements Serializable {

  public RowMutation {
    key = new TreeMap<>(key);
  }

  public String rowHex() {
    return Hex.of(row);
  }

  /** The mutation file line (no newline). */
  public String toJsonLine() {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("bucket", bucket);
    ObjectNode k = n.putObject("key");
    key.forEach(k::put);
    n.put("row", rowHex());
    n.put("kind", fix.kind().name());
    cells(n.putArray("put"), fix.puts(), true);
    cells(n.putArray("delete"), fix.deletes(), false);
    return n.toString();
  }

  private static void cells(ArrayNode a, List<DecodedCell> cells, boolean values) {
    for (DecodedCell c : cells) {
      ObjectNode o = a.addObject();
      o.put("family", Hex.of(c.family()));
      o.put("qualifier", Hex.of(c.qualifier()));
      o.put("timestamp", c.timestamp());
      if (values) {
        o.put("value", Hex.of(c.value()));
      }
    }
  }

  /** A line of a mutation file back as a mutation; IllegalArgumentException names what is wrong. */
  public static RowMutation parse(JsonNode n) {
    if (!n.hasNonNull("row") || !n.has("put") || !n.has("delete")) {
      throw new IllegalArgumentException("not a repair mutation (row, put and delete expected)");
    }
    Map<String, String> key = new TreeMap<>();
    n.path("key").fields().forEachRemaining(e -> key.put(e.getKey(), e.getValue().asText()));
    RowRepair.Fix fix =
        new RowRepair.Fix(
            Difference.valueOf(n.path("kind").asText("CONTENT_DIFFERS")),
            parseCells(n.get("put"), true),
            parseCells(n.get("delete"), false),
            List.of(),
            List.of());
    return new RowMutation(n.path("bucket").asInt(), key, Hex.parse(n.get("row").asText()), fix);
  }

  private static List<DecodedCell> parseCells(JsonNode a, boolean values) {
    List<DecodedCell> out = new ArrayList<>();
    for (JsonNode c : a) {
      out.add(
          new DecodedCell(
              Hex.parse(c.get("family").asText()),
              Hex.parse(c.get("qualifier").asText()),
              c.get("timestamp").asLong(),
              values ? Hex.parse(c.get("value").asText()) : new byte[0]));
    }
    return List.copyOf(out);
  }
}
