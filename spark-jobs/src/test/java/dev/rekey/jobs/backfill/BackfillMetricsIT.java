package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rekey.common.JobStatus;
import dev.rekey.common.Json;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A running backfill's counters, read from Spark's metrics system (the JMX sink, as a cluster's
 * exporter reads them) and from its status file while it loads, match its final accounting.
 */
@Tag("e2e")
class BackfillMetricsIT {
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  /** The gauge {@code rekey.backfill.<name>} of the driver, through JMX (null: none). */
  private static Long gauge(String name) throws Exception {
    Set<ObjectName> found =
        JMX.queryNames(new ObjectName("metrics:name=*.driver.rekey.backfill." + name + ",*"), null);
    if (found.isEmpty()) {
      return null;
    }
    return ((Number) JMX.getAttribute(found.iterator().next(), "Value")).longValue();
  }

  @Test
  void countersSeenWhileItLoadsMatchTheFinalAccounting() throws Exception {
    BackfillFixture f = new BackfillFixture("metrics", 3_000, 30);
    f.snapshot();
    Map<String, Long> seen = new HashMap<>();
    JsonNode[] status = new JsonNode[1];
    Path statusFile = f.staging.resolve(JobStatus.FILE);
    BackfillResult r =
        new Backfill(SharedSpark.session(), SharedHBase.conf(), f.options().build())
            .execute(
                line -> {
                  // the first region loaded: the write is over, the job still runs
                  if (line.startsWith("  loaded region ") && seen.isEmpty()) {
                    try {
                      for (String g :
                          new String[] {
                            "rows.read",
                            "rows.quarantined",
                            "rows.filtered",
                            "written.rows",
                            "written.cells",
                            "written.bytes",
                            "phase"
                          }) {
                        seen.put(g, gauge(g));
                      }
                      status[0] = Json.MAPPER.readTree(Files.readString(statusFile));
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                  }
                });
    assertTrue(r.verified());
    assertEquals(3_000, r.accounting().read());
    assertEquals(r.accounting().read(), seen.get("rows.read"), seen.toString());
    assertEquals(r.accounting().written(), seen.get("written.rows"), seen.toString());
    assertEquals(r.accounting().quarantined(), seen.get("rows.quarantined"), seen.toString());
    assertEquals(r.accounting().filtered(), seen.get("rows.filtered"), seen.toString());
    long cells = r.regions().stream().mapToLong(x -> x.cells()).sum();
    long bytes = r.regions().stream().mapToLong(x -> x.bytes()).sum();
    assertEquals(cells, seen.get("written.cells"), seen.toString());
    assertEquals(bytes, seen.get("written.bytes"), seen.toString());
    assertTrue(seen.get("phase") >= 1, seen.toString());

    JsonNode s = status[0];
    assertEquals(JobStatus.SCHEMA, s.get("schema").asText());
    assertEquals(JobStatus.VERSION, s.get("version").asInt());
    assertEquals("running", s.get("state").asText(), s.toString());
    assertTrue(s.get("phase").asText().startsWith("backfill: "), s.toString());
    assertTrue(s.get("phases").size() >= 1, s.toString());

    // the end: the status says so, with the final counters; the source is gone from the sinks
    JsonNode end = Json.MAPPER.readTree(Files.readString(statusFile));
    assertEquals("succeeded", end.get("state").asText(), end.toString());
    assertEquals(r.accounting().read(), end.get("counters").get("rows.read").asLong());
    assertEquals(r.accounting().written(), end.get("counters").get("written.rows").asLong());
    assertEquals(null, gauge("rows.read"), "the finished job's source is removed");
  }
}
