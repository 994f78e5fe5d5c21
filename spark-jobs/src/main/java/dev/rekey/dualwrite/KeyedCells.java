package dev.rekey.dualwrite;

import dev.rekey.client.Column;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One record of a Spark producer: a natural key (field values, as {@code KeyLayout.encode} takes
 * them) and its cells. Serializable, so an RDD of them can be written by {@link SparkDualWrite}.
 */
public record KeyedCells(LinkedHashMap<String, Object> fields, List<Column> cells)
    implements Serializable {
  public KeyedCells {
    cells = List.copyOf(cells);
  }

  public static KeyedCells of(Map<String, ?> fields, List<Column> cells) {
    return new KeyedCells(new LinkedHashMap<>(fields), cells);
  }
}
