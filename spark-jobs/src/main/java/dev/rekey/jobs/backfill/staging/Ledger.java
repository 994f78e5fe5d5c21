package dev.rekey.jobs.backfill.staging;

import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.BackfillOptions;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;

/**
 * The ledger in {@code _manifest.json}: each region's state ({@code WRITTEN → LOADED → VERIFIED}),
 * read back by {@code --resume}, which must continue the same backfill.
 */
public final class Ledger {
  private Ledger() {}

  /** Regions of the manifest in the state. */
  public static long count(Manifest m, RegionState s) {
    return m.regions().stream().filter(r -> r.state() == s).count();
  }

  /** The manifest to resume from; refuses one written for other inputs. */
  public static Manifest read(Staging staging, BackfillOptions o, TableName table)
      throws IOException {
    Manifest manifest = staging.readJson(staging.manifest(), Manifest.class);
    if (!manifest.sameInputs(o)) {
      throw RekeyException.refused(
          "Cannot resume the backfill of %s: %s is for a different backfill (snapshot %s, layouts"
              + " %s -> %s); run without --resume to start over",
          table,
          staging.manifest(),
          manifest.sourceSnapshot(),
          manifest.sourceLayout(),
          manifest.targetLayout());
    }
    return manifest;
  }

  /** Says where the resume starts, and when there is nothing left to do. */
  public static void resume(Staging staging, Manifest manifest, Consumer<String> progress) {
    long verified = count(manifest, RegionState.VERIFIED);
    progress.accept(
        String.format(
            "Resuming from %s: %d of %d regions already verified",
            staging.manifest(), verified, manifest.regions().size()));
    if (verified == manifest.regions().size()) {
      progress.accept(
          "Nothing to resume: every region was verified when it was loaded (their HFiles are"
              + " gone). To check the table as it is now, run `rekey reconcile` against the"
              + " source.");
    }
  }
}
