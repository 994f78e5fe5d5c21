package dev.rekey.common;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.metrics.source.Source;
import org.apache.spark.util.LongAccumulator;

/**
 * What a running job counts, published while it runs (docs/metrics.md):
 *
 * <ul>
 *   <li>through Spark's metrics system, as a source named {@code rekey.<job>} whose gauges read the
 *       job's accumulators on the driver (they grow as tasks finish), so they reach whatever sinks
 *       the cluster configured ({@code spark.metrics.conf}: JMX, PrometheusServlet, Graphite, ...);
 *       the accumulators themselves are named, so Spark's UI and REST API show them per stage;
 *   <li>as a status file ({@link JobStatus}, {@code _status.json}) beside the job's outputs,
 *       written atomically through Hadoop's FileSystem on a timer, at each phase change ({@link
 *       JobPhase}) and at the end.
 * </ul>
 *
 * <p>One per running job on a SparkContext ({@link #start}); the job's counters find it through
 * {@link #of} (the driver runs one rekey job at a time per SparkContext; a second start while one
 * runs replaces it). Closing it writes the final status and removes the source.
 */
public final class JobMetrics implements Source, AutoCloseable {
  /** Spark conf key: seconds between status file writes while the job runs. */
  public static final String STATUS_INTERVAL = "spark.rekey.status.intervalSeconds";

  public static final long DEFAULT_STATUS_INTERVAL = 10;

  private static final Map<SparkContext, JobMetrics> ACTIVE = new ConcurrentHashMap<>();

  private final SparkContext sc;
  private final String job;
  private final String subject;
  private final MetricRegistry registry = new MetricRegistry();
  private final Map<String, LongSupplier> counters = new LinkedHashMap<>();
  private final List<JobStatus.Phase> phases = new ArrayList<>();
  private final Instant started = Instant.now();
  private final FileSystem fs;
  private final Path statusFile;
  private final ScheduledExecutorService timer;
  private volatile String phase = "starting";
  private volatile Instant phaseStarted = started;
  private volatile int phaseNumber;
  private volatile boolean registered;

  private JobMetrics(
      SparkContext sc, String job, String subject, Path statusFile, Configuration conf)
      throws IOException {
    this.sc = sc;
    this.job = job;
    this.subject = subject;
    this.statusFile = statusFile;
    this.fs = statusFile == null ? null : statusFile.getFileSystem(conf);
    registry.register("phase", (Gauge<Integer>) () -> phaseNumber);
    registry.register(
        "elapsedSeconds",
        (Gauge<Long>) () -> java.time.Duration.between(started, Instant.now()).toSeconds());
    long every = sc.getConf().getLong(STATUS_INTERVAL, DEFAULT_STATUS_INTERVAL);
    if (statusFile != null && every > 0) {
      timer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "rekey-status-" + job);
                t.setDaemon(true);
                return t;
              });
      timer.scheduleWithFixedDelay(this::writeQuietly, every, every, TimeUnit.SECONDS);
    } else {
      timer = null;
    }
  }

  /**
   * Starts publishing {@code job}'s counters on {@code sc}; {@code statusFile} (a Hadoop path, null
   * for none) gets the status as the job goes.
   *
   * @param subject what the job works on ("table T from snapshot S"), for the status file
   */
  public static JobMetrics start(
      SparkContext sc, String job, String subject, Path statusFile, Configuration conf) {
    JobMetrics m;
    try {
      m = new JobMetrics(sc, job, subject, statusFile, conf);
    } catch (IOException e) {
      throw RekeyException.cannot(
          e, "Cannot write the status file %s: %s", statusFile, e.getMessage());
    }
    SparkEnv env = SparkEnv.get();
    if (env != null) {
      env.metricsSystem().registerSource(m);
      m.registered = true;
    }
    JobMetrics before = ACTIVE.put(sc, m);
    if (before != null) {
      before.stop("replaced");
    }
    m.write("running");
    return m;
  }

  /** The job running on {@code sc}, if one publishes its counters. */
  public static Optional<JobMetrics> of(SparkContext sc) {
    return Optional.ofNullable(ACTIVE.get(sc));
  }

  /** Publishes an accumulator's driver-side value as the gauge {@code name}. */
  public void counter(String name, LongAccumulator acc) {
    counter(name, acc::value);
  }

  /** Publishes a count read on demand as the gauge {@code name} (idempotent per name). */
  public synchronized void counter(String name, LongSupplier value) {
    if (counters.putIfAbsent(name, value) == null) {
      registry.register(name, (Gauge<Long>) value::getAsLong);
      if (registered) {
        // Spark's metrics system copies a source's metrics when it is registered: register it
        // again so the sinks see the new gauge (a few times per job, as its counters are made)
        SparkEnv env = SparkEnv.get();
        if (env != null) {
          env.metricsSystem().removeSource(this);
          env.metricsSystem().registerSource(this);
        }
      }
    }
  }

  /** A new phase starts (from {@link JobPhase}): the last one's counters are kept with it. */
  public void phase(String description) {
    synchronized (this) {
      if (phaseNumber > 0) {
        phases.add(new JobStatus.Phase(phase, phaseStarted.toString(), now(), values()));
      }
      phase = description;
      phaseStarted = Instant.now();
      phaseNumber++;
    }
    writeQuietly();
  }

  /** The counters now, by name. */
  public synchronized Map<String, Long> values() {
    Map<String, Long> m = new LinkedHashMap<>();
    counters.forEach((k, v) -> m.put(k, v.getAsLong()));
    return m;
  }

  /** The status as it is now (state: running, succeeded or failed). */
  public synchronized JobStatus status(String state) {
    List<JobStatus.Phase> all = new ArrayList<>(phases);
    boolean done = !state.equals("running");
    if (phaseNumber > 0) {
      all.add(new JobStatus.Phase(phase, phaseStarted.toString(), done ? now() : null, values()));
    }
    return new JobStatus(
        JobStatus.SCHEMA,
        JobStatus.VERSION,
        job,
        subject,
        sc.applicationId(),
        state,
        phase,
        started.toString(),
        now(),
        progress(),
        values(),
        all);
  }

  /** Tasks done of the stages running now (what Spark's status tracker knows). */
  private JobStatus.Progress progress() {
    int done = 0;
    int total = 0;
    int stages = 0;
    for (int id : sc.statusTracker().getActiveStageIds()) {
      scala.Option<SparkStageInfo> s = sc.statusTracker().getStageInfo(id);
      if (s.isDefined()) {
        stages++;
        done += s.get().numCompletedTasks();
        total += s.get().numTasks();
      }
    }
    return new JobStatus.Progress(stages, done, total);
  }

  private static String now() {
    return Instant.now().toString();
  }

  private void writeQuietly() {
    try {
      write("running");
    } catch (RuntimeException e) {
      // a status write that fails must not fail the job: the next one tries again
    }
  }

  private synchronized void write(String state) {
    if (statusFile == null) {
      return;
    }
    try {
      AtomicFile.write(
          fs, statusFile, (Json.pretty(status(state)) + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw RekeyException.cannot(
          e, "Cannot write the status file %s: %s", statusFile, e.getMessage());
    }
  }

  /** Ends publishing: the final status ({@code succeeded} or {@code failed}), source removed. */
  public void finish(boolean succeeded) {
    stop(succeeded ? "succeeded" : "failed");
  }

  private void stop(String state) {
    if (timer != null) {
      timer.shutdownNow();
    }
    ACTIVE.remove(sc, this);
    if (registered) {
      SparkEnv env = SparkEnv.get();
      if (env != null) {
        env.metricsSystem().removeSource(this);
      }
      registered = false;
    }
    try {
      write(state);
    } catch (RuntimeException e) {
      // the job's own outcome matters more than its status file
    }
  }

  /** Closes as failed unless {@link #finish} ran. */
  @Override
  public void close() {
    if (ACTIVE.get(sc) == this) {
      stop("failed");
    }
  }

  @Override
  public String sourceName() {
    return "rekey." + job;
  }

  @Override
  public MetricRegistry metricRegistry() {
    return registry;
  }
}
