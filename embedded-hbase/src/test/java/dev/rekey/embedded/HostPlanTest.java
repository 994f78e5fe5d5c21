package dev.rekey.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.embedded.HostPlan.Host;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The several-host stack's names, addresses and per-host configs, as pure functions. */
@Tag("unit")
class HostPlanTest {
  private static final HostPlan PLAN = HostPlan.of(Path.of("/work/x/.rekey/cluster"), 2);

  @Test
  void hostsNamedAddressedAndNamespacedPerStack() {
    assertEquals(
        List.of("gateway", "master", "worker1", "worker2"),
        PLAN.hosts().stream().map(Host::name).toList());
    for (Host h : PLAN.hosts()) {
      // 198.18.0.0/15: the test range, never routed
      assertTrue(h.address().matches("198\\.1[89]\\.\\d{1,3}\\.\\d{1,3}"), h.address());
      assertTrue(h.netns().startsWith("rekey-" + PLAN.tag() + "-"), h.netns());
      // Linux interface names: 15 characters at most, the peer (veth + "p") included
      assertTrue(h.veth().length() + 1 <= 15, h.veth());
      assertTrue(PLAN.hostsFile().contains(h.address() + " " + h.name() + "\n"));
    }
    assertTrue(PLAN.bridge().length() <= 15);
    HostPlan other = HostPlan.of(Path.of("/work/y/.rekey/cluster"), 2);
    assertNotEquals(PLAN.tag(), other.tag(), "two stack dirs share no namespace or link name");
  }

  @Test
  void eachHostsConfigsNameItsOwnAddressAndTheMaster() {
    Host w1 = PLAN.get("worker1").orElseThrow();
    HostSites s = new HostSites(PLAN, w1);
    String all = s.coreSite() + s.hdfsSite(2) + s.hbaseServerSite(2) + s.yarnSite(3072, 2);
    assertFalse(all.contains("127.0.0.1"), all);
    assertFalse(all.contains("0.0.0.0"), all);
    assertTrue(all.contains("<value>hdfs://master:8020</value>"));
    assertTrue(all.contains("<value>" + w1.address() + ":9866</value>"));
    assertTrue(
        s.hbaseServerSite(2)
            .matches("(?s).*hbase.regionserver.hostname</name>\\s*<value>worker1</value>.*"));
    String client = new HostSites(PLAN, PLAN.get("gateway").orElseThrow()).hbaseClientSite();
    assertTrue(client.matches("(?s).*hbase.zookeeper.quorum</name>\\s*<value>master</value>.*"));
  }
}
