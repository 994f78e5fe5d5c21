package dev.rekey.client;

/**
 * The layout cannot serve the query as a key range in natural order; the message says why and what
 * to do.
 */
public final class UnsupportedReadException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public UnsupportedReadException(String reason) {
    super(reason);
  }
}
