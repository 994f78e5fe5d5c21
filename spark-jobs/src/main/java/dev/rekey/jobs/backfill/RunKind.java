package dev.rekey.jobs.backfill;

/**
 * What kind of run drives the {@link BackfillPipeline} (run layer), where a backfill and a repair's
 * HFile load differ on purpose.
 *
 * @param verb how the run names itself in its locks' messages ({@code backfill T}, {@code repair
 *     T})
 * @param recordsLoads the loads are recorded in the target's attributes and a repeat is refused: a
 *     backfill loads a snapshot's whole content, a repair only the rows it found missing
 * @param scratchStaging the staging dir holds only what a resume needs: no {@code _result.json},
 *     and it is cleaned once every region is verified (a backfill keeps its manifest and result)
 */
record RunKind(String verb, boolean recordsLoads, boolean scratchStaging) {
  static final RunKind BACKFILL = new RunKind("backfill", true, false);
  static final RunKind REPAIR = new RunKind("repair", false, true);
}
