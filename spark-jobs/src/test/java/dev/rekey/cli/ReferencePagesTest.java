package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.ReadmeExamples;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;

/**
 * docs/reference is what the CLI's own definitions make of it ({@link ReferencePages}): a page that
 * differs from its regeneration fails here, naming the page and the command that writes it again.
 * {@code -Drekey.reference.write=true} (what {@code bin/rekey-docs} passes) writes the pages first.
 */
@Tag("unit")
class ReferencePagesTest {
  static final String WRITE = "rekey.reference.write";

  private static final Path DIR =
      Path.of(System.getProperty("rekey.home", ".."))
          .toAbsolutePath()
          .normalize()
          .resolve(ReferencePages.DIR);

  private static CommandSpec rekey() {
    return Rekey.commandLine().getCommandSpec();
  }

  @Test
  void everyPageOnDiskIsTheCommandsOwn() throws IOException {
    Map<String, String> pages = ReferencePages.of(rekey());
    if (Boolean.getBoolean(WRITE)) {
      write(pages);
    }
    List<String> stale = new ArrayList<>();
    for (var e : pages.entrySet()) {
      Path file = DIR.resolve(e.getKey());
      if (!Files.exists(file)) {
        stale.add(ReferencePages.DIR + "/" + e.getKey() + " (missing)");
      } else if (!Files.readString(file, StandardCharsets.UTF_8).equals(e.getValue())) {
        stale.add(ReferencePages.DIR + "/" + e.getKey());
      }
    }
    for (String name : onDisk()) {
      if (!pages.containsKey(name)) {
        stale.add(ReferencePages.DIR + "/" + name + " (no such command)");
      }
    }
    assertTrue(
        stale.isEmpty(),
        "Reference pages that differ from the CLI's definitions: "
            + stale
            + "; write them again with "
            + ReferencePages.REGENERATE
            + " (from the repository's root)");
  }

  /** Writes the pages, and removes those of commands that are gone. */
  private static void write(Map<String, String> pages) throws IOException {
    Files.createDirectories(DIR);
    for (var e : pages.entrySet()) {
      Files.writeString(DIR.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
    }
    for (String name : onDisk()) {
      if (!pages.containsKey(name)) {
        Files.delete(DIR.resolve(name));
      }
    }
  }

  private static List<String> onDisk() throws IOException {
    if (!Files.isDirectory(DIR)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(DIR)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".md")).toList();
    }
  }

  @Test
  void everyCommandHasAnExampleThatParses() {
    for (CommandSpec c : ReferencePages.commands(rekey())) {
      List<String> examples = ReferencePages.examples(c);
      assertFalse(
          examples.isEmpty(),
          ReferencePages.fullName(c) + " has no \"Example:\" in its help's footer");
      for (String line : examples) {
        List<String> words = ReadmeExamples.words(line);
        assertEquals("bin/rekey", words.get(0), line);
        ReadmeExamplesTest.checkParses(words.subList(1, words.size()), line);
      }
    }
  }

  @Test
  void optionsTableReadsAsATable() {
    String backfill = ReferencePages.of(rekey()).get("backfill.md");
    assertFalse(backfill.contains("${"), "an unexpanded picocli variable:\n" + backfill);
    for (String line : backfill.split("\n")) {
      if (line.startsWith("| `--")) {
        // five cells between six pipes: the pipes inside them are escaped
        assertEquals(7, line.split("(?<!\\\\)\\|", -1).length, line);
      }
    }
    assertTrue(
        backfill.contains("| `--versions` | `N\\|all` | `all` | no | Versions of each column"),
        backfill);
    assertTrue(
        backfill.contains("| `--source-snapshot` | `S` |  | yes | Snapshot of the old table. |"),
        backfill);
    String scan = ReferencePages.of(rekey()).get("scan.md");
    assertTrue(
        scan.contains(
            "| `--out` | `DIR` | `scan-out` | no | Output directory: a path or Hadoop URI"),
        scan);
    assertTrue(scan.contains("one of `--table` or `--snapshot`"), scan);
    assertTrue(scan.contains("- Writes --out/&lt;report>/ per report"), scan);
  }

  @Test
  void helpTextBecomesMarkdownThatShowsWhatItSays() {
    assertEquals("default: &lt;out>/&lt;table>", ReferencePages.text("default: <out>/<table>"));
    assertEquals("e.g. `ts=<ms>`", ReferencePages.text("e.g. `ts=<ms>`"));
    assertEquals("a \\| b `x\\|y`", ReferencePages.cell("a | b `x|y`"));
    assertEquals(
        List.of("Find it (e.g. a key).", "Writes a.json."),
        ReferencePages.sentences("Find it (e.g. a key). Writes a.json."));
  }
}
