package dev.rekey.client;

import dev.rekey.rowkey.Hex;

/**
 * A mutation one side of a dual write did not take.
 *
 * @param table the table that failed it
 * @param rowKey its row key there
 * @param naturalKey the natural key (field=value, ...), or the hex key if the layout cannot decode
 *     it
 * @param cause why
 */
public record FailedWrite(String table, byte[] rowKey, String naturalKey, Throwable cause) {
  public String describe() {
    return String.format(
        "%s row %s (%s): %s%s",
        table,
        Hex.of(rowKey),
        naturalKey,
        cause.getClass().getSimpleName(),
        cause.getMessage() == null ? "" : ": " + cause.getMessage().lines().findFirst().orElse(""));
  }
}
