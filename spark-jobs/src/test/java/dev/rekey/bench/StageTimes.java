package dev.rekey.bench;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.StageInfo;

/**
 * Where a backfill's Spark time goes (benchmarks only): each completed stage's wall time, tasks,
 * the tasks' summed run and GC time, shuffle bytes written and read, and spill, as Spark's listener
 * bus reports them. {@link #drain} returns the lines heard since the last call.
 */
final class StageTimes extends SparkListener {
  private final List<String> lines = new ArrayList<>();

  private StageTimes() {}

  static StageTimes on(SparkContext sc) {
    StageTimes t = new StageTimes();
    sc.addSparkListener(t);
    return t;
  }

  @Override
  public synchronized void onStageCompleted(SparkListenerStageCompleted done) {
    StageInfo s = done.stageInfo();
    long wall =
        s.completionTime().isDefined() && s.submissionTime().isDefined()
            ? (Long) s.completionTime().get() - (Long) s.submissionTime().get()
            : -1;
    var m = s.taskMetrics();
    lines.add(
        String.format(
            "  stage %d %-40.40s %6.2f s, %3d tasks, run %6.2f s (cpu %6.2f s, gc %5.2f s),"
                + " shuffle write %,d B in %.2f s, read %,d B, spill %,d B",
            s.stageId(),
            s.name(),
            wall / 1e3,
            s.numTasks(),
            m.executorRunTime() / 1e3,
            m.executorCpuTime() / 1e9,
            m.jvmGCTime() / 1e3,
            m.shuffleWriteMetrics().bytesWritten(),
            m.shuffleWriteMetrics().writeTime() / 1e9,
            m.shuffleReadMetrics().totalBytesRead(),
            m.diskBytesSpilled()));
  }

  /** The stage lines heard since the last call (the bus delivers a stage's end shortly after). */
  synchronized List<String> drain() throws InterruptedException {
    wait(300);
    List<String> out = new ArrayList<>(lines);
    lines.clear();
    return out;
  }
}
