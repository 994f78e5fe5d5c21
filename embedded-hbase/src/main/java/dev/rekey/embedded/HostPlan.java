package dev.rekey.embedded;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * The hosts of a several-host stack, as pure functions of its directory and worker count: each
 * host's name, address and network namespace, and the bridge and veth names that join them. Names
 * carry a tag from the directory's path, so two stacks (two engineers, two test runs) never share a
 * namespace, bridge or interface name; addresses come from the 198.18.0.0/15 test range, one /24
 * per stack (a clash would not matter: each stack is its own bridge, with no address in the root
 * namespace).
 */
record HostPlan(Path dir, String tag, String subnet, List<Host> hosts) {
  static final String GATEWAY = "gateway";
  static final String MASTER = "master";

  /** One host: its name (also its hostname), address, namespace and root-side veth name. */
  record Host(String name, String address, String netns, String veth) {
    boolean isWorker() {
      return name.startsWith("worker");
    }
  }

  static HostPlan of(Path dir, int workers) {
    Path abs = dir.toAbsolutePath().normalize();
    CRC32 crc = new CRC32();
    crc.update(abs.toString().getBytes(StandardCharsets.UTF_8));
    long h = crc.getValue();
    String tag = String.format("%06x", h & 0xffffff);
    // 198.18.0.0/15: the second octet 18 or 19, the third from the tag
    String subnet = "198." + (18 + (h >> 24 & 1)) + "." + (h >> 8 & 0xff);
    List<Host> hosts = new ArrayList<>();
    hosts.add(host(tag, subnet, GATEWAY, "g", 2));
    hosts.add(host(tag, subnet, MASTER, "m", 10));
    for (int i = 1; i <= workers; i++) {
      hosts.add(host(tag, subnet, "worker" + i, "w" + i, 10 + i));
    }
    return new HostPlan(abs, tag, subnet, List.copyOf(hosts));
  }

  private static Host host(String tag, String subnet, String name, String shortName, int octet) {
    // interface names are at most 15 characters: rk + 6 + up to 4
    return new Host(
        name, subnet + "." + octet, "rekey-" + tag + "-" + name, "rk" + tag + shortName);
  }

  String bridge() {
    return "rkbr" + tag;
  }

  String cidr() {
    return subnet + ".0/24";
  }

  Host master() {
    return get(MASTER).orElseThrow();
  }

  List<Host> workers() {
    return hosts.stream().filter(Host::isWorker).toList();
  }

  Optional<Host> get(String name) {
    return hosts.stream().filter(x -> x.name().equals(name)).findFirst();
  }

  /** The hosts file every host binds over /etc/hosts: each host resolves every other's name. */
  String hostsFile() {
    StringBuilder sb =
        new StringBuilder("# the hosts of the rekey stack in " + dir + " (written at start)\n");
    sb.append("127.0.0.1 localhost\n");
    hosts.forEach(x -> sb.append(x.address()).append(' ').append(x.name()).append('\n'));
    return sb.toString();
  }

  /** Where a host keeps what only it sees: its /tmp and its local dirs (see {@link HostShell}). */
  Path privateDir(Host x) {
    return dir.resolve("private").resolve(x.name());
  }

  /** The path at which every host sees its own local dirs (a bind mount in its namespace). */
  Path local() {
    return dir.resolve("local");
  }

  Path hostDir(Host x) {
    return dir.resolve("hosts").resolve(x.name());
  }

  Path hadoopConf(Host x) {
    return hostDir(x).resolve("conf/hadoop");
  }

  Path hbaseConf(Host x) {
    return hostDir(x).resolve("conf/hbase");
  }

  Path logs(Host x) {
    return hostDir(x).resolve("logs");
  }

  Path sparkHome() {
    return dir.resolve("spark-home");
  }
}
