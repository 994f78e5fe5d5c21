package dev.rekey.admin.createtable;

import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * Creates a pre-split table (the create-table action; also what {@code plan}'s split files feed).
 * Fluent: {@code
 * TableCreator.table(t).families(..).splitPoints(..).ifNotExists(true).create(admin)}.
 */
public final class TableCreator {
  private final TableName table;
  private List<FamilySpec> families = List.of();
  private List<byte[]> splitPoints = List.of();
  private boolean ifNotExists;
  private java.util.Map<String, String> settings = java.util.Map.of();

  private TableCreator(TableName table) {
    this.table = Objects.requireNonNull(table);
  }

  public static TableCreator table(TableName table) {
    return new TableCreator(table);
  }

  public TableCreator families(List<FamilySpec> families) {
    this.families = List.copyOf(families);
    return this;
  }

  public TableCreator splitPoints(List<byte[]> points) {
    this.splitPoints = List.copyOf(points);
    return this;
  }

  /**
   * Table attributes set on the descriptor as given (HBase's own, e.g. {@code
   * COMPACTION_ENABLED=false}, {@code MAX_FILESIZE}, or a configuration key such as {@code
   * hbase.hstore.blockingStoreFiles}, which the table's stores read over the site's).
   */
  public TableCreator settings(java.util.Map<String, String> settings) {
    this.settings = java.util.Map.copyOf(settings);
    return this;
  }

  public TableCreator ifNotExists(boolean ifNotExists) {
    this.ifNotExists = ifNotExists;
    return this;
  }

  /** The descriptor the table gets (pure; checks the families). */
  public TableDescriptor descriptor() {
    if (families.isEmpty()) {
      throw RekeyException.usage(
          "Cannot create " + table + ": no column family (add --family NAME, e.g. --family d)");
    }
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(table);
    List<String> seen = new ArrayList<>();
    for (FamilySpec f : families) {
      if (seen.contains(f.name())) {
        throw RekeyException.usage("Cannot create %s: family '%s' given twice", table, f.name());
      }
      seen.add(f.name());
      ColumnFamilyDescriptor d = f.toDescriptor();
      b.setColumnFamily(d);
    }
    settings.forEach(b::setValue);
    return b.build();
  }

  public CreateTableResult create(Admin admin) throws IOException {
    TableDescriptor d = descriptor();
    List<String> familyNames = families.stream().map(FamilySpec::name).toList();
    List<String> pointsHex = splitPoints.stream().map(Hex::of).toList();
    if (admin.tableExists(table)) {
      if (!ifNotExists) {
        throw new RekeyException(
            "Cannot create "
                + table
                + ": the table already exists (pass --if-not-exists to "
                + "accept it, or drop it first)");
      }
      return new CreateTableResult(
          table.getNameAsString(), false, admin.getRegions(table).size(), pointsHex, familyNames);
    }
    try {
      if (splitPoints.isEmpty()) {
        admin.createTable(d);
      } else {
        admin.createTable(d, splitPoints.toArray(new byte[0][]));
      }
    } catch (org.apache.hadoop.hbase.DoNotRetryIOException e) {
      // e.g. a compression codec the servers do not have: the master's sanity check refuses the
      // descriptor
      String first = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
      throw RekeyException.cannot(
          e,
          "Cannot create %s: HBase refused the table descriptor: %s (check the"
              + " --family settings; a codec must be installed on every RegionServer)",
          table,
          first);
    }
    return new CreateTableResult(
        table.getNameAsString(), true, admin.getRegions(table).size(), pointsHex, familyNames);
  }
}
