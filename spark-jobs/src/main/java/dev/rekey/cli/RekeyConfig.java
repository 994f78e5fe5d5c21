package dev.rekey.cli;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * What a command runs with, and where each value came from: the command line, else the properties
 * file ({@code conf/rekey.properties}, {@code --properties-file FILE}: defaults as Spark's
 * spark-defaults.conf gives them), else the environment, else rekey's default. Pure: the file's
 * properties, the command line's values and the environment come in as values.
 */
public final class RekeyConfig {
  /** The properties file's name, in $REKEY_CONF_DIR or the install's conf/. */
  public static final String FILE_NAME = "rekey.properties";

  public static final String MASTER = "rekey.master";
  public static final String DEPLOY_MODE = "rekey.deploy-mode";
  public static final String HBASE_SITE = "rekey.hbase-site";
  public static final String STAGING_ROOT = "rekey.staging-root";
  public static final String OUTPUT_ROOT = "rekey.output-root";

  /** The keys a file may set besides {@code spark.*}, with the option each stands for. */
  static final Map<String, String> KEYS =
      Map.of(
          MASTER, "--master",
          DEPLOY_MODE, "--deploy-mode",
          HBASE_SITE, "--hbase-site",
          STAGING_ROOT, "backfill's and repair's --staging parent",
          OUTPUT_ROOT, "scan's --out parent");

  static final String COMMAND_LINE = "command line";
  static final String DEFAULT = "default";

  /** A value and where it came from. */
  public record Value(String value, String source) {}

  /**
   * The settings a command resolves to.
   *
   * @param file the properties file read, or null when none
   * @param settings {@code rekey.*} keys → value (absent: not set anywhere and no default)
   * @param sparkConf Spark settings in the order spark-submit takes them (the command line's last,
   *     so they win), each {@code KEY=VALUE}
   */
  public record Resolved(Path file, Map<String, Value> settings, List<Value> sparkConf) {
    public String get(String key) {
      Value v = settings.get(key);
      return v == null ? null : v.value();
    }

    /** The report {@code rekey config} prints: one line per setting, value then source. */
    public List<String> lines() {
      List<String> out = new ArrayList<>();
      out.add("properties file: " + (file == null ? "none" : file));
      for (String key : List.of(MASTER, DEPLOY_MODE, HBASE_SITE, STAGING_ROOT, OUTPUT_ROOT)) {
        Value v = settings.get(key);
        out.add(
            String.format(
                "%-20s %-45s %s",
                key, v == null ? "(not set)" : v.value(), v == null ? "" : v.source()));
      }
      Map<String, Value> last = new LinkedHashMap<>();
      for (Value c : sparkConf) {
        last.put(c.value().substring(0, c.value().indexOf('=')), c);
      }
      for (Value c : last.values()) {
        out.add(String.format("%-66s %s", c.value(), c.source()));
      }
      return out;
    }
  }

  private RekeyConfig() {}

  /**
   * The properties file a command reads: {@code explicit} (--properties-file, which must exist),
   * else $REKEY_CONF_DIR/rekey.properties, else {@code home}/conf/rekey.properties, when present.
   */
  static Path locate(Path explicit, Map<String, String> env, Path home) {
    if (explicit != null) {
      if (!Files.isRegularFile(explicit)) {
        throw RekeyException.usage(
            "Cannot read --properties-file %s: no such file (copy conf/%s from the release and"
                + " edit it)",
            explicit, FILE_NAME);
      }
      return explicit;
    }
    String dir = env.get("REKEY_CONF_DIR");
    if (dir != null && !dir.isBlank() && Files.isRegularFile(Path.of(dir, FILE_NAME))) {
      return Path.of(dir, FILE_NAME);
    }
    Path inHome = home.resolve("conf").resolve(FILE_NAME);
    return Files.isRegularFile(inHome) ? inHome : null;
  }

  /** The file's properties, each key checked: a misspelt key is an error, not a silent default. */
  static Properties read(Path file) {
    Properties p = new Properties();
    if (file == null) {
      return p;
    }
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw RekeyException.usage("Cannot read properties file %s: %s", file, e.getMessage());
    }
    check(p, file.toString());
    return p;
  }

  static void check(Properties p, String name) {
    for (String key : new TreeSet<>(p.stringPropertyNames())) {
      if (!KEYS.containsKey(key) && !key.startsWith("spark.")) {
        throw RekeyException.usage(
            "Unknown key '%s' in %s: a properties file sets %s or spark.* settings",
            key, name, String.join(", ", new TreeSet<>(KEYS.keySet())));
      }
      if (key.equals(DEPLOY_MODE)) {
        deployMode(p.getProperty(key), key + " in " + name);
      }
    }
  }

  /** {@code client} or {@code cluster}, else a usage error naming {@code where}. */
  static String deployMode(String mode, String where) {
    if (!"client".equals(mode) && !"cluster".equals(mode)) {
      throw RekeyException.usage(
          "Invalid %s '%s': expected client or cluster (where the driver runs)", where, mode);
    }
    return mode;
  }

  /**
   * Resolves every setting.
   *
   * @param commandLine the {@code rekey.*} keys the command line gave (their options' values)
   * @param cliConf the command line's {@code --conf KEY=VALUE}s, in order
   * @param env the environment ($HBASE_CONF_DIR)
   * @param embeddedSite the embedded server's client site (the last fallback of --hbase-site)
   */
  static Resolved resolve(
      Path file,
      Properties props,
      Map<String, String> commandLine,
      List<String> cliConf,
      Map<String, String> env,
      Path embeddedSite) {
    Map<String, Value> s = new LinkedHashMap<>();
    String fileName = file == null ? null : file.toString();
    for (String key : List.of(MASTER, DEPLOY_MODE, HBASE_SITE, STAGING_ROOT, OUTPUT_ROOT)) {
      String cli = commandLine.get(key);
      String fromFile = props.getProperty(key);
      if (cli != null) {
        s.put(key, new Value(cli, COMMAND_LINE));
      } else if (fromFile != null && !fromFile.isBlank()) {
        s.put(key, new Value(fromFile.trim(), fileName));
      }
    }
    s.putIfAbsent(MASTER, new Value("local[*]", DEFAULT));
    s.putIfAbsent(DEPLOY_MODE, new Value("client", DEFAULT));
    if (!s.containsKey(HBASE_SITE)) {
      String confDir = env.get("HBASE_CONF_DIR");
      if (confDir != null && Files.isRegularFile(Path.of(confDir, "hbase-site.xml"))) {
        s.put(
            HBASE_SITE,
            new Value(Path.of(confDir, "hbase-site.xml").toString(), "$HBASE_CONF_DIR"));
      } else if (embeddedSite != null && Files.isRegularFile(embeddedSite)) {
        s.put(HBASE_SITE, new Value(embeddedSite.toString(), "the embedded server's"));
      }
    }
    List<Value> conf = new ArrayList<>();
    for (String key : new TreeSet<>(props.stringPropertyNames())) {
      if (key.startsWith("spark.")) {
        conf.add(new Value(key + "=" + props.getProperty(key).trim(), fileName));
      }
    }
    for (String c : cliConf) {
      conf.add(new Value(c, COMMAND_LINE));
    }
    return new Resolved(file, Map.copyOf(s), List.copyOf(conf));
  }
}
