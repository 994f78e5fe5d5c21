package dev.rekey.jobs.repair;

import dev.rekey.common.DecodedCell;
import java.io.Serializable;
import java.util.Arrays;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;

/**
 * A delete marker in the new table, as a raw scan returns it, and which Puts it hides (pure): HBase
 * keeps a marker until a major compaction, and it hides every Put at or below its timestamp (a
 * family or column marker) or at exactly it (a version marker), written before or after it.
 *
 * @param qualifier null for the family markers
 */
public record Marker(Type type, byte[] family, byte[] qualifier, long timestamp)
    implements Serializable {

  /** HBase's marker types, by what they hide. */
  public enum Type {
    /** Delete of a whole family (or row): every column, timestamps up to the marker's. */
    FAMILY,
    /** Every column of the family at exactly the marker's timestamp. */
    FAMILY_VERSION,
    /** One column, timestamps up to the marker's. */
    COLUMN,
    /** One column at exactly the marker's timestamp. */
    VERSION
  }

  /** The marker of a raw-scanned cell, or null when the cell is a Put. */
  public static Marker of(Cell c) {
    Type t =
        switch (c.getType()) {
          case DeleteFamily -> Type.FAMILY;
          case DeleteFamilyVersion -> Type.FAMILY_VERSION;
          case DeleteColumn -> Type.COLUMN;
          case Delete -> Type.VERSION;
          default -> null;
        };
    if (t == null) {
      return null;
    }
    boolean family = t == Type.FAMILY || t == Type.FAMILY_VERSION;
    return new Marker(
        t, CellUtil.cloneFamily(c), family ? null : CellUtil.cloneQualifier(c), c.getTimestamp());
  }

  /** True when a Put of {@code c} would be hidden by this marker. */
  public boolean hides(DecodedCell c) {
    if (!Arrays.equals(family, c.family())) {
      return false;
    }
    return switch (type) {
      case FAMILY -> c.timestamp() <= timestamp;
      case FAMILY_VERSION -> c.timestamp() == timestamp;
      case COLUMN -> Arrays.equals(qualifier, c.qualifier()) && c.timestamp() <= timestamp;
      case VERSION -> Arrays.equals(qualifier, c.qualifier()) && c.timestamp() == timestamp;
    };
  }

  @Override
  public String toString() {
    return type
        + " "
        + new String(family)
        + (qualifier == null ? "" : ":" + new String(qualifier))
        + "@"
        + timestamp;
  }
}
