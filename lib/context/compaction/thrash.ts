// Thrash guard: if every automatic compaction is followed by the window refilling almost at
// once, compacting again would only burn summarizer calls (and condense ever less). The user
// is warned instead.

export const THRASH_WITHIN_TURNS = 3;
export const THRASH_TIMES = 3;

/**
 * `autoCompactionTurns` are the turn numbers (the session's last turn at the time) of the
 * most recent automatic compactions, ascending, newest last; `currentTurn` is the turn at
 * which another automatic compaction is about to run.
 *
 * Appending `currentTurn` to the list gives a sequence t1 … tk, current. Its consecutive gaps
 * measure how many turns the window took to refill after each compaction; the last gap is
 * `currentTurn − newest`. Thrashing means the last `times` gaps all exist and are each
 * ≤ `withinTurns`. With the defaults (3, 3) that needs three recorded compactions: e.g.
 * [10, 12, 15] at turn 17 (gaps 2, 3, 2) is thrashing; [10, 12, 15] at turn 19 (last gap 4)
 * is not, and neither is anything with fewer than three recorded compactions. A gap of 0
 * (two compactions in one turn) counts as a refill.
 */
export function isThrashing(
  autoCompactionTurns: readonly number[],
  currentTurn: number,
  opts: { withinTurns?: number; times?: number } = {},
): boolean {
  const within = opts.withinTurns ?? THRASH_WITHIN_TURNS;
  const times = opts.times ?? THRASH_TIMES;
  if (times < 1 || autoCompactionTurns.length < times) return false;
  const seq = [...autoCompactionTurns.slice(-times), currentTurn];
  for (let i = 1; i < seq.length; i++) {
    const gap = seq[i] - seq[i - 1];
    // A negative gap means the caller's list is out of order; refusing to warn is the safe side.
    if (gap < 0 || gap > within) return false;
  }
  return true;
}
