package dev.rekey.jobs.guardrails;

/**
 * One limit one row breaks.
 *
 * @param kind which limit
 * @param measure how big (bytes, columns; 0 for an undecodable key)
 * @param detail what exactly (the cell, the reason a key does not decode)
 */
public record Finding(Guardrail kind, long measure, String detail) {}
