package dev.rekey.cli;

import dev.rekey.read.Source;
import picocli.CommandLine.Option;

/**
 * {@code --table T | --snapshot S} of the commands that read a whole source region-parallel (scan,
 * analyze): a picocli argument group, exactly one of the two.
 */
final class SourceArgs {
  @Option(
      names = "--table",
      paramLabel = "T",
      required = true,
      description = "Read the live table (through its RegionServers).")
  String table;

  @Option(
      names = "--snapshot",
      paramLabel = "S",
      required = true,
      description = "Read a snapshot's files (no RegionServer load).")
  String snapshot;

  /** The source named, read through a snapshot rekey takes when {@code viaSnapshot}. */
  Source source(boolean viaSnapshot) {
    return Source.of(table, snapshot, viaSnapshot);
  }
}
