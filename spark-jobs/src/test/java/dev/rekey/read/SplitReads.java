package dev.rekey.read;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;

/**
 * How the {@link StoreFileRows} readers of this JVM (local Spark) read their splits while a capture
 * is open, from the line each logs at its close ({@link StoreFileRows#SPLIT_READ}): rows read from
 * the store files, and splits handed to HBase's reader. The measuring stays here, on the test side;
 * the reader only says what it did.
 */
final class SplitReads extends AbstractAppender implements AutoCloseable {
  private static final String LOGGER = StoreFileRows.class.getName();
  private static final AtomicInteger NAMES = new AtomicInteger();

  private final LongAdder rowsFromFiles = new LongAdder();
  private final LongAdder handedOver = new LongAdder();
  private static Level before; // the logger's level before the outermost open capture
  private static int open; // captures open (they nest: one around a test, one around a read)

  private SplitReads() {
    super("split-reads-" + NAMES.incrementAndGet(), null, null, true, Property.EMPTY_ARRAY);
  }

  /** Starts counting; close to stop. */
  static synchronized SplitReads capture() {
    // Spark configures logging as its session starts, dropping a logger set up before it
    dev.rekey.testing.SharedSpark.session();
    SplitReads r = new SplitReads();
    r.start();
    if (open++ == 0) {
      before = LogManager.getLogger(LOGGER).getLevel();
      Configurator.setLevel(LOGGER, Level.DEBUG);
    }
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    ctx.getConfiguration().getLoggerConfig(LOGGER).addAppender(r, Level.DEBUG, null);
    ctx.updateLoggers();
    return r;
  }

  @Override
  public void append(LogEvent e) {
    if (!StoreFileRows.SPLIT_READ.equals(e.getMessage().getFormat())) {
      return;
    }
    Object[] p = e.getMessage().getParameters();
    rowsFromFiles.add(((Number) p[1]).longValue());
    if (!"none".equals(p[2])) {
      handedOver.increment();
    }
  }

  /** Rows the readers read from store files themselves (before any hand-over). */
  long rowsFromFiles() {
    return rowsFromFiles.sum();
  }

  /** Splits whose reading HBase's reader took over, whole or from a row on. */
  long handedOver() {
    return handedOver.sum();
  }

  @Override
  public void close() {
    synchronized (SplitReads.class) {
      LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
      ctx.getConfiguration().getLoggerConfig(LOGGER).removeAppender(getName());
      if (--open == 0) {
        Configurator.setLevel(LOGGER, before);
      }
      ctx.updateLoggers();
    }
    stop();
  }
}
