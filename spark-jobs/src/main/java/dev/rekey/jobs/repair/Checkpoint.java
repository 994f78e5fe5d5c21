package dev.rekey.jobs.repair;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rekey.common.AtomicFile;
import dev.rekey.common.Json;
import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which buckets a repair has written, in {@code OUT/repair-checkpoint.json}, rewritten (atomically)
 * after each bucket's writes are flushed: a killed run goes on with {@code --resume} from the first
 * bucket not done, and writes no bucket twice. Removed when the run ends.
 */
final class Checkpoint {
  static final String FILE = "repair-checkpoint.json";

  private final Path file;
  private final String run;
  private final TreeMap<Integer, WriteCounts> done = new TreeMap<>();

  private Checkpoint(Path file, String run) {
    this.file = file;
    this.run = run;
  }

  /**
   * The checkpoint of this run: a killed run's with {@code --resume} (it must be of the same table
   * and buckets), else a fresh one; a killed run's checkpoint without {@code --resume} is refused.
   */
  static Checkpoint open(RepairOptions o) {
    Path file = o.out().resolve(FILE);
    String run =
        String.format(
            "%s [%d, %d) by %d",
            o.table(), o.buckets().from(), o.buckets().to(), o.buckets().size());
    Checkpoint cp = new Checkpoint(file, run);
    if (!Files.exists(file)) {
      return cp;
    }
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw RekeyException.cannot(e, "Cannot read repair checkpoint %s: %s", file, e.getMessage());
    }
    if (!o.resume()) {
      throw RekeyException.refused(
          "Cannot repair %s: a repair that did not finish left %s (buckets done: %d); add"
              + " --resume to go on from it, or delete it to start over",
          o.table(), file, root.path("done").size());
    }
    if (!run.equals(root.path("run").asText())) {
      throw RekeyException.refused(
          "Cannot resume the repair in %s: it is of %s, this run is of %s (give the same"
              + " --new-table and buckets, or delete the checkpoint)",
          file, root.path("run").asText(), run);
    }
    root.path("done")
        .fields()
        .forEachRemaining(
            e ->
                cp.done.put(
                    Integer.parseInt(e.getKey()),
                    new WriteCounts(
                        e.getValue().path("cellsPut").asLong(),
                        e.getValue().path("cellsDeleted").asLong(),
                        e.getValue().path("putsKeptDeleted").asLong())));
    return cp;
  }

  /** TimeBuckets written by this or an earlier (killed) run. */
  Map<Integer, WriteCounts> done() {
    return done;
  }

  /** Records bucket {@code b} as written. */
  void done(int b, WriteCounts w) {
    done.put(b, w);
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("run", run);
    ObjectNode d = root.putObject("done");
    done.forEach(
        (i, x) -> {
          ObjectNode n = d.putObject(Integer.toString(i));
          n.put("cellsPut", x.cellsPut());
          n.put("cellsDeleted", x.cellsDeleted());
          n.put("putsKeptDeleted", x.putsKeptDeleted());
        });
    AtomicFile.writeJson(file, root);
  }

  /** The run ended: nothing to resume. */
  void finish() {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new RekeyException(
          "Could not remove repair checkpoint " + file + ": " + e.getMessage() + " (delete it)", e);
    }
  }
}
