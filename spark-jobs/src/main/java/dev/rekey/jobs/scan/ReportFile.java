package dev.rekey.jobs.scan;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A report query file ({@code sql/NAME.sql}): one SQL query over the scan's views, with a header
 * comment that declares its parameters and the wide columns it needs:
 *
 * <pre>
 * -- Per user: events, first and last event time.     (description: the header's plain comment lines)
 * -- @param from long                   window start, epoch millis (the scan supplies from/to)
 * -- @param window_minutes long = 5     a parameter with a default
 * -- @column d:v=long                   a wide column the query reads (added to --column)
 * SELECT ... WHERE ts &gt;= ${from} ...
 * </pre>
 *
 * Every {@code ${name}} in the query must be declared. Substitution keeps line numbers, so Spark's
 * error positions are positions in the file.
 */
public final class ReportFile {
  private static final Pattern PARAM =
      Pattern.compile(
          "@param\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+(long|double|string)(?:\\s*=\\s*(\\S+))?\\s*(.*)");
  private static final Pattern COLUMN = Pattern.compile("@column\\s+(\\S+)\\s*(.*)");
  private static final Pattern REF = Pattern.compile("\\$\\{([^}]*)}");

  /** A declared parameter. */
  public record Param(String name, String type, String defaultValue, String description)
      implements Serializable {}

  private final String name;
  private final Path path;
  private final String text;
  private final String description;
  private final Map<String, Param> params;
  private final List<WideColumn> columns;

  private ReportFile(
      String name,
      Path path,
      String text,
      String description,
      Map<String, Param> params,
      List<WideColumn> columns) {
    this.name = name;
    this.path = path;
    this.text = text;
    this.description = description;
    this.params = params;
    this.columns = columns;
  }

  /**
   * Finds a report: an existing path as given, else {@code <home>/sql/<arg>} or {@code
   * <home>/sql/<arg>.sql}. An unknown report is a usage error listing the shipped ones.
   */
  public static Path resolve(String arg, Path home) {
    Path p = Path.of(arg);
    if (Files.isRegularFile(p)) {
      return p;
    }
    Path sqlDir = home.resolve("sql");
    for (String candidate : List.of(arg, arg + ".sql")) {
      Path q = sqlDir.resolve(candidate);
      if (!candidate.contains("/") && Files.isRegularFile(q)) {
        return q;
      }
      Path r = home.resolve(candidate);
      if (Files.isRegularFile(r)) {
        return r;
      }
    }
    throw RekeyException.usage(
        "Cannot run report %s: no such file (reports in %s: %s; give a path or a"
            + " name from that list)",
        arg, sqlDir, String.join(", ", shipped(sqlDir)));
  }

  static List<String> shipped(Path sqlDir) {
    if (!Files.isDirectory(sqlDir)) {
      return List.of("none");
    }
    try (Stream<Path> s = Files.list(sqlDir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".sql"))
          .sorted()
          .toList();
    } catch (IOException e) {
      return List.of("unreadable: " + e.getMessage());
    }
  }

  public static ReportFile load(Path path) {
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw RekeyException.usage("Cannot read report %s: %s", path, e.getMessage());
    }
    String file = path.getFileName().toString();
    return parse(file.endsWith(".sql") ? file.substring(0, file.length() - 4) : file, path, text);
  }

  public static ReportFile parse(String name, Path path, String text) {
    if (!name.matches("[A-Za-z0-9_.-]+")) {
      throw RekeyException.usage(
          "Invalid report name '%s' (%s): use letters, digits, _ . - (it names the"
              + " output directory)",
          name, path);
    }
    String[] lines = text.split("\n", -1);
    StringBuilder description = new StringBuilder();
    Map<String, Param> params = new LinkedHashMap<>();
    List<WideColumn> columns = new ArrayList<>();
    boolean sawQuery = false;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].trim();
      if (line.isEmpty()) {
        continue;
      }
      if (!line.startsWith("--")) {
        sawQuery = true;
        break;
      }
      String c = line.substring(2).trim();
      String where = path + ":" + (i + 1);
      if (c.matches("@param\\b.*")) {
        Param p = param(c, where);
        if (params.containsKey(p.name())) {
          throw RekeyException.usage(
              "Parameter '%s' declared twice in %s (line %s)", p.name(), path, (i + 1));
        }
        params.put(p.name(), p);
      } else if (c.matches("@column\\b.*")) {
        columns.add(column(c, where));
      } else if (c.startsWith("@")) {
        throw RekeyException.usage(
            "Unknown header tag at %s: '%s' (known: @param, @column)", where, c);
      } else if (!c.isEmpty()) {
        description.append(description.length() > 0 ? " " : "").append(c);
      }
    }
    if (!sawQuery) {
      throw RekeyException.usage("Report " + path + " has no query (only comments)");
    }
    requireDeclared(name, path, lines, params);
    return new ReportFile(
        name, path, text, description.toString(), Map.copyOf(params), List.copyOf(columns));
  }

  /** A {@code -- @param NAME type [= DEFAULT] description} header line. */
  private static Param param(String c, String where) {
    Matcher m = PARAM.matcher(c);
    if (!m.matches()) {
      throw RekeyException.usage(
          "Invalid parameter declaration at %s: '%s' (expected: -- @param NAME"
              + " long|double|string [= DEFAULT] description)",
          where, c);
    }
    Param p = new Param(m.group(1), m.group(2), m.group(3), m.group(4).trim());
    if (p.defaultValue() != null) {
      literal(p, p.defaultValue(), where);
    }
    return p;
  }

  /** A {@code -- @column family:qualifier=type[:name]} header line. */
  private static WideColumn column(String c, String where) {
    Matcher m = COLUMN.matcher(c);
    if (!m.matches()) {
      throw RekeyException.usage(
          "Invalid column declaration at %s: '%s' (expected: -- @column"
              + " family:qualifier=type[:name])",
          where, c);
    }
    try {
      return WideColumn.parse(m.group(1));
    } catch (RekeyException e) {
      throw RekeyException.usage("%s (at %s)", e.getMessage(), where);
    }
  }

  /** Every {@code ${NAME}} outside a comment line names a declared parameter. */
  private static void requireDeclared(
      String name, Path path, String[] lines, Map<String, Param> params) {
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int comment = line.trim().startsWith("--") ? 0 : -1;
      if (comment == 0) {
        continue;
      }
      Matcher m = REF.matcher(line);
      while (m.find()) {
        if (!params.containsKey(m.group(1))) {
          throw RekeyException.usage(
              "Report %s: undeclared parameter ${%s} at %s:%s (declare it in the"
                  + " header: -- @param %s long|double|string [= DEFAULT])",
              name, m.group(1), path, (i + 1), m.group(1));
        }
      }
    }
  }

  public String name() {
    return name;
  }

  public Path path() {
    return path;
  }

  public String text() {
    return text;
  }

  public String description() {
    return description;
  }

  public Map<String, Param> params() {
    return params;
  }

  public List<WideColumn> columns() {
    return columns;
  }

  /**
   * The query with every {@code ${name}} replaced by a SQL literal: the given value, else the
   * declared default; a parameter with neither is a usage error. Comment lines are left alone; line
   * numbers do not change.
   */
  public String render(Map<String, String> values) {
    for (Param p : params.values()) {
      if (!values.containsKey(p.name()) && p.defaultValue() == null) {
        throw RekeyException.usage(
            "Report %s (%s) needs parameter '%s' (%s): pass --param %s=VALUE",
            name, path, p.name(), p.description(), p.name());
      }
    }
    String[] lines = text.split("\n", -1);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (!line.trim().startsWith("--")) {
        Matcher m = REF.matcher(line);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
          Param p = params.get(m.group(1));
          String v = values.containsKey(p.name()) ? values.get(p.name()) : p.defaultValue();
          m.appendReplacement(sb, Matcher.quoteReplacement(literal(p, v, path + ":" + (i + 1))));
        }
        m.appendTail(sb);
        line = sb.toString();
      }
      out.append(line);
      if (i < lines.length - 1) {
        out.append('\n');
      }
    }
    // one statement: Spark's sql() rejects a trailing semicolon
    String sql = out.toString().stripTrailing();
    while (sql.endsWith(";")) {
      sql = sql.substring(0, sql.length() - 1).stripTrailing();
    }
    return sql;
  }

  private static String literal(Param p, String v, String where) {
    switch (p.type()) {
      case "long":
        try {
          return Long.toString(Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
          throw RekeyException.usage(
              "Invalid value '%s' for parameter %s (long) at %s", v, p.name(), where);
        }
      case "double":
        try {
          return Double.toString(Double.parseDouble(v.trim()));
        } catch (NumberFormatException e) {
          throw RekeyException.usage(
              "Invalid value '%s' for parameter %s (double) at %s", v, p.name(), where);
        }
      default:
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
  }

  /** The file's line {@code n} (1-based), trimmed; "" if out of range. */
  public String line(int n) {
    String[] lines = text.split("\n", -1);
    return n >= 1 && n <= lines.length ? lines[n - 1].trim() : "";
  }

  /** The 1-based line of the first non-comment line mentioning {@code token} (whole word), or 0. */
  public int lineMentioning(String token) {
    String[] lines = text.split("\n", -1);
    Pattern word = Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(token) + "(?![A-Za-z0-9_])");
    for (int i = 0; i < lines.length; i++) {
      if (!lines[i].trim().startsWith("--") && word.matcher(lines[i]).find()) {
        return i + 1;
      }
    }
    return 0;
  }

  @Override
  public String toString() {
    return name + " (" + path + ")";
  }
}
