package dev.rekey.jobs.analyze;

/**
 * One live region of the analyzed table: its boundaries, server, the rows analyze read from it and
 * the RegionServer's own counters for it.
 *
 * @param index 0-based, in key order
 * @param startKeyHex start key (hex; empty = table start)
 * @param endKeyHex end key (hex; empty = table end)
 * @param server host:port of the hosting RegionServer ("" if unknown)
 * @param rows rows read from the region in this run (exact), -1 if not read
 * @param readRequests the region's read request count since it opened
 * @param writeRequests the region's write request count since it opened
 * @param storeFileMb size of its store files (MB)
 * @param memStoreMb size of its memstores (MB)
 */
public record RegionStat(
    int index,
    String startKeyHex,
    String endKeyHex,
    String server,
    long rows,
    long readRequests,
    long writeRequests,
    double storeFileMb,
    double memStoreMb) {
  public RegionStat withRows(long r) {
    return new RegionStat(
        index,
        startKeyHex,
        endKeyHex,
        server,
        r,
        readRequests,
        writeRequests,
        storeFileMb,
        memStoreMb);
  }
}
