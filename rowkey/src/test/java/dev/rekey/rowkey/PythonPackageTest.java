package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python reference as Python users get it: {@code pip install --no-index --no-build-isolation
 * rowkey/python} into a fresh virtual environment (offline: the build uses the setuptools and wheel
 * of the interpreter the environment comes from), then the installed {@code rekey-rowkey-vectors}
 * over the pinned vectors, run outside the checkout so that only the installed modules can be
 * imported. Skipped only when no python3 here can create a virtual environment at all.
 */
@Tag("unit")
class PythonPackageTest {
  static final Duration STEP = Duration.ofSeconds(120);

  /**
   * Exit 0 when this interpreter can build the package without an index: pip, setuptools, and the
   * wheel builder (in setuptools from 70.1, else the wheel package); else names what it lacks.
   */
  static final String BUILD_TOOLS =
      String.join(
          "\n",
          "import importlib.util as u, sys, warnings",
          "warnings.simplefilter('ignore')",
          "missing = []",
          "try:",
          // setuptools first: looking for pip turns setuptools' own distutils off, and then
          // importing setuptools fails
          "    import setuptools.command",
          "    if u.find_spec('setuptools.command.bdist_wheel') is None"
              + " and u.find_spec('wheel') is None:",
          "        missing.append('wheel')",
          "except ImportError:",
          "    missing.append('setuptools')",
          "if u.find_spec('pip') is None:",
          "    missing.append('pip')",
          "print('missing: ' + ', '.join(missing) if missing else 'ok')",
          "sys.exit(1 if missing else 0)");

  @Test
  void installsIntoAFreshVenvAndChecksEveryVectorFromThere(@TempDir Path tmp) throws Exception {
    Path root = TestPaths.repoRoot();
    // the project copied out: pip builds in the source tree (build/, *.egg-info), and the checkout
    // stays as it was, whatever else runs in it
    Path project = Files.createDirectories(tmp.resolve("rowkey-python"));
    try (Stream<Path> files = Files.list(root.resolve("rowkey/python"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, project.resolve(f.getFileName()));
      }
    }
    Path venv = buildingVenv(tmp);
    String python = venv.resolve("bin/python").toString();

    PythonRun install =
        PythonRun.of(
            tmp,
            STEP,
            python,
            "-m",
            "pip",
            "install",
            "--no-index",
            "--no-build-isolation",
            "--no-cache-dir",
            project.toString());
    assertEquals(0, install.exitCode(), install.describe());

    PythonRun where =
        PythonRun.of(
            tmp,
            STEP,
            python,
            "-c",
            "import rekey_rowkey, rekey_rowkey_vectors; print(rekey_rowkey.__file__)");
    assertEquals(0, where.exitCode(), where.describe());
    assertTrue(
        Path.of(where.output().strip()).startsWith(venv),
        "imported from the venv: " + where.describe());

    String vectors = root.resolve("rowkey/src/main/resources/vectors").toString();
    PythonRun check =
        PythonRun.of(tmp, STEP, venv.resolve("bin/rekey-rowkey-vectors").toString(), vectors);
    assertEquals(0, check.exitCode(), check.describe());
    Matcher m = Pattern.compile("(?m)^(\\d+) passed, 0 failed$").matcher(check.output());
    assertTrue(m.find(), check.describe());
    try (Stream<Path> files = Files.list(Path.of(vectors))) {
      long vectorFiles = files.filter(f -> f.toString().endsWith(".json")).count();
      assertTrue(
          Long.parseLong(m.group(1)) >= vectorFiles,
          "at least one check per vector file: " + check.describe());
    }

    // installed, there is no checkout to take the vectors from: a usage error that says what to
    // give
    PythonRun none = PythonRun.of(tmp, STEP, venv.resolve("bin/rekey-rowkey-vectors").toString());
    assertEquals(2, none.exitCode(), none.describe());
    assertTrue(none.output().contains("give the vectors directory"), none.describe());
  }

  /**
   * A fresh virtual environment (system site packages, no pip of its own) from the first python3
   * here that can build the package offline.
   */
  static Path buildingVenv(Path tmp) throws Exception {
    Set<String> pythons = new LinkedHashSet<>(List.of("python3"));
    if (Files.isExecutable(Path.of("/usr/bin/python3"))) {
      pythons.add("/usr/bin/python3");
    }
    List<String> why = new ArrayList<>();
    boolean anyVenv = false;
    int i = 0;
    for (String py : pythons) {
      Path dir = tmp.resolve("venv-" + i++);
      PythonRun made;
      try {
        made =
            PythonRun.of(
                tmp,
                STEP,
                py,
                "-m",
                "venv",
                "--system-site-packages",
                "--without-pip",
                dir.toString());
      } catch (IOException notThere) {
        why.add(py + ": " + notThere.getMessage());
        continue;
      }
      if (made.exitCode() != 0) {
        why.add(made.describe().strip());
        continue;
      }
      anyVenv = true;
      PythonRun tools =
          PythonRun.of(tmp, STEP, dir.resolve("bin/python").toString(), "-c", BUILD_TOOLS);
      if (tools.exitCode() == 0) {
        return dir;
      }
      why.add(py + ": " + tools.output().strip());
    }
    assumeTrue(
        anyVenv,
        "Skipped: no python3 here can create a virtual environment ("
            + String.join("; ", why)
            + "); on Debian: apt-get install python3-venv");
    return fail(
        "Cannot build rowkey/python offline: no python3 here has pip, setuptools and wheel ("
            + String.join("; ", why)
            + "); on Debian: apt-get install python3-pip python3-setuptools python3-wheel");
  }
}
