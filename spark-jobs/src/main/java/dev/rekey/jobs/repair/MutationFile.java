package dev.rekey.jobs.repair;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rekey.common.AtomicFile;
import dev.rekey.common.Json;
import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A repair's mutations as a replayable file (JSONL): a header line naming the table, the old side's
 * snapshot time and what the replay compares again ({@link Recheck}), then one {@link RowMutation}
 * per line. {@code repair --dry-run FILE} writes one and changes nothing; {@code repair --apply
 * FILE} replays it and compares the buckets again.
 *
 * @param snapshotTime the old side's snapshot time: Puts hidden by a newer delete marker stay
 *     deleted when the file is applied
 * @param recheck the sides and buckets to compare after the replay (null in a file of an older
 *     rekey: such a file is refused)
 */
public record MutationFile(
    String table, long snapshotTime, String old, Recheck recheck, List<RowMutation> rows) {

  /**
   * What {@code --apply} compares after writing: the old side (a snapshot, or a table read through
   * a new snapshot), both layouts (their YAML, so the file stands alone), the run's buckets and the
   * ones the dry run covered.
   */
  public record Recheck(
      String oldSnapshot,
      String oldTable,
      String oldLayout,
      String newLayout,
      long from,
      long to,
      long bucketMillis,
      String time,
      List<Integer> buckets,
      boolean deleteExtra) {
    public Recheck {
      buckets = List.copyOf(buckets);
    }

    /** What a replay of a dry run of {@code o} compares again: its sides and {@code chosen}. */
    static Recheck of(RepairOptions o, java.util.Collection<Integer> chosen) {
      boolean snap = o.old().isSnapshot();
      return new Recheck(
          snap ? o.old().source().name() : null,
          snap ? null : o.old().source().name(),
          yaml(o.old().layout()),
          yaml(o.neu().layout()),
          o.buckets().from(),
          o.buckets().to(),
          o.buckets().size(),
          o.time().describe(),
          List.copyOf(chosen),
          o.deleteExtra());
    }

    /** A layout's YAML as its file holds it, so that the mutation file stands alone. */
    private static String yaml(dev.rekey.rowkey.KeyLayout l) {
      try {
        return Files.readString(Path.of(l.source()));
      } catch (IOException | RuntimeException e) {
        throw RekeyException.cannot(
            e,
            "Cannot write the mutation file: cannot read layout %s from %s (%s); give the layout"
                + " as a file",
            l.name(),
            l.source(),
            e.getMessage());
      }
    }
  }

  static final String FORMAT = "rekey-repair-mutations/1";

  public MutationFile {
    rows = List.copyOf(rows);
  }

  /** Writes the file ({@code *.tmp} renamed). */
  public void write(Path file) {
    ObjectNode head = Json.MAPPER.createObjectNode();
    head.put("format", FORMAT);
    head.put("table", table);
    head.put("snapshotTime", snapshotTime);
    head.put("old", old);
    head.put("rows", rows.size());
    if (recheck != null) {
      head.set("recheck", Json.MAPPER.valueToTree(recheck));
    }
    StringBuilder b = new StringBuilder(head.toString()).append('\n');
    for (RowMutation m : rows) {
      b.append(m.toJsonLine()).append('\n');
    }
    AtomicFile.write(file, b.toString());
  }

  /** Reads a file written by {@link #write}; a malformed one is refused with its line number. */
  public static MutationFile read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw RekeyException.usage(
          "Cannot apply %s: %s (give a file written by repair --dry-run)", file, e.getMessage());
    }
    if (lines.isEmpty()) {
      throw RekeyException.usage("Cannot apply " + file + ": it is empty");
    }
    int line = 1;
    try {
      JsonNode head = Json.MAPPER.readTree(lines.get(0));
      if (!FORMAT.equals(head.path("format").asText())) {
        throw new IllegalArgumentException(
            "not a repair mutation file (the first line's format is not " + FORMAT + ")");
      }
      List<RowMutation> rows = new ArrayList<>();
      for (line = 2; line <= lines.size(); line++) {
        if (!lines.get(line - 1).isBlank()) {
          rows.add(RowMutation.parse(Json.MAPPER.readTree(lines.get(line - 1))));
        }
      }
      return new MutationFile(
          head.path("table").asText(),
          head.path("snapshotTime").asLong(),
          head.path("old").asText(),
          head.hasNonNull("recheck")
              ? Json.MAPPER.treeToValue(head.get("recheck"), Recheck.class)
              : null,
          rows);
    } catch (IOException | IllegalArgumentException e) {
      throw RekeyException.usage("Cannot apply " + file + ": line " + line + ": " + e.getMessage());
    }
  }

  public long cellsToPut() {
    return rows.stream().mapToLong(r -> r.fix().puts().size()).sum();
  }

  public long cellsToDelete() {
    return rows.stream().mapToLong(r -> r.fix().deletes().size()).sum();
  }
}
