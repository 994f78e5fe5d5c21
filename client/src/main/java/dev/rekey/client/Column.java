package dev.rekey.client;

import java.io.Serializable;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One cell a {@link DualWriter} writes: family, qualifier, timestamp and value. {@link #of} leaves
 * the timestamp to the writer, which stamps every such cell of one mutation with one clock reading,
 * identical on both tables. Serializable, so Spark producers can ship it.
 */
public record Column(byte[] family, byte[] qualifier, long timestamp, byte[] value)
    implements Serializable {
  public static Column of(byte[] family, byte[] qualifier, byte[] value) {
    return new Column(family, qualifier, HConstants.LATEST_TIMESTAMP, value);
  }

  public static Column of(String family, String qualifier, byte[] value) {
    return of(Bytes.toBytes(family), Bytes.toBytes(qualifier), value);
  }

  /** A cell with an explicit timestamp (e.g. the event time), written as is to both tables. */
  public static Column at(byte[] family, byte[] qualifier, long timestamp, byte[] value) {
    return new Column(family, qualifier, timestamp, value);
  }

  boolean stampedByWriter() {
    return timestamp == HConstants.LATEST_TIMESTAMP;
  }
}
