package dev.rekey.campaign;

import com.fasterxml.jackson.databind.DeserializationFeature;
import dev.rekey.common.AtomicFile;
import dev.rekey.common.Json;
import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The campaign's state file on the cluster's filesystem (run layer): {@code
 * <state_dir>/state.json}, rewritten whole, atomically ({@link AtomicFile}), every time a step
 * begins or ends, by the one driver of the campaign (its tables' threads take turns here).
 */
public final class StateStore {
  public static final String FILE = "state.json";

  private final FileSystem fs;
  private final Path file;
  private CampaignState state;

  private StateStore(FileSystem fs, Path file, CampaignState state) {
    this.fs = fs;
    this.file = file;
    this.state = state;
  }

  /**
   * The state of {@code plan}'s campaign: read from its state dir (a Hadoop URI; without a scheme,
   * on {@code conf}'s default filesystem), or empty when it has none yet.
   */
  public static StateStore open(CampaignPlan plan, Configuration conf) {
    try {
      Path dir = new Path(plan.stateDirOrDefault());
      FileSystem fs = dir.getFileSystem(conf);
      Path file = fs.makeQualified(new Path(dir, FILE));
      return new StateStore(fs, file, read(fs, file, plan.name()));
    } catch (IOException | IllegalArgumentException e) {
      throw RekeyException.cannot(
          e,
          "Cannot read the state of campaign %s in %s: %s (check state_dir/staging_root)",
          plan.name(),
          plan.stateDirOrDefault(),
          e.getMessage());
    }
  }

  /**
   * The file, or the complete {@code .tmp} a crash between its delete and its rename left ({@link
   * AtomicFile#write(FileSystem, Path, byte[])}), or an empty state.
   */
  private static CampaignState read(FileSystem fs, Path file, String campaign) throws IOException {
    Path tmp = new Path(file.getParent(), file.getName() + ".tmp");
    Path from = fs.exists(file) ? file : fs.exists(tmp) ? tmp : null;
    if (from == null) {
      return CampaignState.empty(campaign);
    }
    try (InputStream in = fs.open(from)) {
      CampaignState s =
          Json.MAPPER
              .readerFor(CampaignState.class)
              .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
              .readValue(in);
      if (s.version() > CampaignState.VERSION) {
        throw RekeyException.usage(
            "Cannot use the campaign state %s: it is version %d, newer than this rekey's %d"
                + " (run the campaign with the rekey that wrote it)",
            from, s.version(), CampaignState.VERSION);
      }
      return s;
    }
  }

  public Path file() {
    return file;
  }

  public synchronized CampaignState state() {
    return state;
  }

  /** Changes the state and writes it before returning. */
  public synchronized CampaignState update(UnaryOperator<CampaignState> change) {
    CampaignState next = change.apply(state);
    try {
      fs.mkdirs(file.getParent());
      AtomicFile.write(fs, file, Json.PRETTY.writeValueAsBytes(next));
    } catch (IOException e) {
      throw RekeyException.cannot(
          e, "Cannot write the campaign state %s: %s", file, e.getMessage());
    }
    state = next;
    return next;
  }

  /** Records that a step began now. */
  public CampaignState.StepRecord begin(String table, StepKey step) {
    CampaignState.StepRecord r =
        new CampaignState.StepRecord(
            step.id(),
            CampaignState.Status.RUNNING,
            Instant.now().toString(),
            null,
            null,
            null,
            null,
            null);
    update(s -> s.with(table, r));
    return r;
  }

  /** Records how a step that {@link #begin began} ended. */
  public CampaignState.StepRecord end(
      String table,
      CampaignState.StepRecord began,
      CampaignState.Status status,
      Long rows,
      String result,
      String detail) {
    Instant now = Instant.now();
    double seconds =
        (now.toEpochMilli() - Instant.parse(began.startedAt()).toEpochMilli()) / 1000.0;
    CampaignState.StepRecord r =
        new CampaignState.StepRecord(
            began.step(), status, began.startedAt(), now.toString(), seconds, rows, result, detail);
    update(s -> s.with(table, r));
    return r;
  }
}
