package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.ReadmeExamples;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * README.md's examples checked without a server: every command line names a command and options
 * rekey has (and parses whole where it is complete), and every Java block of "Living with the new
 * key" compiles against the client and the jobs as written. FirstRunIT runs the Commands table's
 * examples against the demo's tables.
 */
@Tag("unit")
class ReadmeExamplesTest {
  static final String CLUSTER_SECTION = "## Running on a real cluster";

  /**
   * The Java blocks use names a service has in scope (a connection, field values, a logger): they
   * are declared here, with the types the client API takes. A block that uses another name fails to
   * compile, and this list, kept short, is where it is declared.
   */
  private static final String IN_SCOPE =
      """
      Connection conn; long ts, from, to; byte[] deviceId, id, D, V, value; KeyLayout v1, v2, byDevice;
      Map<String, String> config; org.slf4j.Logger log; LayoutReader oldReader, newReader;
      LayoutReader v1Reader, v2Reader, byDeviceReader;
      Map<String, Object> fields; JavaSparkContext jsc; Configuration hbaseConf;
      JavaRDD<KeyedCells> records;
      abstract void handle(Result row);
      """;

  private static final String IMPORTS =
      """
      import dev.rekey.client.*; import dev.rekey.rowkey.*; import dev.rekey.dualwrite.*;
      import java.nio.file.Path; import java.util.*; import org.apache.hadoop.conf.Configuration;
      import org.apache.hadoop.hbase.TableName; import org.apache.hadoop.hbase.client.*;
      import org.apache.spark.api.java.JavaRDD; import org.apache.spark.api.java.JavaSparkContext;
      """;

  static ReadmeExamples readme() throws IOException {
    return ReadmeExamples.of(Path.of(System.getProperty("rekey.home", "..")).resolve("README.md"));
  }

  @Test
  void everyCommandInTheTableHasAnExampleThatParses() throws IOException {
    List<ReadmeExamples.Command> examples = readme().commandTable();
    assertTrue(examples.size() >= 15, "Commands table examples: " + examples);
    for (ReadmeExamples.Command c : examples) {
      checkParses(c.args(), c.line());
    }
    // every command rekey has is shown in the table
    for (String name : Rekey.commandLine().getSubcommands().keySet()) {
      assertTrue(
          name.equals("help") || examples.stream().anyMatch(c -> c.name().equals(name)),
          "README's Commands table has no example of " + name);
    }
  }

  @Test
  void clusterSectionCommandsNameRealOptions() throws Exception {
    List<String> lines = readme().shellLines(CLUSTER_SECTION);
    int checked = 0;
    for (String line : lines) {
      List<String> words = ReadmeExamples.words(line);
      List<String> rekeyArgs = rekeyArgs(words);
      if (rekeyArgs == null) {
        continue; // mvn, exports and shell variables: FirstRunIT checks what they name
      }
      if (words.get(0).equals("spark-submit")) {
        String main = words.get(words.indexOf("--class") + 1);
        assertNotNull(Class.forName(main), line);
      }
      checkParses(rekeyArgs, line);
      checked++;
    }
    assertTrue(checked >= 6, "spark-submit and bin/rekey lines checked: " + checked);
  }

  /**
   * The rekey arguments of a shell line: after {@code bin/rekey}, or after a spark-submit's
   * application jar; null for any other line.
   */
  static List<String> rekeyArgs(List<String> words) {
    if (words.get(0).equals("bin/rekey")) {
      return words.subList(1, words.size());
    }
    if (words.get(0).equals("spark-submit")) {
      for (int i = 1; i < words.size(); i++) {
        if (words.get(i).endsWith("$JAR") && !words.get(i - 1).startsWith("--")) {
          return words.subList(i + 1, words.size());
        }
      }
      throw new AssertionError("spark-submit line without the application jar: " + words);
    }
    return null;
  }

  /**
   * Every option of the line is one its command has; a line without "..." parses whole (values
   * converted, required options present).
   */
  static void checkParses(List<String> args, String line) {
    if (args.get(0).equals("config") && args.size() > 1 && !args.get(1).startsWith("-")) {
      checkParses(args.subList(1, args.size()), line); // config shows another command line
      Rekey.commandLine().parseArgs(args.toArray(new String[0])); // and takes it whole
      return;
    }
    CommandLine root = Rekey.commandLine();
    CommandLine cmd = root.getSubcommands().get(args.get(0));
    assertNotNull(cmd, "README names a command rekey does not have: " + line);
    for (String word : args.subList(1, args.size())) {
      CommandLine sub = cmd.getSubcommands().get(word); // key encode, hbase status, ...
      if (sub == null) {
        break;
      }
      cmd = sub;
    }
    for (String word : args) {
      if (word.startsWith("--")) {
        String option = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
        assertNotNull(
            cmd.getCommandSpec().findOption(option),
            "README: " + args.get(0) + " has no option " + option + ": " + line);
      }
    }
    if (!args.contains("...")) {
      root.parseArgs(args.toArray(new String[0])); // throws with picocli's reason
    }
  }

  @Test
  void livingWithTheNewKeyJavaBlocksCompile() throws IOException {
    List<String> blocks = readme().fenced("## Living with the new key", "java");
    assertEquals(5, blocks.size(), "Java blocks in 'Living with the new key'");
    List<JavaFileObject> sources = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      String name = "ReadmeBlock" + i;
      String code =
          IMPORTS
              + "abstract class "
              + name
              + " {\n"
              + IN_SCOPE
              + "void run() throws Exception {\n"
              + blocks.get(i)
              + "\n}\n}\n";
      sources.add(
          new SimpleJavaFileObject(Path.of(name + ".java").toUri(), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
              return code;
            }
          });
    }
    Path out = Files.createTempDirectory("readme-java");
    StringWriter errors = new StringWriter();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    boolean ok =
        javac
            .getTask(
                errors,
                null,
                null,
                List.of("-proc:none", "-d", out.toString(), "-cp", testClassPath()),
                null,
                sources)
            .call();
    assertTrue(ok, "README.md's Java blocks do not compile as written:\n" + errors);
  }

  /** Surefire's real test classpath (its own java.class.path may be a manifest-only jar). */
  private static String testClassPath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null ? surefire : System.getProperty("java.class.path");
  }
}
