package dev.rekey.cli;

import dev.rekey.jobs.common.ClusterSite;
import dev.rekey.jobs.common.RekeyException;
import java.nio.file.Path;
import java.util.List;

/**
 * The site file of one side's cluster when it is not {@code --hbase-site}'s, under its name and its
 * older alias (the picocli mixins {@link Old} and {@link New}). A mixin knows only its own option:
 * the command decides what an absent one means (its --hbase-site).
 */
abstract class SiteOption implements OtherClusterKerberos.OtherSites {
  private final String name;
  private final String alias;
  private ClusterSite site;

  private SiteOption(String name, String alias) {
    this.name = name;
    this.alias = alias;
  }

  /** The file under the option's name, and under its alias. */
  abstract Path named();

  abstract Path aliased();

  /**
   * The other cluster's site, read now (a missing or malformed file fails before Spark starts);
   * null when the option is not given.
   */
  ClusterSite site() {
    if (named() != null && aliased() != null) {
      throw RekeyException.usage(
          "Give %s or its alias %s, not both (they name the same cluster)", name, alias);
    }
    Path file = named() != null ? named() : aliased();
    if (file != null && site == null) {
      site = ClusterSite.other(file);
      site.conf();
    }
    return site;
  }

  @Override
  public List<Path> otherHBaseSites() {
    return OtherClusterKerberos.nonNull(named(), aliased());
  }

  /** --old-hbase-site (alias --source-hbase-site): the old table's cluster. */
  static final class Old extends SiteOption {
    Old() {
      super("--old-hbase-site", "--source-hbase-site");
    }

    @picocli.CommandLine.Option(
        names = "--old-hbase-site",
        paramLabel = "FILE",
        description =
            "HBase client config of the old table's cluster, when it is not --hbase-site's (a"
                + " migration to a new cluster): its tables are read there, its snapshots' files in"
                + " place from its filesystem (no ExportSnapshot copy). Default: --hbase-site."
                + " (alias: --source-hbase-site)")
    Path file;

    @picocli.CommandLine.Option(names = "--source-hbase-site", paramLabel = "FILE", hidden = true)
    Path alias;

    @Override
    Path named() {
      return file;
    }

    @Override
    Path aliased() {
      return alias;
    }
  }

  /** --new-hbase-site (alias --target-hbase-site): the new tables' cluster. */
  static final class New extends SiteOption {
    New() {
      super("--new-hbase-site", "--target-hbase-site");
    }

    @picocli.CommandLine.Option(
        names = "--new-hbase-site",
        paramLabel = "FILE",
        description =
            "HBase client config of the new tables' cluster, when it is not --hbase-site's: rekey"
                + " reads and writes them there (replicate start: the endpoint writes there, its"
                + " address and security settings carried in the peer's configuration). Default:"
                + " --hbase-site. (alias: --target-hbase-site)")
    Path file;

    @picocli.CommandLine.Option(names = "--target-hbase-site", paramLabel = "FILE", hidden = true)
    Path alias;

    @Override
    Path named() {
      return file;
    }

    @Override
    Path aliased() {
      return alias;
    }
  }
}
