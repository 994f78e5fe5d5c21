package dev.rekey.embedded;

/** The embedded server could not be started or stopped; the message says why and what to do. */
public final class EmbeddedHBaseException extends RuntimeException {
  public EmbeddedHBaseException(String message) {
    super(message);
  }
}
