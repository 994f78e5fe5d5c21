package dev.rekey.cluster;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the given test classes with the JUnit Platform, as Maven's runner would, in this JVM: how
 * {@link SeveralHostsTierIT} runs the cluster tier's classes on the several-host stack's gateway.
 * Prints each test's outcome as it ends and a summary; exits 0 when at least one test ran and none
 * failed, 1 otherwise, 2 on a class it cannot load.
 */
public final class TierMain {
  private TierMain() {}

  public static void main(String[] args) {
    if (args.length == 0) {
      System.err.println(
          "Error: name the test classes to run (dev.rekey.cluster.PseudoClusterIT ...)");
      System.exit(2);
    }
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
    for (String name : args) {
      try {
        request.selectors(DiscoverySelectors.selectClass(Class.forName(name)));
      } catch (ClassNotFoundException e) {
        System.err.println("Error: no test class " + name + " on the class path");
        System.exit(2);
      }
    }
    TestExecutionSummary summary = run(request.build());
    summary.printTo(new PrintWriter(System.out, true));
    summary.printFailuresTo(new PrintWriter(System.out, true), 40);
    boolean ok = summary.getTestsSucceededCount() > 0 && summary.getTotalFailureCount() == 0;
    System.out.printf(
        "tier: %d tests, %d succeeded, %d failed, %d skipped in %.1f s (%s)%n",
        summary.getTestsFoundCount(),
        summary.getTestsSucceededCount(),
        summary.getTotalFailureCount(),
        summary.getTestsSkippedCount() + summary.getTestsAbortedCount(),
        (summary.getTimeFinished() - summary.getTimeStarted()) / 1e3,
        String.join(" ", Arrays.asList(args)));
    System.exit(ok ? 0 : 1);
  }

  private static TestExecutionSummary run(LauncherDiscoveryRequest request) {
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener summary = new SummaryGeneratingListener();
    TestExecutionListener progress =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (id.isTest() || result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
              System.out.println(
                  "tier test "
                      + id.getDisplayName()
                      + ": "
                      + result.getStatus()
                      + result.getThrowable().map(t -> " " + t).orElse(""));
            }
          }
        };
    launcher.execute(request, List.of(summary, progress).toArray(new TestExecutionListener[0]));
    return summary.getSummary();
  }
}
