package dev.rekey.bench;

import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * The CPU time Spark's tasks spent in a pass (each task's run and its deserialization, as Spark
 * measures them on the task's thread): a read's work per row under Spark, apart from what the
 * driver, the JIT compilers and the collector spend beside it. Two passes over the same files
 * compare by it where their wall times also hold each job's fixed cost.
 */
public final class TaskCpu extends SparkListener {
  private long taskNanos;
  private long jobsEnded;

  private TaskCpu() {}

  /** Listens to {@code sc}'s tasks from now on. */
  public static TaskCpu on(SparkContext sc) {
    TaskCpu cpu = new TaskCpu();
    sc.addSparkListener(cpu);
    return cpu;
  }

  /** Where a pass starts: the jobs ended and the tasks' CPU so far. */
  public record Mark(long jobsEnded, long taskNanos) {}

  public synchronized Mark mark() {
    return new Mark(jobsEnded, taskNanos);
  }

  /**
   * The tasks' CPU seconds since {@code m}, once {@code jobs} more jobs have ended: Spark's
   * listeners hear of tasks after the job's caller has its result, and a job's end comes after its
   * tasks' ends.
   */
  public synchronized double secondsSince(Mark m, int jobs) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (jobsEnded < m.jobsEnded() + jobs) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IllegalStateException(
            "Spark's listeners did not hear of " + jobs + " job(s) ending within 30 s");
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return (taskNanos - m.taskNanos()) / 1e9;
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
    TaskMetrics m = end.taskMetrics();
    if (m != null) {
      taskNanos += m.executorCpuTime() + m.executorDeserializeCpuTime();
    }
  }

  @Override
  public synchronized void onJobEnd(SparkListenerJobEnd end) {
    jobsEnded++;
    notifyAll();
  }
}
