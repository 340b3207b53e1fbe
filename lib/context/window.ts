// Sliding-window selection: the hard guarantee that no request exceeds C when
// compaction cannot (or may not) get there.
import { calibrate } from "@/lib/tokens/calibration";
import type { Turn } from "@/lib/context/turns";

export interface WindowInput {
  /** Turns before the tail that must stay (the first turn, protected turns), ascending. */
  pinned: readonly Turn[];
  /** Contiguous turns from the current cutoff to the newest, ascending. */
  tail: readonly Turn[];
  /** Raw estimate of everything sent besides messages: system, tools, memory, canvas, summary. */
  fixedTokens: number;
  calibration: number;
  capacity: number;
  /**
   * Once turns must slide, slide until the request is at most this (calibrated; default
   * `capacity`). Sliding a little further than needed keeps the start of the message list
   * the same for the next several turns, so they read it from the prompt cache instead of
   * each slide rewriting it.
   */
  slideTarget?: number;
}

export interface WindowSelection {
  /** Tail turns with turnSeq >= this are in the window (pinned turns are in regardless). */
  cutoffTurnSeq: number;
  /** Pinned turns plus the kept tail, ascending by turnSeq. */
  kept: Turn[];
  /** Tail turns that slid out in this selection, ascending. */
  droppedTurnSeqs: number[];
  rawTokens: number;
  calibratedTokens: number;
  /** Even the smallest allowed window exceeds capacity: the caller must report, not send. */
  overCapacity: boolean;
}

/**
 * Drops whole oldest unprotected tail turns until the calibrated request fits. Protected
 * tail turns the cutoff passes become pinned. The latest turn always stays, because a
 * request without the message being answered is useless. Only the tail is walked, so the
 * cost does not grow with history behind the cutoff.
 */
export function selectWindow(input: WindowInput): WindowSelection {
  const { pinned, tail, fixedTokens, calibration, capacity } = input;

  let raw = fixedTokens;
  for (const t of pinned) raw += t.tokens;
  for (const t of tail) raw += t.tokens;

  const passedProtected: Turn[] = [];
  const droppedTurnSeqs: number[] = [];
  let start = 0;
  let limit = capacity;
  while (start < tail.length - 1 && calibrate(raw, calibration) > limit) {
    limit = Math.min(input.slideTarget ?? capacity, capacity);
    const turn = tail[start];
    if (turn.protected) passedProtected.push(turn);
    else {
      droppedTurnSeqs.push(turn.turnSeq);
      raw -= turn.tokens;
    }
    start++;
  }

  const kept = [...pinned, ...passedProtected, ...tail.slice(start)];
  const cutoffTurnSeq =
    tail.length > 0 ? tail[start].turnSeq : pinned.length > 0 ? pinned[pinned.length - 1].turnSeq + 1 : 1;
  const calibratedTokens = calibrate(raw, calibration);
  return {
    cutoffTurnSeq,
    kept,
    droppedTurnSeqs,
    rawTokens: raw,
    calibratedTokens,
    overCapacity: calibratedTokens > capacity,
  };
}
