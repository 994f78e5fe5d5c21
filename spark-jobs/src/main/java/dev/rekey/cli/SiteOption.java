package dev.rekey.cli;

import dev.rekey.common.ClusterSite;
import dev.rekey.common.RekeyException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The site file of one side's cluster when it is not {@code --hbase-site}'s (the picocli mixins
 * {@link Old} and {@link New}): each is one option under its name and a hidden one under its older
 * alias, both setting the same site. A mixin knows only its own options: the command decides what
 * an absent one means (its --hbase-site).
 */
abstract class SiteOption implements OtherClusterKerberos.OtherSites {
  /** This mixin's own options (picocli injects the mixin's spec, not its host's). */
  @Spec CommandSpec spec;

  private ClusterSite site;

  /**
   * The other cluster's site, read now (a missing or malformed file fails before Spark starts);
   * null when neither name is given.
   */
  ClusterSite site() {
    List<Path> given = otherHBaseSites();
    if (given.size() > 1) {
      throw RekeyException.usage(
          "Give %s or its alias %s, not both (they name the same cluster)",
          name(false), name(true));
    }
    if (!given.isEmpty() && site == null) {
      site = ClusterSite.other(given.get(0));
      site.conf();
    }
    return site;
  }

  @Override
  public List<Path> otherHBaseSites() {
    return spec.options().stream()
        .map(o -> (Path) o.getValue())
        .filter(java.util.Objects::nonNull)
        .toList();
  }

  /** The option's name, or its alias (the hidden one). */
  private String name(boolean alias) {
    return spec.options().stream()
        .filter(o -> o.hidden() == alias)
        .findFirst()
        .orElseThrow()
        .longestName();
  }

  /** --old-hbase-site (alias --source-hbase-site): the old table's cluster. */
  static final class Old extends SiteOption {
    @Option(
        names = "--old-hbase-site",
        paramLabel = "FILE",
        description =
            "HBase client config of the old table's cluster, when it is not --hbase-site's (a"
                + " migration to a new cluster): its tables are read there, its snapshots' files in"
                + " place from its filesystem (no ExportSnapshot copy). Default: --hbase-site."
                + " (alias: --source-hbase-site)")
    Path file;

    @Option(names = "--source-hbase-site", paramLabel = "FILE", hidden = true)
    Path alias;
  }

  /** --new-hbase-site (alias --target-hbase-site): the new tables' cluster. */
  static final class New extends SiteOption {
    @Option(
        names = "--new-hbase-site",
        paramLabel = "FILE",
        description =
            "HBase client config of the new tables' cluster, when it is not --hbase-site's: rekey"
                + " reads and writes them there (replicate start: the endpoint writes there, its"
                + " address and security settings carried in the peer's configuration). Default:"
                + " --hbase-site. (alias: --target-hbase-site)")
    Path file;

    @Option(names = "--target-hbase-site", paramLabel = "FILE", hidden = true)
    Path alias;
  }
}
