package dev.rekey.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The reference page of every command (docs/reference/&lt;command&gt;.md, a subcommand's as
 * &lt;command&gt;-&lt;sub&gt;.md) and their index (README.md), as Markdown made from picocli's
 * model of the CLI alone: what {@code --help} says, laid out as tables. Pure: a {@link CommandSpec}
 * in, file names and texts out; ReferencePagesTest compares them with the files on disk and, with
 * {@code -Drekey.reference.write=true} ({@code bin/rekey-docs}), writes them.
 *
 * <p>What a page takes from the help text, by the conventions the commands follow: the
 * description's sentences (or {@code ;}-clauses) that start with "Writes" or "Print" are its
 * outputs, those that start with "Exit" its own reading of the exit codes, and the footer's lines
 * under "Example:" its examples.
 */
public final class ReferencePages {
  /** Where the pages go, from the repository's root. */
  public static final String DIR = "docs/reference";

  /** The command that writes them again, named by the test when a page on disk is stale. */
  public static final String REGENERATE = "bin/rekey-docs";

  static final String INDEX = "README.md";

  private static final String EXAMPLE_HEADING = "Example:";

  /** An option whose help starts like this names a file or place the command writes. */
  private static final Pattern OUTPUT_OPTION = Pattern.compile("(Also )?[Ww]rite |Where ");

  private ReferencePages() {}

  /**
   * File name (in {@link #DIR}) → Markdown, for every command under {@code root} and the index;
   * {@code root} as {@link Rekey#commandLine()} makes it (with {@link ExitCodeHelp}'s list).
   */
  public static Map<String, String> of(CommandSpec root) {
    Map<String, String> pages = new LinkedHashMap<>();
    for (CommandSpec c : commands(root)) {
      pages.put(fileName(c), page(c));
    }
    pages.put(INDEX, index(root));
    return pages;
  }

  /** Every command below {@code root}, depth first in the order {@code --help} lists them. */
  static List<CommandSpec> commands(CommandSpec root) {
    List<CommandSpec> out = new ArrayList<>();
    for (CommandLine sub : root.subcommands().values()) {
      CommandSpec spec = sub.getCommandSpec();
      if (spec.helpCommand() || out.contains(spec)) {
        continue; // `rekey help` is --help; an alias would repeat its command
      }
      out.add(spec);
      out.addAll(commands(spec));
    }
    return out;
  }

  /** {@code backfill.md}, {@code key-encode.md}: the command's path below the root. */
  static String fileName(CommandSpec c) {
    return String.join("-", path(c)) + ".md";
  }

  /** The command as typed: {@code rekey key encode}. */
  static String fullName(CommandSpec c) {
    return c.root().name() + " " + String.join(" ", path(c));
  }

  private static List<String> path(CommandSpec c) {
    List<String> names = new ArrayList<>();
    for (CommandSpec s = c; s.parent() != null; s = s.parent()) {
      names.add(0, s.name());
    }
    return names;
  }

  static String page(CommandSpec c) {
    StringBuilder md = new StringBuilder();
    md.append("# ").append(fullName(c)).append("\n\n");
    md.append(generatedNote()).append("\n\n");
    for (String p : c.usageMessage().description()) {
      md.append(text(p)).append("\n\n");
    }
    for (String p : footer(c).notes()) {
      md.append(text(p)).append("\n\n");
    }
    md.append("## Usage\n\n```\n").append(synopsis(c)).append("```\n\n");
    subcommands(c, md);
    arguments(c, md);
    Set<OptionSpec> common = commonOptions(c);
    List<OptionSpec> own = visibleOptions(c).stream().filter(o -> !common.contains(o)).toList();
    if (!own.isEmpty()) {
      md.append("## Options\n\n").append(optionTable(own));
    }
    if (!common.isEmpty()) {
      md.append("## Common options\n\n")
          .append(optionTable(visibleOptions(c).stream().filter(common::contains).toList()));
    }
    output(c, own, md);
    exitCodes(c, md);
    List<String> examples = examples(c);
    if (!examples.isEmpty()) {
      md.append(examples.size() == 1 ? "## Example\n\n" : "## Examples\n\n").append("```bash\n");
      examples.forEach(e -> md.append(e).append('\n'));
      md.append("```\n");
    }
    return md.toString();
  }

  private static List<CommandSpec> subcommandsOf(CommandSpec c) {
    return commands(c).stream().filter(s -> s.parent() == c).toList();
  }

  private static void subcommands(CommandSpec c, StringBuilder md) {
    List<CommandSpec> subs = subcommandsOf(c);
    if (subs.isEmpty()) {
      return;
    }
    md.append("## Subcommands\n\n| command | what it does |\n|---|---|\n");
    for (CommandSpec s : subs) {
      md.append("| ").append(link(s)).append(" | ").append(cell(summary(s))).append(" |\n");
    }
    md.append('\n');
  }

  private static String link(CommandSpec c) {
    return "[`" + fullName(c) + "`](" + fileName(c) + ")";
  }

  private static void arguments(CommandSpec c, StringBuilder md) {
    List<PositionalParamSpec> params =
        c.positionalParameters().stream().filter(p -> !p.hidden()).toList();
    if (params.isEmpty()) {
      return;
    }
    md.append("## Arguments\n\n| argument | value | required | description |\n|---|---|---|---|\n");
    for (PositionalParamSpec p : params) {
      md.append("| ")
          .append(code(p.paramLabel()))
          .append(" | ")
          .append(valueKind(p))
          .append(" | ")
          .append(p.arity().min() > 0 ? "yes" : "no")
          .append(" | ")
          .append(cell(joined(p.description())))
          .append(" |\n");
    }
    md.append('\n');
  }

  /**
   * What the help says the command writes: its description's "Writes ..." and "Print ..."
   * statements, and the options that name a place it writes. A command with subcommands leaves it
   * to their pages when it states none.
   */
  private static void output(CommandSpec c, List<OptionSpec> own, StringBuilder md) {
    List<String> outputs = new ArrayList<>();
    statements(c, "Writes", "writes", "Print", "Prints").forEach(s -> outputs.add(text(s)));
    for (OptionSpec o : own) {
      if (writesTo(o)) {
        outputs.add(
            code(o.longestName() + " " + o.paramLabel()) + ": " + text(joined(o.description())));
      }
    }
    if (outputs.isEmpty() && !subcommandsOf(c).isEmpty()) {
      return;
    }
    md.append("## Output\n\n");
    if (outputs.isEmpty()) {
      md.append("The help of `").append(fullName(c)).append("` states no output of its own.\n\n");
      return;
    }
    outputs.forEach(s -> md.append("- ").append(s).append('\n'));
    md.append('\n');
  }

  /** The one contract every command's help lists, and what this command's help adds to it. */
  private static void exitCodes(CommandSpec c, StringBuilder md) {
    md.append("## Exit codes\n\n| code | meaning |\n|---|---|\n");
    c.usageMessage()
        .exitCodeList()
        .forEach(
            (k, v) ->
                md.append("| ").append(k.strip()).append(" | ").append(cell(v)).append(" |\n"));
    md.append('\n');
    List<String> exits = statements(c, "Exit");
    if (!exits.isEmpty()) {
      md.append("For this command: ").append(text(String.join(" ", exits))).append("\n\n");
    }
  }

  static String index(CommandSpec root) {
    StringBuilder md = new StringBuilder();
    md.append("# Command reference\n\n").append(generatedNote()).append("\n\n");
    md.append("One page per command of `")
        .append(root.name())
        .append(
            "`: what it does, its usage, every option with its default, what it writes, its exit")
        .append(" codes and an example, as `")
        .append(root.name())
        .append(" <command> --help` says them.\n\n");
    md.append("| command | what it does |\n|---|---|\n");
    for (CommandSpec c : commands(root)) {
      md.append("| ").append(link(c)).append(" | ").append(cell(summary(c))).append(" |\n");
    }
    return md.toString();
  }

  private static String generatedNote() {
    return "<!-- Generated from the CLI's own definitions (dev.rekey.cli.ReferencePages): edit the"
        + " command's help in spark-jobs/src/main/java/dev/rekey/cli, then run "
        + REGENERATE
        + ". -->";
  }

  /** The first sentence of the description: the index's one line. */
  static String summary(CommandSpec c) {
    String[] d = c.usageMessage().description();
    if (d.length == 0) {
      return "";
    }
    List<String> s = sentences(d[0]);
    if (s.isEmpty()) {
      return "";
    }
    // an example inside the sentence is the page's to show, not the index line's
    int eg = s.get(0).indexOf(", e.g. `");
    return eg < 0 ? s.get(0) : s.get(0).substring(0, eg) + ".";
  }

  /** What {@code --help} prints as the usage line, without colours. */
  static String synopsis(CommandSpec c) {
    return new CommandLine.Help(c, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF))
        .synopsis(0);
  }

  private static List<OptionSpec> visibleOptions(CommandSpec c) {
    return c.options().stream().filter(o -> !o.hidden()).toList();
  }

  /**
   * The options of the command's {@link GlobalOptions} mixin, when it has one, and {@code --help}
   * and {@code --version}: the same on every page, after the command's own.
   */
  private static Set<OptionSpec> commonOptions(CommandSpec c) {
    Set<String> names =
        c.mixins().values().stream()
            .filter(m -> m.userObject() instanceof GlobalOptions)
            .flatMap(m -> m.options().stream())
            .map(OptionSpec::longestName)
            .collect(Collectors.toSet());
    return c.options().stream()
        .filter(o -> names.contains(o.longestName()) || o.usageHelp() || o.versionHelp())
        .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
  }

  private static String optionTable(List<OptionSpec> options) {
    StringBuilder md =
        new StringBuilder(
            "| option | value | default | required | description |\n|---|---|---|---|---|\n");
    for (OptionSpec o : options) {
      md.append("| ")
          .append(
              Arrays.stream(o.names()).map(ReferencePages::code).collect(Collectors.joining(", ")))
          .append(" | ")
          .append(o.arity().max() == 0 ? "flag" : code(o.paramLabel()) + kind(o))
          .append(" | ")
          .append(defaultValue(o))
          .append(" | ")
          .append(required(o))
          .append(" | ")
          .append(cell(joined(o.description())))
          .append(" |\n");
    }
    return md.append('\n').toString();
  }

  /**
   * An option that names a place the command writes: a path (or a table) whose help starts "Where
   * ...", "Write ..." or "Also write ...".
   */
  private static boolean writesTo(OptionSpec o) {
    String help = joined(o.description());
    return o.arity().max() > 0
        && OUTPUT_OPTION.matcher(help).lookingAt()
        && (valueType(o) == Path.class || help.startsWith("Where "));
  }

  /** The value's type where the label does not say it, and whether it repeats. */
  private static String kind(ArgSpec a) {
    List<String> parts = new ArrayList<>();
    Class<?> t = valueType(a);
    if (t == int.class || t == Integer.class || t == long.class || t == Long.class) {
      parts.add("integer");
    } else if (t == double.class || t == Double.class) {
      parts.add("number");
    } else if (t == Path.class) {
      parts.add("path");
    }
    if (a.isMultiValue()) {
      parts.add(a.splitRegex().isEmpty() ? "repeatable" : "comma-separated, repeatable");
    }
    return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
  }

  /** The type of one value (of a list's elements, a map's values). */
  private static Class<?> valueType(ArgSpec a) {
    Class<?>[] types = a.auxiliaryTypes();
    return types[types.length - 1];
  }

  /**
   * An argument's value: as an option's, and "text" or "one of the words" where that says nothing.
   */
  private static String valueKind(PositionalParamSpec p) {
    String k = kind(p);
    String plain = valueType(p).isEnum() ? "one of the words" : "text";
    if (k.isEmpty()) {
      return plain;
    }
    String parts = k.substring(2, k.length() - 1);
    return parts.startsWith("repeatable") ? plain + ", " + parts : parts;
  }

  /**
   * The default as the option's annotation gives it, or the field's initial value; blank where
   * there is none to show (an empty list, a flag off).
   */
  private static String defaultValue(OptionSpec o) {
    Object v = o.defaultValue() != null ? o.defaultValue() : o.initialValue();
    if (v == null
        || Boolean.FALSE.equals(v)
        || (v instanceof Collection<?> c && c.isEmpty())
        || (v instanceof Map<?, ?> m && m.isEmpty())
        || v.toString().isEmpty()) {
      return "";
    }
    return code(v.toString());
  }

  private static String required(OptionSpec o) {
    ArgGroupSpec g = o.group();
    if (g == null || !g.exclusive()) {
      return o.required() ? "yes" : "no";
    }
    String names =
        g.options().stream()
            .filter(x -> !x.hidden())
            .map(x -> code(x.longestName()))
            .collect(Collectors.joining(" or "));
    return g.multiplicity().min() > 0 ? "one of " + names : "at most one of " + names;
  }

  /** The command's examples: the indented lines under the footer's "Example:". */
  static List<String> examples(CommandSpec c) {
    return footer(c).examples();
  }

  private record Footer(List<String> examples, List<String> notes) {}

  private static Footer footer(CommandSpec c) {
    List<String> examples = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    boolean inExample = false;
    for (String line : c.usageMessage().footer()) {
      if (line.isBlank()) {
        inExample = false;
      } else if (line.strip().equals(EXAMPLE_HEADING) || line.strip().equals("Examples:")) {
        inExample = true;
      } else if (inExample && line.startsWith("  ")) {
        examples.add(line.strip());
      } else {
        inExample = false;
        notes.add(line.strip());
      }
    }
    return new Footer(examples, notes);
  }

  /**
   * The description's sentences, and the top-level {@code ;}-clauses within them, that start with
   * one of {@code starts}: each as a sentence of its own.
   */
  private static List<String> statements(CommandSpec c, String... starts) {
    List<String> out = new ArrayList<>();
    for (String p : c.usageMessage().description()) {
      for (String sentence : sentences(p)) {
        for (String clause : split(sentence, ';')) {
          String s = clause.strip();
          if (Arrays.stream(starts).anyMatch(w -> s.startsWith(w + " "))) {
            String upper = Character.toUpperCase(s.charAt(0)) + s.substring(1);
            out.add(upper.endsWith(".") ? upper : upper + ".");
          }
        }
      }
    }
    return out;
  }

  /** Sentences: text up to a period that ends a word and is followed by a capital. */
  static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    for (String s : text.strip().split("(?<=[a-z0-9)`'\\]]\\.)\\s+(?=[A-Z])")) {
      if (!s.isBlank()) {
        out.add(s.strip());
      }
    }
    return out;
  }

  /** {@code text} cut at {@code sep} where it is outside parentheses and code spans. */
  private static List<String> split(String text, char sep) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    boolean inCode = false;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch == '`') {
        inCode = !inCode;
      } else if (!inCode && (ch == '(' || ch == '[')) {
        depth++;
      } else if (!inCode && (ch == ')' || ch == ']') && depth > 0) {
        depth--;
      } else if (!inCode && depth == 0 && ch == sep) {
        out.add(text.substring(start, i));
        start = i + 1;
      }
    }
    out.add(text.substring(start));
    return out;
  }

  private static String joined(String[] lines) {
    return String.join(" ", lines).strip();
  }

  /**
   * Help text as Markdown prose: {@code <} and {@code *} escaped outside code spans, so {@code
   * <table>} stays visible and no emphasis starts; code spans kept as they are.
   */
  static String text(String s) {
    StringBuilder out = new StringBuilder();
    boolean inCode = false;
    for (char ch : s.toCharArray()) {
      if (ch == '`') {
        inCode = !inCode;
        out.append(ch);
      } else if (!inCode && ch == '<') {
        out.append("&lt;");
      } else if (!inCode && ch == '*') {
        out.append("\\*");
      } else {
        out.append(ch);
      }
    }
    return out.toString();
  }

  /** Help text in a table cell: as {@link #text}, pipes escaped (in code spans too), one line. */
  static String cell(String s) {
    return text(s.replace('\n', ' ')).replace("|", "\\|");
  }

  /** A value in a code span, pipes escaped for a table cell. */
  static String code(String s) {
    return "`" + s.replace("|", "\\|") + "`";
  }
}
