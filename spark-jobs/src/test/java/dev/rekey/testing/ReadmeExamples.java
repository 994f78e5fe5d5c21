package dev.rekey.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The examples of README.md as a user reads them: the Commands table's example column, the shell
 * lines of "Running on a real cluster", and the Java blocks of "Living with the new key". Tests run
 * or compile them as written, so an example that stops working fails the build.
 */
public final class ReadmeExamples {
  private static final Pattern EXAMPLE = Pattern.compile("`bin/rekey ([^`]*)`\\s*\\|\\s*$");
  private static final Pattern FENCE = Pattern.compile("```(\\w*)\\n(.*?)```", Pattern.DOTALL);

  private final String text;

  public ReadmeExamples(String text) {
    this.text = text;
  }

  public static ReadmeExamples of(Path readme) throws IOException {
    return new ReadmeExamples(Files.readString(readme));
  }

  /** One example: the arguments after {@code bin/rekey}, as the README writes them. */
  public record Command(List<String> args) {
    public String name() {
      return args.get(0);
    }

    public String line() {
      return "bin/rekey " + String.join(" ", args);
    }
  }

  /** The example column of the Commands table, in the table's order. */
  public List<Command> commandTable() {
    List<Command> out = new ArrayList<>();
    for (String line : section("## Commands").split("\n")) {
      Matcher m = EXAMPLE.matcher(line);
      if (line.startsWith("|") && m.find()) {
        out.add(new Command(words(m.group(1))));
      }
    }
    return out;
  }

  /**
   * The shell lines of the section's bash blocks, a line continued with a backslash joined to the
   * next and comments left out.
   */
  public List<String> shellLines(String heading) {
    List<String> out = new ArrayList<>();
    for (String block : fenced(heading, "bash")) {
      String joined = block.replaceAll("\\\\\\n\\s*", " ");
      for (String line : joined.split("\n")) {
        String code = line.replaceAll("(^|\\s)#.*$", "").strip();
        if (!code.isEmpty()) {
          out.add(code);
        }
      }
    }
    return out;
  }

  /** The bodies of the section's fenced blocks of one language. */
  public List<String> fenced(String heading, String language) {
    List<String> out = new ArrayList<>();
    Matcher m = FENCE.matcher(section(heading));
    while (m.find()) {
      if (m.group(1).equals(language)) {
        out.add(m.group(2));
      }
    }
    return out;
  }

  /** The text from a heading to the next heading of the same level. */
  String section(String heading) {
    int start = text.indexOf("\n" + heading + "\n");
    if (start < 0) {
      throw new IllegalArgumentException("README.md has no section '" + heading + "'");
    }
    String level = heading.substring(0, heading.indexOf(' ') + 1);
    int end = text.indexOf("\n" + level, start + heading.length() + 1);
    return text.substring(start, end < 0 ? text.length() : end);
  }

  public static List<String> words(String line) {
    return Arrays.asList(line.strip().split("\\s+"));
  }
}
