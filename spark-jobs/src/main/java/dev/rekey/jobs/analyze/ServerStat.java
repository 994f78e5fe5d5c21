package dev.rekey.jobs.analyze;

import java.util.List;

/**
 * One live RegionServer, as the analyzed table sees it.
 *
 * @param server host:port
 * @param tableRegions regions of the table it hosts
 * @param tableReadRequests read requests of those regions
 * @param tableWriteRequests write requests of those regions
 * @param allRequests read + write requests of every region it hosts (all tables)
 * @param tailBuckets salt buckets whose tail (last) region it hosts (salted layouts only)
 */
public record ServerStat(
    String server,
    int tableRegions,
    long tableReadRequests,
    long tableWriteRequests,
    long allRequests,
    List<Integer> tailBuckets) {}
