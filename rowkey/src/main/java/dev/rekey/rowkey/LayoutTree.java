package dev.rekey.rowkey;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A layout file's tree read strictly: a mapping takes only its allowed keys, each value its one
 * type, and every error names the layout and where in it ({@code fields[2]: ...}).
 */
final class LayoutTree {
  private final String source;

  LayoutTree(String source) {
    this.source = source;
  }

  LayoutException err(String where, String problem) {
    return new LayoutException(String.format("Invalid layout %s: %s%s", source, where, problem));
  }

  Map<String, Object> map(Object o, String where, Set<String> allowed) {
    if (!(o instanceof Map)) {
      throw err(where, "expected a mapping, got " + describe(o));
    }
    Map<String, Object> m = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
      if (!(e.getKey() instanceof String)) {
        throw err(where, "key " + e.getKey() + " is not a string");
      }
      String k = (String) e.getKey();
      if (!allowed.contains(k)) {
        throw err(
            where,
            "unknown key '" + k + "' (allowed: " + String.join(", ", new TreeSet<>(allowed)) + ")");
      }
      m.put(k, e.getValue());
    }
    return m;
  }

  String str(Map<String, Object> m, String key, String where, boolean required) {
    Object v = m.get(key);
    if (v == null) {
      if (required) {
        throw err(where, "missing required key '" + key + "'");
      }
      return null;
    }
    if (!(v instanceof String)) {
      throw err(where, "'" + key + "' must be a string, got " + describe(v) + " (quote it)");
    }
    return (String) v;
  }

  Integer integer(Map<String, Object> m, String key, String where) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Integer)) {
      throw err(where, "'" + key + "' must be an integer, got " + describe(v));
    }
    return (Integer) v;
  }

  Boolean bool(Map<String, Object> m, String key, String where) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Boolean)) {
      throw err(where, "'" + key + "' must be true or false, got " + describe(v));
    }
    return (Boolean) v;
  }

  static String describe(Object v) {
    if (v == null) {
      return "nothing";
    }
    if (v instanceof Map) {
      return "a mapping";
    }
    if (v instanceof List) {
      return "a list";
    }
    return v.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " '" + v + "'";
  }
}
