package dev.rekey.jobs.backfill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;

/**
 * Test-only fault on a real RegionServer: refuses bulk-load requests into one region of the table
 * it is registered on, before the region takes the files. It runs inside the HBase server process,
 * loaded from a jar named on the table descriptor ({@link LoadFaults}); the test steers it through
 * a file both processes see: {@code <failures left> <io|dnr>}. Each refused request takes one from
 * the count, so the fault lasts exactly as many requests as the test asks. {@code io} throws a
 * plain IOException (the client's RPC layer retries it, then the loader does if
 * hbase.bulkload.retries.retryOnIOException is on); {@code dnr} a DoNotRetryIOException (no retry
 * at any level: the load fails at once).
 */
public class LoadFaultObserver implements RegionCoprocessor, RegionObserver {
  /** Coprocessor property: the control file. */
  static final String CONTROL = "rekey.test.load.fault.file";

  /** Coprocessor property: the start key (Bytes.toStringBinary) of the region that fails. */
  static final String REGION_START = "rekey.test.load.fault.regionStart";

  private Path control;
  private String regionStart;

  @Override
  public void start(CoprocessorEnvironment env) {
    control = Path.of(env.getConfiguration().get(CONTROL));
    regionStart = env.getConfiguration().get(REGION_START, "");
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preBulkLoadHFile(
      ObserverContext<RegionCoprocessorEnvironment> ctx, List<Pair<byte[], String>> familyPaths)
      throws IOException {
    String start = Bytes.toStringBinary(ctx.getEnvironment().getRegionInfo().getStartKey());
    if (!start.equals(regionStart)) {
      return;
    }
    synchronized (LoadFaultObserver.class) {
      String[] state = Files.readString(control, StandardCharsets.UTF_8).trim().split(" ");
      int left = Integer.parseInt(state[0]);
      if (left <= 0) {
        return;
      }
      Files.writeString(control, (left - 1) + " " + state[1], StandardCharsets.UTF_8);
      String message =
          "injected bulk-load fault in region "
              + ctx.getEnvironment().getRegionInfo().getEncodedName()
              + " ("
              + (left - 1)
              + " left)";
      if (state[1].equals("dnr")) {
        throw new DoNotRetryIOException(message);
      }
      throw new IOException(message);
    }
  }
}
