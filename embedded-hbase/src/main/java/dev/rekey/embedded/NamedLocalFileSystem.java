package dev.rekey.embedded;

import org.apache.hadoop.fs.LocalFileSystem;

/**
 * The local filesystem under a canonical service name, for the embedded server only.
 *
 * <p>HBase decides whether a bulk-loaded file can be renamed into the store or must be copied by
 * comparing the canonical service names of the two filesystems ({@code FSUtils.isSameHdfs}). The
 * local filesystem has none, so a standalone server copies every bulk-loaded file twice (into its
 * bulk-load staging dir, then into the store) where a cluster on HDFS renames it. Naming the one
 * local filesystem makes the embedded server load files the way a real cluster does.
 */
public final class NamedLocalFileSystem extends LocalFileSystem {
  @Override
  public String getCanonicalServiceName() {
    return "file:///";
  }
}
