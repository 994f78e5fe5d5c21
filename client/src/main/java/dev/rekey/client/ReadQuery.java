package dev.rekey.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What a range read asks for, in the terms of the natural key (never the salt or hash prefix): the
 * values of the leading fields (an entity, e.g. {@code userId=alice}; may be none), an optional
 * time window {@code [from, to)} on the layout's time field, a row limit and the direction.
 * Immutable; build with {@link #builder()}.
 */
public final class ReadQuery {
  private final Map<String, Object> leading;
  private final Long from;
  private final Long to;
  private final int limit;
  private final boolean reverse;

  private ReadQuery(Builder b) {
    this.leading = Collections.unmodifiableMap(new LinkedHashMap<>(b.leading));
    this.from = b.from;
    this.to = b.to;
    this.limit = b.limit;
    this.reverse = b.reverse;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every row whose time is in [from, to), in natural order, no limit. */
  public static ReadQuery window(long fromMillis, long toMillis) {
    return builder().window(fromMillis, toMillis).build();
  }

  /** Values of the leading key fields, in key order (empty: no entity). */
  public Map<String, Object> leading() {
    return leading;
  }

  public boolean hasWindow() {
    return from != null;
  }

  public OptionalLong from() {
    return from == null ? OptionalLong.empty() : OptionalLong.of(from);
  }

  public OptionalLong to() {
    return to == null ? OptionalLong.empty() : OptionalLong.of(to);
  }

  /** At most this many rows (0: no limit). */
  public int limit() {
    return limit;
  }

  /** Descending natural order instead of ascending. */
  public boolean reverse() {
    return reverse;
  }

  @Override
  public String toString() {
    Map<String, Object> shown = new LinkedHashMap<>();
    leading.forEach((k, v) -> shown.put(k, v instanceof byte[] b ? dev.rekey.rowkey.Hex.of(b) : v));
    return "ReadQuery{leading="
        + shown
        + (from == null ? "" : ", window=[" + from + ", " + to + ")")
        + (limit > 0 ? ", limit=" + limit : "")
        + (reverse ? ", reverse" : "")
        + "}";
  }

  /** Builder of a {@link ReadQuery}. */
  public static final class Builder {
    private final Map<String, Object> leading = new LinkedHashMap<>();
    private Long from;
    private Long to;
    private int limit;
    private boolean reverse;

    private Builder() {}

    /**
     * A leading field's value (Java type per the layout's field type: String, Long, byte[], ...).
     */
    public Builder where(String field, Object value) {
      leading.put(Objects.requireNonNull(field, "field"), Objects.requireNonNull(value, field));
      return this;
    }

    public Builder leading(Map<String, ?> values) {
      values.forEach(this::where);
      return this;
    }

    /** Time in [fromMillis, toMillis) on the layout's time field. */
    public Builder window(long fromMillis, long toMillis) {
      if (fromMillis > toMillis) {
        throw new IllegalArgumentException(
            String.format(
                "Cannot read window [%d, %d): from is after to (swap them)", fromMillis, toMillis));
      }
      this.from = fromMillis;
      this.to = toMillis;
      return this;
    }

    /** At most n rows (0: no limit); each bucket scan is limited to n rows too. */
    public Builder limit(int n) {
      if (n < 0) {
        throw new IllegalArgumentException(
            "Cannot read with limit " + n + ": a limit is 0 (none) or positive");
      }
      this.limit = n;
      return this;
    }

    public Builder reverse(boolean descending) {
      this.reverse = descending;
      return this;
    }

    public ReadQuery build() {
      return new ReadQuery(this);
    }
  }
}
