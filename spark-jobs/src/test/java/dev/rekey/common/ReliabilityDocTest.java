package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every row of docs/reliability.md names tests that exist: a promise without a test is not one. */
class ReliabilityDocTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern TEST = Pattern.compile("`([A-Z]\\w*(?:IT|Test))\\.(\\w+)`");

  @Test
  void everyTestTheFaultMatrixNamesExists() throws IOException {
    Map<String, Path> sources;
    try (Stream<Path> s = Files.walk(ROOT)) {
      sources =
          s.filter(p -> p.toString().contains("/src/test/java/") && p.toString().endsWith(".java"))
              .collect(
                  Collectors.toMap(
                      p -> p.getFileName().toString().replace(".java", ""), p -> p, (a, b) -> a));
    }
    List<String> rows =
        Files.readAllLines(ROOT.resolve("docs/reliability.md")).stream()
            .filter(l -> l.matches("\\| \\d+ \\|.*"))
            .toList();
    assertTrue(rows.size() >= 50, "the table's rows: " + rows.size());
    List<String> missing = new ArrayList<>();
    for (String row : rows) {
      String tests = row.substring(row.lastIndexOf('|', row.length() - 2));
      Matcher m = TEST.matcher(tests);
      int named = 0;
      while (m.find()) {
        named++;
        Path src = sources.get(m.group(1));
        if (src == null
            || !Pattern.compile("void\\s+" + m.group(2) + "\\s*\\(")
                .matcher(Files.readString(src))
                .find()) {
          missing.add(m.group(1) + "." + m.group(2));
        }
      }
      if (named == 0) {
        missing.add("no test named in row " + row.substring(0, Math.min(12, row.length())));
      }
    }
    assertEquals(List.of(), missing);
  }
}
