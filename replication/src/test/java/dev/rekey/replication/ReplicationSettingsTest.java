package dev.rekey.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ReplicationSettingsTest {
  @Test
  void thePeerConfigurationCarriesLayoutsAsTextAndReadsBack() throws IOException {
    ReplicationSettings s =
        new ReplicationSettings(
            "ns:telemetry_v1",
            EditRekeyerTest.layoutText("telemetry-v1"),
            List.of(
                new ReplicationSettings.Target(
                    "telemetry_v2", EditRekeyerTest.layoutText("telemetry-v2"))),
            "rekey_quarantine");
    Map<String, String> conf = s.toPeerConfiguration();
    assertEquals(s, ReplicationSettings.fromPeerConfiguration(conf));
    assertEquals("rekey_ns_telemetry_v1", s.peerId());
    assertEquals(1, s.rekeyers().size());
  }

  @Test
  void aPeerOfAnotherKindIsNamedByTheMissingKey() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ReplicationSettings.fromPeerConfiguration(Map.of()));
    assertEquals(
        "peer configuration has no rekey.replicate.targets (not a rekey replication peer?)",
        e.getMessage());
  }

  @Test
  void layoutsThatDoNotFitAreRefusedWithTheReason() throws IOException {
    ReplicationSettings s =
        new ReplicationSettings(
            "t1",
            EditRekeyerTest.layoutText("telemetry-v1"),
            List.of(new ReplicationSettings.Target("e2", EditRekeyerTest.layoutText("events-v2"))),
            "q");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::rekeyers);
    assertEquals(
        true, e.getMessage().startsWith("Cannot rekey t1 into e2: target layout"), e.getMessage());
  }
}
