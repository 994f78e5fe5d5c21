package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.home.RekeyHome;
import dev.rekey.rowkey.DecodedKey;
import dev.rekey.rowkey.FieldValues;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.VectorChecker;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** rekey key encode|decode|vectors: the shared key library from the command line. */
@Command(
    name = "key",
    mixinStandardHelpOptions = true,
    description =
        "Build, read and check row keys with a layout file (bytes fields as hex, longs as decimal).",
    subcommands = {KeyCommand.Encode.class, KeyCommand.Decode.class, KeyCommand.Vectors.class},
    footer = {
      "",
      "Example:",
      "  bin/rekey key encode --layout events-v2 userId=alice ts=1700000000000"
    })
public final class KeyCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(),
        "Missing subcommand: encode, decode or vectors (see `rekey key --help`).");
  }

  @Command(
      name = "encode",
      mixinStandardHelpOptions = true,
      description =
          "Print the row key (hex) of the given field values, e.g. `rekey key encode --layout "
              + "conf/layouts/events-v2.yaml userId=alice ts=1700000000000`.",
      footer = {
        "",
        "Example:",
        "  bin/rekey key encode --layout events-v2 userId=alice ts=1700000000000"
      })
  static final class Encode implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin LayoutArg layout;

    @Parameters(
        paramLabel = "NAME=VALUE",
        arity = "1..*",
        description = "One value per field of the layout.")
    Map<String, String> values = new LinkedHashMap<>();

    @Override
    public Integer call() {
      KeyLayout l = layout.layout();
      try {
        byte[] key = l.encode(FieldValues.parse(l, values));
        spec.commandLine().getOut().println(Hex.of(key));
        return ExitCodes.OK;
      } catch (IllegalArgumentException e) {
        throw RekeyException.usage("Cannot encode with layout %s: %s", l.name(), e.getMessage());
      }
    }
  }

  @Command(
      name = "decode",
      mixinStandardHelpOptions = true,
      description = "Print the fields (and salt/prefix) of a row key given as hex.",
      footer = {
        "",
        "Example:",
        "  bin/rekey key decode --layout events-v2 " + "6384616c696365007ffffe74301a97ff"
      })
  static final class Decode implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin LayoutArg layout;

    @Parameters(paramLabel = "HEX", description = "The row key as hex.")
    String hex;

    @Override
    public Integer call() {
      KeyLayout l = layout.layout();
      byte[] key;
      try {
        key = Hex.parse(hex);
      } catch (IllegalArgumentException e) {
        throw RekeyException.usage("Cannot decode '%s': not hex (%s)", hex, e.getMessage());
      }
      try {
        DecodedKey d = l.decode(key);
        PrintWriter out = spec.commandLine().getOut();
        out.println("layout: " + l.name());
        switch (l.prefix().kind()) {
          case SALT -> out.println("salt: " + d.salt());
          case HASH_PREFIX -> out.println("prefix: " + Hex.of(d.prefixBytes()));
          default -> {}
        }
        FieldValues.format(l, d.fields()).forEach((k, v) -> out.println(k + ": " + v));
        return ExitCodes.OK;
      } catch (IllegalArgumentException e) {
        throw RekeyException.usage(e.getMessage()); // names the key, the layout and the reason
      }
    }
  }

  @Command(
      name = "vectors",
      mixinStandardHelpOptions = true,
      description =
          "Check a layout against its pinned test vectors (value -> exact key bytes, and rejections).",
      footer = {"", "Example:", "  bin/rekey key vectors --layout events-v2"})
  static final class Vectors implements Callable<Integer> {
    /** Where the pinned vectors are on the classpath (rowkey/src/main/resources/vectors). */
    static final String SHIPPED = "/vectors";

    @Spec CommandSpec spec;

    @Mixin LayoutArg layout;

    @Option(
        names = "--vectors",
        paramLabel = "FILE",
        description =
            "Vectors file (JSON). Default: the pinned vectors shipped with rekey (rowkey/src/main/resources/vectors) that name this layout.")
    List<Path> vectors = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
      KeyLayout l = layout.layout();
      if (!vectors.isEmpty()) {
        return check(l, vectors);
      }
      // the pinned vectors ship in the rowkey jar: read them where they are, a jar or a directory
      URI shipped;
      try {
        // a file's URI, not the directory's: a jar need not hold an entry for the directory
        shipped = VectorChecker.class.getResource(SHIPPED + "/codecs.json").toURI();
      } catch (URISyntaxException | NullPointerException e) {
        throw new RekeyException("Cannot find the pinned vectors (" + SHIPPED + ") in rekey's jar");
      }
      if (!"jar".equals(shipped.getScheme())) {
        return check(l, vectorsNaming(Path.of(shipped).getParent()));
      }
      try (FileSystem jar = FileSystems.newFileSystem(shipped, Map.of())) {
        return check(l, vectorsNaming(jar.getPath(SHIPPED)));
      }
    }

    private int check(KeyLayout l, List<Path> files) {
      if (files.isEmpty()) {
        throw RekeyException.usage(
            "Cannot check layout %s: no pinned vectors name it (pass --vectors FILE, in the format"
                + " of docs/layouts.md)",
            layout.layout);
      }
      PrintWriter out = spec.commandLine().getOut();
      int passed = 0;
      List<String> failures = new ArrayList<>();
      for (Path f : files) {
        if (!Files.isRegularFile(f)) {
          throw RekeyException.usage("Cannot read vectors " + f + ": no such file");
        }
        VectorChecker.Report r = VectorChecker.run(l, f);
        passed += r.passed();
        failures.addAll(r.failures());
        out.println(f + ": " + r.passed() + " passed, " + r.failures().size() + " failed");
      }
      failures.forEach(m -> out.println("FAIL " + m));
      out.println(passed + " passed, " + failures.size() + " failed");
      return failures.isEmpty() ? ExitCodes.OK : ExitCodes.MISMATCH;
    }

    /** Vector files in {@code dir} whose "layout" names the same file as {@link #layout}. */
    private List<Path> vectorsNaming(Path dir) throws IOException {
      Path home = RekeyHome.dir();
      Path wanted = layout.file().toAbsolutePath().normalize();
      List<Path> out = new ArrayList<>();
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.sorted().toList()) {
          Object l = VectorChecker.readJson(f).get("layout");
          if (l instanceof String s
              && home.resolve(s).toAbsolutePath().normalize().equals(wanted)) {
            out.add(f);
          }
        }
      }
      return out;
    }
  }
}
