package dev.rekey.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.client.Result;

/**
 * The reads of a service migrating to several new tables, one per query shape (a salted time-first
 * table for windows, an entity-first table for one device's history): a {@link ReadSwitch} per
 * shape, each with its own mode, so windows can move to their new table while histories are still
 * shadowed. A range read goes to the first shape whose new table serves it as key ranges alone (its
 * layout fixes every given field), else to the first whose new table serves it at all; the switch
 * then serves it from its old or new table as its mode says, in that table's key order.
 *
 * <pre>{@code
 * ReadRoutes reads = ReadRoutes.builder()
 *     .shape("windows", new ReadSwitch(v1, v2, Mode.NEW))                 // salt | ts | deviceId
 *     .shape("histories", new ReadSwitch(v1, byDevice, Mode.SHADOW))      // hash | deviceId | ~ts
 *     .build();
 * reads.scan(ReadQuery.window(from, to));                                        // windows
 * reads.scan(ReadQuery.builder().where("deviceId", id).window(from, to).build()); // histories
 * }</pre>
 *
 * The old table answers a history inside a window as a filtered window read (its key fixes the time
 * first); without a window only a table keyed by the entity serves it. Thread-safe.
 */
public final class ReadRoutes {
  private final Map<String, ReadSwitch> shapes;

  private ReadRoutes(Map<String, ReadSwitch> shapes) {
    this.shapes = shapes;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The switch of a shape by its name. */
  public ReadSwitch shape(String name) {
    ReadSwitch s = shapes.get(name);
    if (s == null) {
      throw new IllegalArgumentException(
          String.format("No read shape '%s' (shapes: %s)", name, shapes.keySet()));
    }
    return s;
  }

  /** Moves one shape's reads (e.g. windows to NEW while histories stay in SHADOW). */
  public void mode(String name, ReadSwitch.Mode mode) {
    shape(name).mode(mode);
  }

  /**
   * The shape a query goes to: the first whose new table serves it with key ranges alone, else the
   * first that serves it at all; {@link UnsupportedReadException} with each shape's reason when
   * none does.
   */
  public String shapeOf(ReadQuery query) {
    String served = null;
    List<String> refusals = new ArrayList<>();
    for (Map.Entry<String, ReadSwitch> e : shapes.entrySet()) {
      ScanPlan p = e.getValue().next().plan(query);
      if (!p.servable()) {
        refusals.add(e.getKey() + ": " + p.refusal());
      } else if (p.matches().isEmpty()) {
        return e.getKey();
      } else if (served == null) {
        served = e.getKey();
      }
    }
    if (served == null) {
      throw new UnsupportedReadException(
          String.format("No read shape serves %s: %s", query, String.join("; ", refusals)));
    }
    return served;
  }

  /** The rows of a range read, from the switch of its shape. */
  public List<Result> scan(ReadQuery query) {
    return shapes.get(shapeOf(query)).scan(query);
  }

  /** The row of a natural key: a get is one RPC on any table, so the first shape's switch. */
  public Optional<Result> get(Map<String, ?> fields) throws IOException {
    return shapes.values().iterator().next().get(fields);
  }

  /** Each shape's counters, by name. */
  public Map<String, ReadSwitch.Stats> stats() {
    Map<String, ReadSwitch.Stats> out = new LinkedHashMap<>();
    shapes.forEach((k, v) -> out.put(k, v.stats()));
    return out;
  }

  /** Builder of {@link ReadRoutes}: shapes in the order queries try them. */
  public static final class Builder {
    private final Map<String, ReadSwitch> shapes = new LinkedHashMap<>();

    private Builder() {}

    public Builder shape(String name, ReadSwitch reads) {
      if (shapes.putIfAbsent(name, reads) != null) {
        throw new IllegalArgumentException(
            String.format("Read shape '%s' is given twice: give each shape once", name));
      }
      return this;
    }

    public ReadRoutes build() {
      if (shapes.isEmpty()) {
        throw new IllegalArgumentException(
            "Cannot build read routes without a shape: give at least one with shape(name, switch)");
      }
      return new ReadRoutes(java.util.Collections.unmodifiableMap(new LinkedHashMap<>(shapes)));
    }
  }
}
