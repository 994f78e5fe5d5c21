package dev.rekey.jobs.repair;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rekey.jobs.common.AtomicFile;
import dev.rekey.jobs.common.Json;
import dev.rekey.jobs.common.RekeyException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A repair's mutations as a replayable file (JSONL): a header line naming the table and the old
 * side's snapshot time, then one {@link RowMutation} per line. {@code repair --dry-run FILE} writes
 * one and changes nothing; {@code repair --apply FILE} replays it.
 *
 * @param snapshotTime the old side's snapshot time: Puts hidden by a newer delete marker stay
 *     deleted when the file is applied
 */
public record MutationFile(String table, long snapshotTime, String old, List<RowMutation> rows) {
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
          "Cannot apply "
              + file
              + ": "
              + e.getMessage()
              + " (give a file written by repair --dry-run)");
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
