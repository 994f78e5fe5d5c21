package dev.rekey.client;

import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Some mutations of a dual write failed on one table (or several): raised on {@code flush()}/{@code
 * close()} with every failed row, so the caller can retry them. Nothing since the previous
 * successful flush may be taken as written to every table until the listed rows are rewritten.
 */
public final class DualWriteException extends IOException {
  private static final long serialVersionUID = 1L;
  private static final int NAMED = 10;
  private final transient List<FailedWrite> failures;

  public DualWriteException(List<FailedWrite> failures) {
    super(message(failures), failures.isEmpty() ? null : failures.get(0).cause());
    this.failures = List.copyOf(failures);
  }

  public List<FailedWrite> failures() {
    return failures;
  }

  private static String message(List<FailedWrite> f) {
    String rows =
        f.stream().limit(NAMED).map(FailedWrite::describe).collect(Collectors.joining("; "));
    return String.format(
        "Cannot dual-write %d mutation%s: %s%s (these rows are not on every table: write them again"
            + " once the table is healthy)",
        f.size(),
        f.size() == 1 ? "" : "s",
        rows,
        f.size() > NAMED ? "; and " + (f.size() - NAMED) + " more" : "");
  }
}
