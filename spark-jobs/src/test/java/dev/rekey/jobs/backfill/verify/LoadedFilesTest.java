package dev.rekey.jobs.backfill.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class LoadedFilesTest {
  private static final LoadedFiles.Fingerprint A =
      new LoadedFiles.Fingerprint("d", "00aa", "00ff", 10, 1L);
  private static final LoadedFiles.Fingerprint B =
      new LoadedFiles.Fingerprint("d", "0100", "01ff", 5, 1L);
  private static final RegionEntry REGION =
      new RegionEntry(0, "r0", "", "02", 7, 15, 900, 2, RegionState.LOADED);

  @Test
  void everyLoadedFileAmongTheStoreFilesVerifiesTheRegion() {
    LoadedFiles.Outcome o =
        LoadedFiles.match(
            REGION,
            List.of(A, B),
            Set.of(A, B, new LoadedFiles.Fingerprint("d", "05", "06", 1, 1L)));
    assertTrue(o.matched(), o.reason());
  }

  @Test
  void aFileMissingFromTheStoreIsNotVerified() {
    LoadedFiles.Outcome o = LoadedFiles.match(REGION, List.of(A, B), Set.of(A));
    assertFalse(o.matched());
    assertEquals("1 of its 2 HFiles are not store files of the table as loaded", o.reason());
  }

  /** B staged, {@code inTable} found in its place among the table's store files. */
  private static boolean matchedWith(LoadedFiles.Fingerprint inTable) {
    return LoadedFiles.match(REGION, List.of(A, B), Set.of(A, inTable)).matched();
  }

  @Test
  void aStoreFileWithOtherCellsOrKeysIsNotTheLoadedOne() {
    assertFalse(matchedWith(new LoadedFiles.Fingerprint("d", "0100", "01ff", 4, 1L)));
  }

  @Test
  void aStoreFileOfAnotherWriteWithTheSameKeysAndCountsIsNotTheLoadedOne() {
    assertFalse(matchedWith(new LoadedFiles.Fingerprint("d", "0100", "01ff", 5, 2L)));
  }

  @Test
  void stagedFilesThatDoNotAddUpToTheManifestAreNotVerified() {
    LoadedFiles.Outcome o = LoadedFiles.match(REGION, List.of(A), Set.of(A, B));
    assertFalse(o.matched());
    assertEquals("the staging dir holds 1 files with 10 cells, the manifest 2 with 15", o.reason());
  }
}
