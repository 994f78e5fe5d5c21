package dev.rekey.campaign;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.SplitChoice;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TableNames;
import dev.rekey.common.TimeArgs;
import dev.rekey.common.Versions;
import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads a campaign plan (plan layer, pure: no Spark, no HBase): a strict schema — every key known,
 * every value checked — with every problem of the whole file found at once, one line each naming
 * where ({@code tables[1].targets[0].layout}) and what to do; any problem is a usage error (exit 2)
 * before anything runs. The checks that need the cluster (the source exists, its keys decode) are
 * {@link PlanCheck}'s.
 */
public final class PlanParser {
  static final Set<String> TOP =
      Set.of(
          "version",
          "name",
          "jobs_at_once",
          "staging_root",
          "report_root",
          "state_dir",
          "shard_above",
          "tables");
  static final Set<String> TABLE =
      Set.of("source", "old_layout", "targets", "backfill", "reconcile", "repair", "shards");
  static final Set<String> SOURCE = Set.of("table", "snapshot");
  static final Set<String> TARGET =
      Set.of("table", "layout", "splits", "regions", "families", "settings");
  static final Set<String> BACKFILL =
      Set.of(
          "splits_per_region", "versions", "families", "verify", "max_quarantined", "write_path");
  static final Set<String> RECONCILE = Set.of("bucket", "from", "to", "digest", "versions");

  private final Path file;
  private final BiFunction<String, String, KeyLayout> layouts;
  private final List<String> problems = new ArrayList<>();

  /**
   * @param layouts a layout by name or file ({@code LayoutFiles::load}: an unknown one throws a
   *     usage RekeyException naming it)
   */
  public PlanParser(Path file, BiFunction<String, String, KeyLayout> layouts) {
    this.file = file;
    this.layouts = layouts;
  }

  /** Reads {@code file}: the plan, or a usage RekeyException listing every problem, one a line. */
  public CampaignPlan read() {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw RekeyException.usage(
          "Cannot read campaign plan %s: %s (give the path of a plan file; docs/campaigns.md)",
          file, e.getMessage());
    }
    return parse(text);
  }

  /** The plan in {@code text}, or a usage RekeyException listing every problem. */
  public CampaignPlan parse(String text) {
    Object root;
    try {
      LoaderOptions opts = new LoaderOptions();
      opts.setAllowDuplicateKeys(false);
      root = new Yaml(new SafeConstructor(opts)).load(text);
    } catch (YAMLException e) {
      throw RekeyException.usage(
          "Cannot read campaign plan %s: not valid YAML (%s)",
          file, e.getMessage().replace('\n', ' '));
    }
    CampaignPlan plan = plan(root);
    if (!problems.isEmpty()) {
      throw RekeyException.usage(
          "Campaign plan %s has %d problem(s); nothing was run:%n  %s",
          file, problems.size(), String.join(System.lineSeparator() + "  ", problems));
    }
    return plan;
  }

  /** The problems found so far (one line each). */
  List<String> problems() {
    return List.copyOf(problems);
  }

  private void problem(String where, String fmt, Object... args) {
    problems.add(where + ": " + String.format(Locale.ROOT, fmt, args));
  }

  private CampaignPlan plan(Object root) {
    Map<String, Object> top = map(root, "(top)");
    if (top == null) {
      return null;
    }
    keys(top, TOP, "(top)");
    Object version = top.get("version");
    if (!Integer.valueOf(CampaignPlan.FORMAT).equals(version)) {
      problem(
          "version",
          "expected %d (the plan format this rekey reads), got %s",
          CampaignPlan.FORMAT,
          version == null ? "nothing" : version);
    }
    String name = string(top, "name", "name", true);
    if (name != null && !name.matches("[A-Za-z0-9_.-]+")) {
      problem("name", "'%s' may hold only letters, digits, '_', '.' and '-'", name);
    }
    int jobs = integer(top, "jobs_at_once", "jobs_at_once", CampaignPlan.DEFAULT_JOBS_AT_ONCE);
    if (jobs < 1 || jobs > 64) {
      problem("jobs_at_once", "must be in 1..64, got %d", jobs);
    }
    String staging = string(top, "staging_root", "staging_root", true);
    String reports = string(top, "report_root", "report_root", true);
    String state = string(top, "state_dir", "state_dir", false);
    long shardAbove = Long.MAX_VALUE;
    String shard = string(top, "shard_above", "shard_above", false);
    if (shard != null) {
      try {
        shardAbove = bytes(shard);
      } catch (IllegalArgumentException e) {
        problem("shard_above", "%s", e.getMessage());
      }
    }
    List<CampaignPlan.TablePlan> tables = new ArrayList<>();
    Object list = top.get("tables");
    if (!(list instanceof List<?> items) || items.isEmpty()) {
      problem("tables", "give a list of one or more tables");
    } else {
      Map<String, String> targetsSeen = new HashMap<>();
      Map<String, String> sourcesSeen = new HashMap<>();
      for (int i = 0; i < items.size(); i++) {
        CampaignPlan.TablePlan t = table(items.get(i), "tables[" + i + "]", targetsSeen);
        if (t != null) {
          String earlier = sourcesSeen.putIfAbsent(t.id(), "tables[" + i + "]");
          if (earlier != null) {
            problem(
                "tables[" + i + "].source",
                "%s is the source of %s already (give each source once, with all its targets)",
                t.describeSource(),
                earlier);
          }
          tables.add(t);
        }
      }
      for (CampaignPlan.TablePlan t : tables) {
        String asTarget = targetsSeen.get(t.sourceTable() == null ? "" : t.sourceTable());
        if (asTarget != null) {
          problem(asTarget, "%s is also a source of this campaign", t.sourceTable());
        }
      }
    }
    return new CampaignPlan(
        file,
        name,
        jobs,
        staging,
        reports == null ? null : Path.of(reports),
        state,
        shardAbove,
        tables);
  }

  private CampaignPlan.TablePlan table(Object o, String at, Map<String, String> targetsSeen) {
    Map<String, Object> t = map(o, at);
    if (t == null) {
      return null;
    }
    keys(t, TABLE, at);
    int before = problems.size();
    String srcTable = null;
    String srcSnapshot = null;
    Map<String, Object> src = map(t.get("source"), at + ".source");
    if (src != null) {
      keys(src, SOURCE, at + ".source");
      srcTable = string(src, "table", at + ".source.table", false);
      srcSnapshot = string(src, "snapshot", at + ".source.snapshot", false);
      if ((srcTable == null) == (srcSnapshot == null)) {
        problem(at + ".source", "give exactly one of table: or snapshot:");
      }
      if (srcTable != null) {
        tableName(srcTable, at + ".source.table");
      }
    }
    KeyLayout old = layout(string(t, "old_layout", at + ".old_layout", true), at + ".old_layout");
    List<CampaignPlan.TargetPlan> targets = new ArrayList<>();
    Object tl = t.get("targets");
    if (!(tl instanceof List<?> items) || items.isEmpty()) {
      problem(at + ".targets", "give a list of one or more new tables");
    } else {
      for (int j = 0; j < items.size(); j++) {
        String where = at + ".targets[" + j + "]";
        CampaignPlan.TargetPlan target = target(items.get(j), where, old);
        if (target == null) {
          continue;
        }
        String earlier = targetsSeen.putIfAbsent(target.table(), where);
        if (earlier != null) {
          problem(
              where + ".table",
              "%s is a target of %s already (each new table is filled from one source, once)",
              target.table(),
              earlier);
        } else if (target.table().equals(srcTable)) {
          problem(where + ".table", "%s is the source table itself", target.table());
        }
        targets.add(target);
      }
    }
    CampaignPlan.BackfillSettings backfill = backfill(t.get("backfill"), at + ".backfill");
    CampaignPlan.ReconcileSettings reconcile = reconcile(t.get("reconcile"), at + ".reconcile");
    boolean repair = bool(t, "repair", at + ".repair", true);
    Integer shards = t.containsKey("shards") ? integer(t, "shards", at + ".shards", 1) : null;
    if (shards != null && (shards < 1 || shards > 1024)) {
      problem(at + ".shards", "must be in 1..1024, got %d", shards);
    }
    if (problems.size() > before) {
      return null;
    }
    return new CampaignPlan.TablePlan(
        srcTable != null ? srcTable : srcSnapshot,
        srcTable,
        srcSnapshot,
        old,
        targets,
        backfill,
        reconcile,
        repair,
        shards);
  }

  private CampaignPlan.TargetPlan target(Object o, String at, KeyLayout old) {
    Map<String, Object> t = map(o, at);
    if (t == null) {
      return null;
    }
    keys(t, TARGET, at);
    int before = problems.size();
    String table = string(t, "table", at + ".table", true);
    if (table != null) {
      tableName(table, at + ".table");
    }
    KeyLayout layout = layout(string(t, "layout", at + ".layout", true), at + ".layout");
    if (layout != null && old != null) {
      Optional<String> misfit = new Rekeyer(old, layout).check();
      misfit.ifPresent(
          m -> problem(at + ".layout", "%s (pick a layout whose fields old_layout has)", m));
    }
    String splits = string(t, "splits", at + ".splits", false);
    Integer regions = t.containsKey("regions") ? integer(t, "regions", at + ".regions", 1) : null;
    List<byte[]> points = List.of();
    if (layout != null) {
      try {
        points = SplitChoice.choose(layout, regions, splits);
      } catch (IllegalArgumentException e) {
        problem(at + ".splits", "%s", e.getMessage().replace("--", ""));
      }
    }
    List<FamilySpec> families = new ArrayList<>();
    List<String> specs = strings(t.get("families"), at + ".families");
    if (specs.isEmpty()) {
      problem(at + ".families", "give one or more families (create-table's --family specs)");
    }
    for (int k = 0; k < specs.size(); k++) {
      try {
        families.add(FamilySpec.parse(specs.get(k)));
      } catch (IllegalArgumentException | RekeyException e) {
        problem(at + ".families[" + k + "]", "%s", e.getMessage());
      }
    }
    Map<String, String> settings = new LinkedHashMap<>();
    Object s = t.get("settings");
    if (s != null) {
      Map<String, Object> m = map(s, at + ".settings");
      if (m != null) {
        m.forEach((k, v) -> settings.put(k, String.valueOf(v)));
      }
    }
    if (problems.size() > before) {
      return null;
    }
    return new CampaignPlan.TargetPlan(table, layout, splits, regions, families, points, settings);
  }

  private CampaignPlan.BackfillSettings backfill(Object o, String at) {
    Map<String, Object> b = o == null ? Map.of() : map(o, at);
    if (b == null) {
      b = Map.of();
    }
    keys(b, BACKFILL, at);
    int k = integer(b, "splits_per_region", at + ".splits_per_region", 1);
    if (k < 1 || k > 1024) {
      problem(at + ".splits_per_region", "must be in 1..1024, got %d", k);
    }
    Versions v = versions(b, at);
    String verify = string(b, "verify", at + ".verify", false);
    if (verify != null && !verify.equals("files") && !verify.equals("rows")) {
      problem(at + ".verify", "expected files or rows, got '%s'", verify);
    }
    String path = string(b, "write_path", at + ".write_path", false);
    if (path != null && !path.equals("auto") && !path.equals("sort")) {
      problem(at + ".write_path", "expected auto or sort, got '%s'", path);
    }
    long quarantined = integer(b, "max_quarantined", at + ".max_quarantined", 0);
    if (quarantined < 0) {
      problem(at + ".max_quarantined", "must be ≥ 0, got %d", quarantined);
    }
    return new CampaignPlan.BackfillSettings(
        k,
        v,
        strings(b.get("families"), at + ".families"),
        "rows".equals(verify),
        quarantined,
        "sort".equals(path));
  }

  private CampaignPlan.ReconcileSettings reconcile(Object o, String at) {
    Map<String, Object> r = map(o, at);
    if (r == null) {
      return null;
    }
    keys(r, RECONCILE, at);
    String bucket = string(r, "bucket", at + ".bucket", true);
    if (bucket != null) {
      try {
        TimeArgs.duration(bucket, "bucket");
      } catch (RuntimeException e) {
        problem(at + ".bucket", "%s", e.getMessage());
      }
    }
    String from = timeString(r, "from", at);
    String to = timeString(r, "to", at);
    if ((from == null) != (to == null)) {
      problem(at, "give both from: and to:, or neither (the data's range)");
    }
    return new CampaignPlan.ReconcileSettings(
        bucket, from, to, bool(r, "digest", at + ".digest", true), versions(r, at));
  }

  private String timeString(Map<String, Object> r, String key, String at) {
    Object v = r.get(key);
    if (v == null) {
      return null;
    }
    String s = v instanceof java.util.Date d ? d.toInstant().toString() : String.valueOf(v);
    try {
      TimeArgs.instant(s, key);
    } catch (RuntimeException e) {
      problem(at + "." + key, "%s", e.getMessage());
    }
    return s;
  }

  private Versions versions(Map<String, Object> m, String at) {
    Object v = m.get("versions");
    if (v == null) {
      return Versions.ALL;
    }
    try {
      return Versions.parse(String.valueOf(v), "versions");
    } catch (RuntimeException e) {
      problem(at + ".versions", "%s", e.getMessage());
      return Versions.ALL;
    }
  }

  private KeyLayout layout(String name, String at) {
    if (name == null) {
      return null;
    }
    try {
      return layouts.apply(name, at);
    } catch (RuntimeException e) {
      problem(at, "%s", e.getMessage());
      return null;
    }
  }

  private void tableName(String name, String at) {
    try {
      TableNames.parse(name, "campaign");
    } catch (RuntimeException e) {
      problem(at, "%s", e.getMessage());
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> map(Object o, String at) {
    if (o instanceof Map<?, ?> m) {
      for (Object k : m.keySet()) {
        if (!(k instanceof String)) {
          problem(at, "key %s is not a name", k);
          return null;
        }
      }
      return (Map<String, Object>) m;
    }
    problem(at, "expected a mapping (key: value lines), got %s", o == null ? "nothing" : o);
    return null;
  }

  private void keys(Map<String, Object> m, Set<String> allowed, String at) {
    for (String k : m.keySet()) {
      if (!allowed.contains(k)) {
        problem(
            at.equals("(top)") ? k : at + "." + k,
            "unknown key (allowed here: %s)",
            String.join(", ", new java.util.TreeSet<>(allowed)));
      }
    }
  }

  private String string(Map<String, Object> m, String key, String at, boolean required) {
    Object v = m.get(key);
    if (v == null) {
      if (required) {
        problem(at, "required");
      }
      return null;
    }
    if (v instanceof Map || v instanceof List) {
      problem(at, "expected a value, got %s", v);
      return null;
    }
    String s = String.valueOf(v).trim();
    if (s.isEmpty()) {
      problem(at, "empty");
      return null;
    }
    return s;
  }

  private int integer(Map<String, Object> m, String key, String at, int dflt) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    if (v instanceof Integer i) {
      return i;
    }
    problem(at, "expected a whole number, got %s", v);
    return dflt;
  }

  private boolean bool(Map<String, Object> m, String key, String at, boolean dflt) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    problem(at, "expected true or false, got %s", v);
    return dflt;
  }

  private List<String> strings(Object o, String at) {
    if (o == null) {
      return List.of();
    }
    if (!(o instanceof List<?> l)) {
      problem(at, "expected a list, got %s", o);
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (Object e : l) {
      out.add(String.valueOf(e));
    }
    return out;
  }

  /** {@code 10g}, {@code 512m}, {@code 200k} or a number of bytes. */
  static long bytes(String s) {
    String t = s.trim().toLowerCase(Locale.ROOT).replace("b", "");
    long unit = 1;
    if (!t.isEmpty()) {
      switch (t.charAt(t.length() - 1)) {
        case 'k' -> unit = 1L << 10;
        case 'm' -> unit = 1L << 20;
        case 'g' -> unit = 1L << 30;
        case 't' -> unit = 1L << 40;
        default -> unit = 1;
      }
    }
    String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
    try {
      long n = Long.parseLong(digits.trim());
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n * unit;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          String.format("'%s' is not a size (give bytes, or a number with k, m, g or t: 10g)", s));
    }
  }
}
