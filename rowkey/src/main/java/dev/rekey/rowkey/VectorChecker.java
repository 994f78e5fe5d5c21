package dev.rekey.rowkey;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks pinned test vectors (rowkey/src/main/resources/vectors/*.json; format in docs/layouts.md).
 *
 * <p>A vectors file is {@code {"layout": <path from repo root> | <inline layout object>, "vectors":
 * [...]}}; each vector has a {@code name} and one of: {@code fields} + {@code key} (encode must
 * give exactly that hex; decode must give the fields back, or refuse for full_hash), {@code fields}
 * + {@code encodeError} (encode must be rejected with a message containing it), {@code key} +
 * {@code decodeError}. A file may instead hold {@code "badLayouts": [{"name", "layout", "error"}]}:
 * layouts that must be rejected; or {@code "badYaml": [{"name", "yaml", "error"}]} and {@code
 * "goodYaml": [{"name", "yaml"}]}: layout texts that must be rejected (the YAML 1.1 forms outside
 * the subset) or accepted.
 */
public final class VectorChecker {
  private VectorChecker() {}

  /** Outcome of checking one file. */
  public record Report(int passed, List<String> failures) {}

  /**
   * Checks every vector in the file against the given layout; returns failure messages (empty = all
   * pass).
   */
  public static List<String> check(KeyLayout layout, Path vectorsFile) {
    return run(layout, vectorsFile).failures();
  }

  /** As {@link #check}, with the number of vectors that passed. */
  public static Report run(KeyLayout layout, Path vectorsFile) {
    Map<String, Object> doc = readJson(vectorsFile);
    Object vs = doc.get("vectors");
    if (!(vs instanceof List)) {
      throw new IllegalArgumentException(
          "Cannot check vectors " + vectorsFile + ": no 'vectors' list");
    }
    List<String> failures = new ArrayList<>();
    int passed = 0;
    for (Object o : (List<?>) vs) {
      String f = checkOne(layout, asMap(o));
      if (f == null) {
        passed++;
      } else {
        failures.add(vectorsFile.getFileName() + ": " + f);
      }
    }
    return new Report(passed, failures);
  }

  /**
   * Checks a vectors file on its own: resolves its layout (a path relative to {@code repoRoot}, or
   * inline), or checks its badLayouts.
   */
  public static Report runFile(Path vectorsFile, Path repoRoot) {
    Map<String, Object> doc = readJson(vectorsFile);
    if (doc.containsKey("badYaml")) {
      return yamlTexts(doc, vectorsFile);
    }
    if (doc.containsKey("badLayouts")) {
      List<String> failures = new ArrayList<>();
      int passed = 0;
      for (Object o : (List<?>) doc.get("badLayouts")) {
        Map<String, Object> b = asMap(o);
        String name = String.valueOf(b.get("name"));
        Runnable parse = () -> KeyLayout.fromTree(b.get("layout"), "inline:" + name);
        passed += rejected(vectorsFile, name, "layout", parse, b.get("error"), failures);
      }
      return new Report(passed, failures);
    }
    return run(layoutOf(doc, vectorsFile, repoRoot), vectorsFile);
  }

  /**
   * Layout YAML texts: each of badYaml must be rejected with its message, each of goodYaml
   * accepted.
   */
  private static Report yamlTexts(Map<String, Object> doc, Path vectorsFile) {
    List<String> failures = new ArrayList<>();
    int passed = 0;
    String file = vectorsFile.getFileName().toString();
    for (Object o : (List<?>) doc.get("badYaml")) {
      Map<String, Object> b = asMap(o);
      String name = String.valueOf(b.get("name"));
      Runnable parse = () -> KeyLayout.parse((String) b.get("yaml"), "inline:" + name);
      passed += rejected(vectorsFile, name, "YAML", parse, b.get("error"), failures);
    }
    for (Object o : (List<?>) doc.getOrDefault("goodYaml", List.of())) {
      Map<String, Object> g = asMap(o);
      try {
        KeyLayout.parse((String) g.get("yaml"), "inline:" + g.get("name"));
        passed++;
      } catch (LayoutException e) {
        failures.add(file + ": " + g.get("name") + ": YAML rejected: " + e.getMessage());
      }
    }
    return new Report(passed, failures);
  }

  /**
   * 1 if {@code parse} rejects the input with a message containing {@code error}, else 0 with the
   * failure added: accepted, or rejected for another reason.
   */
  private static int rejected(
      Path vectorsFile,
      String name,
      String what,
      Runnable parse,
      Object error,
      List<String> failures) {
    String want = String.valueOf(error);
    try {
      parse.run();
      failures.add(
          String.format(
              "%s: %s: %s accepted, expected error containing '%s'",
              vectorsFile.getFileName(), name, what, want));
      return 0;
    } catch (LayoutException e) {
      if (e.getMessage().contains(want)) {
        return 1;
      }
      failures.add(
          String.format(
              "%s: %s: error '%s' does not contain '%s'",
              vectorsFile.getFileName(), name, e.getMessage(), want));
      return 0;
    }
  }

  /** The layout a vectors file declares. */
  public static KeyLayout layoutOf(Map<String, Object> doc, Path vectorsFile, Path repoRoot) {
    Object l = doc.get("layout");
    if (l instanceof String) {
      return KeyLayout.load(repoRoot.resolve((String) l));
    }
    return KeyLayout.fromTree(l, vectorsFile.getFileName() + ":layout");
  }

  static String checkOne(KeyLayout layout, Map<String, Object> v) {
    String name = String.valueOf(v.get("name"));
    try {
      if (v.containsKey("encodeError")) {
        String want = (String) v.get("encodeError");
        try {
          byte[] k = layout.encode(FieldValues.parse(layout, strings(v.get("fields"))));
          return name
              + ": encoded to "
              + Hex.of(k)
              + ", expected rejection containing '"
              + want
              + "'";
        } catch (KeyEncodeException e) {
          return e.getMessage().contains(want)
              ? null
              : name + ": rejection '" + e.getMessage() + "' does not contain '" + want + "'";
        }
      }
      if (v.containsKey("decodeError")) {
        String want = (String) v.get("decodeError");
        byte[] key = Hex.parse((String) v.get("key"));
        try {
          DecodedKey d = layout.decode(key);
          return name + ": decoded to " + d + ", expected rejection containing '" + want + "'";
        } catch (KeyDecodeException e) {
          return e.reason().contains(want)
              ? null
              : name + ": rejection '" + e.reason() + "' does not contain '" + want + "'";
        }
      }
      Map<String, String> fields = strings(v.get("fields"));
      String wantHex = ((String) v.get("key")).toLowerCase(java.util.Locale.ROOT);
      byte[] key = layout.encode(FieldValues.parse(layout, fields));
      if (!Hex.of(key).equals(wantHex)) {
        return name + ": key " + Hex.of(key) + " != expected " + wantHex;
      }
      if (!layout.decodable()) {
        try {
          layout.decode(key);
          return name + ": full_hash key decoded, expected refusal";
        } catch (KeyDecodeException e) {
          return e.reason().contains("not reversible")
              ? null
              : name + ": refusal without explanation: " + e.reason();
        }
      }
      DecodedKey d = layout.decode(key);
      Map<String, String> back = FieldValues.format(layout, d.fields());
      for (FieldSpec f : layout.fields()) {
        String given = fields.get(f.name());
        if (given == null && f.type() == FieldType.SUB_BUCKET) {
          continue;
        }
        if (!back.get(f.name()).equals(normalize(f, given))) {
          return name
              + ": decode gave "
              + f.name()
              + "="
              + back.get(f.name())
              + ", expected "
              + given;
        }
      }
      if (!Arrays.equals(Arrays.copyOf(key, layout.prefix().bytes()), d.prefixBytes())) {
        return name + ": decoded prefix " + Hex.of(d.prefixBytes()) + " differs from the key's";
      }
      return null;
    } catch (RuntimeException e) {
      return name + ": unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  private static String normalize(FieldSpec f, String given) {
    return FieldValues.formatValue(f, FieldValues.parseValue(f, given));
  }

  private static Map<String, String> strings(Object o) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : asMap(o).entrySet()) {
      out.put(e.getKey(), e.getValue() == null ? null : String.valueOf(e.getValue()));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Object o) {
    if (!(o instanceof Map)) {
      throw new IllegalArgumentException("expected a JSON object, got " + o);
    }
    return (Map<String, Object>) o;
  }

  /** Reads a JSON file (JSON is parsed with SnakeYAML's safe loader). */
  public static Map<String, Object> readJson(Path file) {
    try {
      return asMap(
          LayoutParser.loadJson(Files.readString(file, StandardCharsets.UTF_8), file.toString()));
    } catch (IOException e) {
      throw new IllegalArgumentException(String.format("Cannot read vectors %s: %s", file, e), e);
    }
  }
}
