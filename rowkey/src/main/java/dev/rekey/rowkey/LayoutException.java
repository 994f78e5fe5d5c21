package dev.rekey.rowkey;

/** A layout file (or inline layout) is malformed; the message names the source and the problem. */
public class LayoutException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public LayoutException(String message) {
    super(message);
  }

  public LayoutException(String message, Throwable cause) {
    super(message, cause);
  }
}
