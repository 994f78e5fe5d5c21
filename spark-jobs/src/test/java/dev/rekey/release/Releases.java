package dev.rekey.release;

import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** A release built by bin/rekey-release from the jars the package phase made, as tests use it. */
public final class Releases {
  public static final String VERSION = "0.4.0";
  public static final String NAME = "rekey-" + VERSION;

  private Releases() {}

  /**
   * {@code bin/rekey-release 0.4.0 --no-build [--no-demo] --out DIR}: the tarballs in {@code out}
   * (no Maven run: the jars of this build).
   */
  public static Path build(Path out, boolean demo) throws Exception {
    Files.createDirectories(out);
    ProcessBuilder pb =
        new ProcessBuilder(
                Stream.concat(
                        Stream.of(
                            SharedHBase.rekeyHome().resolve("bin/rekey-release").toString(),
                            VERSION,
                            "--no-build",
                            "--out",
                            out.toString()),
                        demo ? Stream.of() : Stream.of("--no-demo"))
                    .toList())
            .directory(SharedHBase.rekeyHome().toFile());
    RekeyProcess.Result r = RekeyProcess.run(pb, 600);
    if (r.exitCode() != 0) {
      throw new AssertionError("bin/rekey-release failed:\n" + r.all());
    }
    return out.resolve(NAME + "-bin.tar.gz");
  }

  /** Unpacks {@code tarball} into {@code dir} (which then holds rekey-0.4.0/). */
  public static Path unpack(Path tarball, Path dir) throws Exception {
    Files.createDirectories(dir);
    RekeyProcess.Result r =
        RekeyProcess.run(
            new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", dir.toString()), 300);
    if (r.exitCode() != 0) {
      throw new AssertionError("tar failed:\n" + r.all());
    }
    return dir.resolve(NAME);
  }

  /**
   * A PATH without Maven: a directory of links to every program of /usr/bin but mvn (on this
   * machine /bin is /usr/bin), for a user's shell on a gateway that has none.
   */
  public static Path pathWithoutMaven(Path dir) throws IOException {
    Files.createDirectories(dir);
    try (Stream<Path> s = Files.list(Path.of("/usr/bin"))) {
      for (Path p : s.toList()) {
        String name = p.getFileName().toString();
        Path link = dir.resolve(name);
        if (!name.startsWith("mvn")
            && !Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(link, p);
        }
      }
    }
    return dir;
  }

  /**
   * A process in an unpacked release, as a gateway user runs it: no Maven on the PATH, an empty
   * HOME (so no ~/.m2), no checkout's settings, {@code env} added.
   */
  public static ProcessBuilder inRelease(
      Path release, Path noMavenBin, Path home, Map<String, String> env, List<String> command) {
    ProcessBuilder pb = new ProcessBuilder(command).directory(release.toFile());
    Map<String, String> e = pb.environment();
    e.keySet()
        .removeIf(
            k ->
                k.startsWith("REKEY_")
                    || k.startsWith("SPARK_")
                    || k.startsWith("HADOOP_")
                    || k.startsWith("HBASE_")
                    || k.startsWith("MAVEN")
                    || k.equals("YARN_CONF_DIR"));
    e.put("PATH", noMavenBin.toString());
    e.put("HOME", home.toString());
    e.put("JAVA_HOME", System.getProperty("java.home"));
    e.putAll(env);
    return pb;
  }
}
