package dev.rekey.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small hbase-site.xml files for the tests of how a cluster's site is read. */
public final class SiteFiles {
  private SiteFiles() {}

  /** {@code dir/name}: a site that sets only the ZooKeeper quorum (which cluster it names). */
  public static Path withQuorum(Path dir, String name, String quorum) throws IOException {
    return Files.writeString(
        dir.resolve(name),
        "<configuration><property><name>hbase.zookeeper.quorum</name><value>"
            + quorum
            + "</value></property></configuration>");
  }
}
