// Benchmark: ns per key of KeyLayout.check (what scan, reconcile and analyze pay per row to count undecodable keys)
// over 2,000,000 keys in key order: events-v2 (10,000 users x 200 events; hash prefix over the user id) and
// telemetry-v2 (salt over the whole natural key). Run by bench/rowkey/check.sh.
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;
import java.util.*;

public class CheckBench {
  public static void main(String[] a) throws Exception {
    KeyLayout ev = KeyLayout.load(Path.of("conf/layouts/events-v2.yaml"));
    KeyLayout v2 = KeyLayout.load(Path.of("conf/layouts/telemetry-v2.yaml"));
    List<byte[]> evKeys = new ArrayList<>(); List<byte[]> v2Keys = new ArrayList<>();
    for (int u = 0; u < 10_000; u++) for (int e = 0; e < 200; e++)
      evKeys.add(ev.encode(Map.of("userId", "user-" + u, "ts", 1_700_000_000_000L + e * 1000L + u)));
    for (int i = 0; i < 2_000_000; i++) {
      byte[] dev = Arrays.copyOf(("d" + (i % 1000)).getBytes(), 16);
      v2Keys.add(v2.encode(Map.of("ts", 1_700_000_000_000L + i, "deviceId", dev)));
    }
    evKeys.sort(Arrays::compareUnsigned); v2Keys.sort(Arrays::compareUnsigned);
    for (Object[] c : new Object[][] {{"events-v2", ev, evKeys}, {"telemetry-v2", v2, v2Keys}}) {
      KeyLayout l = (KeyLayout) c[1]; @SuppressWarnings("unchecked") List<byte[]> keys = (List<byte[]>) c[2];
      double best = Double.MAX_VALUE;
      for (int r = 0; r < 8; r++) {
        long t0 = System.nanoTime();
        for (byte[] k : keys) l.check(k);
        best = Math.min(best, (System.nanoTime() - t0) / (double) keys.size());
      }
      System.out.printf("%s check: %.1f ns/key (best of 8 passes over %,d keys in key order)%n", c[0], best, keys.size());
    }
  }
}
