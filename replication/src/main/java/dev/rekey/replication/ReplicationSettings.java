package dev.rekey.replication;

import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRekeyer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a rekeying replication peer does, as the peer's configuration map carries it to every
 * RegionServer ({@code ReplicationPeerConfig.getConfiguration()}): the source table and the text of
 * its layout file, each target table with its layout's text, and the quarantine table. The layouts
 * travel as text so that RegionServers need no layout file.
 *
 * @param sourceTable the replicated table, {@code namespace:name} or {@code name}
 * @param sourceLayout the source layout file's text
 * @param targets the tables the rekeyed edits go to, in the order given
 * @param quarantineTable where edits that cannot be rekeyed go
 */
public record ReplicationSettings(
    String sourceTable, String sourceLayout, List<Target> targets, String quarantineTable) {

  /** The endpoint class the peer names ({@code setReplicationEndpointImpl}). */
  public static final String ENDPOINT_CLASS = RekeyingEndpoint.class.getName();

  /** Peer ids are {@code rekey_} + the source table, with characters HBase refuses replaced. */
  public static final String PEER_PREFIX = "rekey_";

  /** The quarantine table used when none is given. */
  public static final String DEFAULT_QUARANTINE_TABLE = "rekey_quarantine";

  static final String KEY = "rekey.replicate.";
  static final String SOURCE_TABLE = KEY + "source.table";
  static final String SOURCE_LAYOUT = KEY + "source.layout";
  static final String TARGETS = KEY + "targets";
  static final String QUARANTINE_TABLE = KEY + "quarantine.table";

  /** One target: a table and its layout file's text. */
  public record Target(String table, String layout) {}

  public ReplicationSettings {
    targets = List.copyOf(targets);
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("a rekeying replication peer needs at least one target");
    }
  }

  /** The peer id for a source table: {@code rekey_} + the table name, {@code :} as {@code _}. */
  public static String peerId(String sourceTable) {
    return PEER_PREFIX + sourceTable.replaceAll("[^A-Za-z0-9_.]", "_");
  }

  public String peerId() {
    return peerId(sourceTable);
  }

  /** The peer configuration map: what {@link #fromPeerConfiguration} reads back. */
  public Map<String, String> toPeerConfiguration() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(SOURCE_TABLE, sourceTable);
    m.put(SOURCE_LAYOUT, sourceLayout);
    m.put(TARGETS, Integer.toString(targets.size()));
    for (int i = 0; i < targets.size(); i++) {
      m.put(KEY + "target." + i + ".table", targets.get(i).table());
      m.put(KEY + "target." + i + ".layout", targets.get(i).layout());
    }
    m.put(QUARANTINE_TABLE, quarantineTable);
    return m;
  }

  /**
   * Reads a peer's configuration; IllegalArgumentException naming the missing key when it is not a
   * rekeying peer's.
   */
  public static ReplicationSettings fromPeerConfiguration(Map<String, String> conf) {
    int n;
    try {
      n = Integer.parseInt(required(conf, TARGETS));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "peer configuration " + TARGETS + " is not a number: " + conf.get(TARGETS));
    }
    List<Target> targets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      targets.add(
          new Target(
              required(conf, KEY + "target." + i + ".table"),
              required(conf, KEY + "target." + i + ".layout")));
    }
    return new ReplicationSettings(
        required(conf, SOURCE_TABLE),
        required(conf, SOURCE_LAYOUT),
        targets,
        conf.getOrDefault(QUARANTINE_TABLE, DEFAULT_QUARANTINE_TABLE));
  }

  /**
   * One key rekeyer per target, in target order; IllegalArgumentException when a layout does not
   * parse or a target cannot be built from the source's fields.
   */
  public List<KeyRekeyer> rekeyers() {
    KeyLayout source = KeyLayout.parse(sourceLayout, "peer " + peerId() + " source layout");
    List<KeyRekeyer> out = new ArrayList<>();
    for (Target t : targets) {
      KeyRekeyer r =
          new KeyRekeyer(
              source, KeyLayout.parse(t.layout(), "peer " + peerId() + " layout of " + t.table()));
      r.check()
          .ifPresent(
              why -> {
                throw new IllegalArgumentException(
                    "Cannot rekey " + sourceTable + " into " + t.table() + ": " + why);
              });
      out.add(r);
    }
    return out;
  }

  private static String required(Map<String, String> conf, String key) {
    String v = conf.get(key);
    if (v == null || v.isEmpty()) {
      throw new IllegalArgumentException(
          "peer configuration has no " + key + " (not a rekey replication peer?)");
    }
    return v;
  }
}
