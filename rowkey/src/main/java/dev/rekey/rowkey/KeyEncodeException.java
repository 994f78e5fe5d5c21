package dev.rekey.rowkey;

/** Field values cannot be encoded with a layout; the message names the field and the problem. */
public class KeyEncodeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String field;

  public KeyEncodeException(String field, String message) {
    super(message);
    this.field = field;
  }

  /** The offending field, or null if the problem is not about one field. */
  public String field() {
    return field;
  }
}
