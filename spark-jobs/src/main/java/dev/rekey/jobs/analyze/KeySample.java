package dev.rekey.jobs.analyze;

import java.io.Serializable;

/**
 * One sampled row: its key and its newest cell timestamp (when it was last written). Serializable
 * for Spark.
 */
public record KeySample(byte[] key, long ts) implements Serializable {}
