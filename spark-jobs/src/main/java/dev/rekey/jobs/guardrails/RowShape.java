package dev.rekey.jobs.guardrails;

/**
 * What a guardrail knows of one source row after reading it (pure data).
 *
 * @param key the source key
 * @param columns distinct family:qualifier columns
 * @param rowBytes the row's cells' serialized sizes together, every version
 * @param largestCellBytes the largest cell as a KeyValue under the target key (the source key when
 *     there is no target, or the key cannot be rekeyed)
 * @param largestCell which cell that is (family:qualifier@timestamp)
 * @param targetKeyBytes the key's length after rekeying (its own with no target layout; -1 when it
 *     cannot be rekeyed)
 * @param undecodable why the key cannot be decoded or rekeyed (null when it can)
 */
public record RowShape(
    byte[] key,
    int columns,
    long rowBytes,
    long largestCellBytes,
    String largestCell,
    int targetKeyBytes,
    String undecodable) {}
