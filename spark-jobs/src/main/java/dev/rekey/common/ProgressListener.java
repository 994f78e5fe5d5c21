package dev.rekey.common;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.StageInfo;
import scala.Tuple4;
import scala.collection.JavaConverters;

/**
 * Progress of long jobs from Spark's own listener events: stages submitted and completed, tasks
 * started and ended (with their input metrics), and the executors' heartbeats, which carry the rows
 * read so far by running tasks. Every {@code period} a line per running stage ({@link
 * StageProgress#line()}), named by the phase of the job that started it ({@link JobPhase}, Spark's
 * job description in the stage's properties) or else by its call site; a command done within the
 * first period prints nothing. Installed once where the CLI starts a Spark command, so every job
 * gets it without code of its own. The Spark events only unpack into the package-private methods
 * that keep the counts ({@link #stageSubmitted}, {@link #taskEnded}, ...), which tests call with
 * their own figures and clock.
 */
public final class ProgressListener extends SparkListener implements AutoCloseable {
  static final String RECORDS_READ = "internal.metrics.input.recordsRead";
  static final String SHUFFLE_RECORDS_READ = "internal.metrics.shuffle.read.recordsRead";

  private final String job;
  private final LongSupplier clock;
  private final Map<Integer, Stage> stages = new ConcurrentHashMap<>();
  private ScheduledExecutorService timer;
  private SparkContext context;

  /**
   * One running stage: counters updated from the listener bus thread, read by the printing thread.
   */
  private static final class Stage {
    final int id;
    final String name;
    final String description;
    final int total;
    final long started;
    volatile int done;
    volatile int running;
    volatile long finishedRows;

    /** Rows read so far by each running task (from heartbeats), by task id. */
    final Map<Long, Long> runningRows = new ConcurrentHashMap<>();

    Stage(int id, String name, String description, int total, long started) {
      this.id = id;
      this.name = name;
      this.description = description;
      this.total = total;
      this.started = started;
    }
  }

  public ProgressListener(String job, LongSupplier clock) {
    this.job = job;
    this.clock = clock;
  }

  /**
   * Registers a listener on the session's context and prints the running stages to {@code out}
   * every {@code periodSeconds}; close it (or stop the context) to stop.
   */
  public static ProgressListener install(
      SparkContext sc, String job, PrintStream out, long periodSeconds) {
    ProgressListener l = new ProgressListener(job, System::currentTimeMillis);
    l.context = sc;
    sc.addSparkListener(l);
    l.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "rekey-progress");
              t.setDaemon(true);
              return t;
            });
    // a job of many short stages is as long as one long stage: every running stage gets a line at
    // every tick
    l.timer.scheduleAtFixedRate(
        () -> l.snapshot().forEach(p -> out.println(p.line())),
        periodSeconds,
        periodSeconds,
        TimeUnit.SECONDS);
    return l;
  }

  /** Where each running stage is now, oldest stage first. */
  public List<StageProgress> snapshot() {
    long now = clock.getAsLong();
    List<StageProgress> out = new ArrayList<>();
    stages.values().stream()
        .sorted((a, b) -> Integer.compare(a.id, b.id))
        .forEach(
            s -> {
              long rows = s.finishedRows;
              for (long r : s.runningRows.values()) {
                rows += r;
              }
              out.add(
                  new StageProgress(
                      job,
                      s.id,
                      s.name,
                      s.description,
                      s.done,
                      s.running,
                      s.total,
                      rows,
                      now - s.started));
            });
    return out;
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted e) {
    StageInfo i = e.stageInfo();
    Properties p = e.properties();
    stageSubmitted(
        i.stageId(),
        i.name(),
        p == null ? null : p.getProperty(JobPhase.DESCRIPTION),
        i.numTasks());
  }

  @Override
  public void onStageCompleted(SparkListenerStageCompleted e) {
    stageCompleted(e.stageInfo().stageId());
  }

  @Override
  public void onTaskStart(SparkListenerTaskStart e) {
    taskStarted(e.stageId());
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd e) {
    TaskMetrics m = e.taskMetrics();
    taskEnded(
        e.stageId(),
        e.taskInfo().taskId(),
        e.taskInfo().successful(),
        m == null ? 0 : m.inputMetrics().recordsRead() + m.shuffleReadMetrics().recordsRead());
  }

  /** Heartbeats carry each running task's accumulators: the rows it has read so far. */
  @Override
  public void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate e) {
    for (Tuple4<Object, Object, Object, scala.collection.Seq<AccumulableInfo>> u :
        JavaConverters.seqAsJavaList(e.accumUpdates())) {
      long rows = 0;
      for (AccumulableInfo a : JavaConverters.seqAsJavaList(u._4())) {
        if (a.name().isDefined()
            && a.update().isDefined()
            && (RECORDS_READ.equals(a.name().get()) || SHUFFLE_RECORDS_READ.equals(a.name().get()))
            && a.update().get() instanceof Long v) {
          rows += v;
        }
      }
      taskRows((Integer) u._2(), (Long) u._1(), rows);
    }
  }

  /** A stage started: {@code description} is its job's phase, null outside one. */
  void stageSubmitted(int stageId, String name, String description, int tasks) {
    stages.put(stageId, new Stage(stageId, name, description, tasks, clock.getAsLong()));
  }

  void stageCompleted(int stageId) {
    stages.remove(stageId);
  }

  void taskStarted(int stageId) {
    Stage s = stages.get(stageId);
    if (s != null) {
      s.running++;
    }
  }

  /** A task ended; the rows it read count only if it succeeded (a retry reads them again). */
  void taskEnded(int stageId, long taskId, boolean successful, long rowsRead) {
    Stage s = stages.get(stageId);
    if (s == null) {
      return;
    }
    s.running = Math.max(0, s.running - 1);
    s.runningRows.remove(taskId);
    if (successful) {
      s.done++;
      s.finishedRows += rowsRead;
    }
  }

  /** The rows a running task has read so far, as its executor's last heartbeat said. */
  void taskRows(int stageId, long taskId, long rows) {
    Stage s = stages.get(stageId);
    if (s != null) {
      s.runningRows.put(taskId, rows);
    }
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
    if (context != null) {
      context.removeSparkListener(this);
    }
  }
}
