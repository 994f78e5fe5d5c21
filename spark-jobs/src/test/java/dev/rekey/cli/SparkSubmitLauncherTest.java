package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SparkSubmitLauncherTest {
  @Test
  void aLocalMasterGetsTheSmallMachineSettings() {
    for (String m : new String[] {"local", "local[2]", "local[*]", "local-cluster[2,1,1024]"}) {
      assertTrue(SparkSubmitLauncher.defaultsFor(m).contains("spark.sql.shuffle.partitions=8"), m);
      assertTrue(SparkSubmitLauncher.defaultsFor(m).contains("spark.ui.enabled=false"), m);
    }
  }

  @Test
  void aClusterKeepsTheUiAndSizesShufflesByTheData() {
    for (String m : new String[] {"yarn", "spark://master:7077", "k8s://https://api:6443"}) {
      assertFalse(
          SparkSubmitLauncher.defaultsFor(m).stream()
              .anyMatch(
                  c -> c.startsWith("spark.sql.shuffle.partitions=") || c.startsWith("spark.ui.")),
          m);
      assertTrue(SparkSubmitLauncher.defaultsFor(m).contains("spark.sql.adaptive.enabled=true"), m);
    }
  }
}
