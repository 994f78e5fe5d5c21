package dev.rekey.common;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;

/**
 * A job's output directory ({@code --out}) on any Hadoop filesystem: {@code hdfs://}, {@code
 * s3a://}, {@code file://}. A path without a scheme is read as Spark reads one: on a local master a
 * local path (relative to the working directory), on a cluster the cluster's default filesystem
 * ({@code fs.defaultFS}, relative to the user's home there), so that what the driver writes
 * (summary.json, the HTML pages) lands beside what the executors write, wherever they run.
 */
public final class OutputDir {
  private final String given;
  private final FileSystem fs;
  private final Path root;

  private OutputDir(String given, FileSystem fs, Path root) {
    this.given = given;
    this.fs = fs;
    this.root = root;
  }

  /**
   * {@code given} resolved for a job whose Spark master is local or not, on {@code conf}'s
   * filesystems.
   */
  public static OutputDir of(String given, boolean localMaster, Configuration conf) {
    try {
      Path p = new Path(qualify(given, localMaster));
      FileSystem fs = p.getFileSystem(conf);
      return new OutputDir(given, fs, fs.makeQualified(p));
    } catch (IOException | IllegalArgumentException e) {
      throw RekeyException.usage(
          "Cannot use output directory '%s': %s (give a path, or a Hadoop URI such as"
              + " hdfs:///user/me/out, s3a://bucket/out or file:///data/out)",
          given, e.getMessage());
    }
  }

  /**
   * {@code given} resolved for a job on {@code sc}: local or not by its master, on its Hadoop
   * configuration (the site files and {@code spark.hadoop.*}, where {@code fs.s3a.*} come from).
   */
  public static OutputDir of(String given, SparkContext sc) {
    return of(given, sc.master().startsWith("local"), sc.hadoopConfiguration());
  }

  /**
   * The URI {@code given} names: as given when it has a scheme; without one, a local file on a
   * local master, else left for the default filesystem to qualify. Pure.
   */
  static String qualify(String given, boolean localMaster) {
    if (given == null || given.isBlank()) {
      throw new IllegalArgumentException("the path is empty");
    }
    URI u = new Path(given).toUri();
    if (u.getScheme() != null || !localMaster) {
      return given;
    }
    return Paths.get(given).toAbsolutePath().normalize().toUri().toString();
  }

  /** As the user gave it. */
  public String given() {
    return given;
  }

  /** The qualified directory: scheme, authority and absolute path. */
  public Path root() {
    return root;
  }

  /** A file or directory in it, by name (or relative path). */
  public Path resolve(String name) {
    return new Path(root, name);
  }

  /** Creates the directory (and parents); a clear error if it cannot. */
  public OutputDir create() {
    try {
      if (!fs.mkdirs(root)) {
        throw new IOException("mkdirs returned false");
      }
      return this;
    } catch (IOException e) {
      throw RekeyException.cannot(
          e,
          "Cannot create output directory %s: %s (check it is writable, or choose another --out)",
          root,
          e.getMessage());
    }
  }

  /** Writes {@code text} (UTF-8) to {@code name}, atomically ({@link AtomicFile}). */
  public void write(String name, String text) {
    Path file = resolve(name);
    try {
      AtomicFile.write(fs, file, text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw RekeyException.cannot(
          e, "Cannot write %s: %s (check the directory is writable)", file, e.getMessage());
    }
  }

  /**
   * How {@code p} is shown to the user: a local file as a plain path (what a shell or a browser
   * takes), anything else as its URI.
   */
  public String display(Path p) {
    return "file".equals(p.toUri().getScheme()) ? p.toUri().getPath() : p.toString();
  }

  @Override
  public String toString() {
    return root.toString();
  }
}
