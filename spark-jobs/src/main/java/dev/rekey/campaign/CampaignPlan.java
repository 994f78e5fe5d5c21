package dev.rekey.campaign;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.common.Versions;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.targets.Target;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A campaign plan (plan layer, pure): many source tables, each re-keyed into one or more new tables
 * by the same steps — create-table → snapshot → backfill (whole, or in shards) → reconcile → repair
 * if it differs → reconcile again — run side by side in one Spark application. Read and checked by
 * {@link PlanParser}; the checks that need the cluster are {@link PlanCheck}'s.
 *
 * @param file where the plan was read from (messages, the status page)
 * @param jobsAtOnce tables run side by side
 * @param stagingRoot a Hadoop URI (or a path on the target cluster's default filesystem): each
 *     table's backfill and repair staging dirs go under {@code <stagingRoot>/<campaign>/}
 * @param reportRoot a local dir of the driver: reconcile and repair reports, the status page
 * @param stateDir where the campaign's state file lives (default {@code
 *     <stagingRoot>/<campaign>/_campaign}); a Hadoop URI
 * @param shardAbove store-file bytes of a source snapshot above which its backfill is cut into
 *     shards of about this size each ({@code Long.MAX_VALUE}: never)
 */
public record CampaignPlan(
    Path file,
    String name,
    int jobsAtOnce,
    String stagingRoot,
    Path reportRoot,
    String stateDir,
    long shardAbove,
    List<TablePlan> tables) {

  /** The plan format's version, the {@code version:} the file must give. */
  public static final int FORMAT = 1;

  public static final int DEFAULT_JOBS_AT_ONCE = 2;

  public CampaignPlan {
    tables = List.copyOf(tables);
  }

  /** The state dir, given or {@code <stagingRoot>/<name>/_campaign}. */
  public String stateDirOrDefault() {
    return stateDir != null ? stateDir : stagingRoot + "/" + name + "/_campaign";
  }

  /** One source table and its targets. */
  public record TablePlan(
      String id,
      String sourceTable,
      String sourceSnapshot,
      KeyLayout oldLayout,
      List<TargetPlan> targets,
      BackfillSettings backfill,
      ReconcileSettings reconcile,
      boolean repair,
      Integer shards) {
    public TablePlan {
      targets = List.copyOf(targets);
    }

    /** "table T" or "snapshot S". */
    public String describeSource() {
      return sourceTable != null ? "table " + sourceTable : "snapshot " + sourceSnapshot;
    }

    /** The folder of this table's staging dirs and reports. */
    public String folderName() {
      return Target.folderName(id);
    }
  }

  /**
   * A new table: its layout, and how create-table makes it (split points as {@code create-table
   * --splits/--regions}, families as {@code --family}, table attributes).
   */
  public record TargetPlan(
      String table,
      KeyLayout layout,
      String splits,
      Integer regions,
      List<FamilySpec> families,
      List<byte[]> splitPoints,
      Map<String, String> settings) {
    public TargetPlan {
      families = List.copyOf(families);
      splitPoints = List.copyOf(splitPoints);
      settings = Map.copyOf(settings);
    }
  }

  /** The backfill's options, as {@code rekey backfill}'s flags of the same names. */
  public record BackfillSettings(
      int splitsPerRegion,
      Versions versions,
      List<String> families,
      boolean verifyRows,
      long maxQuarantined,
      boolean sortAlways) {
    public BackfillSettings {
      families = List.copyOf(families);
    }
  }

  /** reconcile's window and bucket ({@code from}/{@code to} null: the data's range). */
  public record ReconcileSettings(
      String bucket, String from, String to, boolean digest, Versions versions) {}
}
