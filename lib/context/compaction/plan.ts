// Which turns a compaction condenses, and the token budgets it aims at.
import type { Turn } from "@/lib/context/turns";
import type { CompactionPlan } from "./types";

/**
 * Splits the turns since the previous summary into turns to condense, protected turns that
 * stay verbatim (pinned), and the latest turns kept verbatim.
 *
 * The kept tail is contiguous and made of whole turns, so a tool_use never loses its
 * tool_result. It grows from the newest turn backwards while the total stays within
 * `keepBudget`; the newest `minKeepTurns` (default 1) are kept even over budget, because the
 * conversation cannot continue without the turn being answered. The tail stops at the first
 * turn that does not fit rather than skipping it for a smaller older one: keeping a later
 * turn without the one before it would leave a hole in the verbatim part.
 *
 * Protected turns before the tail are pinned, not condensed; their tokens are not charged to
 * `keepBudget` (the caller knows them and accounts for pinned turns separately).
 */
export function planCompaction(input: {
  turns: readonly Turn[];
  keepBudget: number;
  minKeepTurns?: number;
}): CompactionPlan | null {
  const { turns, keepBudget } = input;
  const minKeep = Math.max(1, input.minKeepTurns ?? 1);
  if (turns.length === 0) return null;

  let first = turns.length;
  let keptTokens = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const kept = turns.length - first;
    if (kept >= minKeep && keptTokens + turns[i].tokens > keepBudget) break;
    keptTokens += turns[i].tokens;
    first = i;
  }

  const condense: Turn[] = [];
  const pinned: Turn[] = [];
  let condensedTokens = 0;
  for (const t of turns.slice(0, first)) {
    if (t.protected) pinned.push(t);
    else {
      condense.push(t);
      condensedTokens += t.tokens;
    }
  }
  if (condense.length === 0) return null;
  return {
    condense,
    pinned,
    keep: turns.slice(first),
    throughTurn: turns[first - 1].turnSeq,
    condensedTokens,
    keptTokens,
  };
}

/** Share of the (raw) capacity a summary may take: big enough for the PRD's six sections with code. */
export const SUMMARY_SHARE = 0.08;
export const SUMMARY_MIN_TOKENS = 512;
/** Haiku writes this much comfortably in one call; longer summaries stop helping. */
export const SUMMARY_MAX_TOKENS = 8192;
/** Summary plus preserved details must stay within this share of what they replace. */
export const MAX_SUMMARY_SHARE_OF_CONDENSED = 0.5;

/**
 * Budgets for one compaction. `capacity` is C in API (calibrated) tokens, as the status bar
 * reports it; everything else is raw (our cl100k estimate), because that is what the stored
 * message counts are. Dividing by `calibration` converts C to raw once, here.
 *
 * - targetTokens: where usage should land after compacting, well below the threshold so the
 *   next few turns do not trigger another compaction at once. `target` is capped at
 *   `threshold`: aiming at or above the trigger point would re-trigger on the next turn.
 * - summaryMaxTokens: 8 % of capacity, clamped to 512..8192. Proportional because a 1M-token
 *   window condenses far more history than a 200K one; clamped because under 512 the
 *   sections cannot hold any code, and above 8192 a single summary call gets slow.
 * - keepBudget: what is left of the target for verbatim recent turns once the fixed part
 *   (system prompt, tools, memories, canvas), the pinned turns and the new summary are in.
 *   It can reach 0, in which case the planner still keeps the latest turn.
 */
export function compactionBudgets(input: {
  capacity: number;
  threshold: number;
  target: number;
  fixedTokens: number;
  pinnedTokens: number;
  calibration: number;
}): { targetTokens: number; keepBudget: number; summaryMaxTokens: number } {
  const calibration = input.calibration > 0 ? input.calibration : 1;
  const target = Math.min(input.target, input.threshold);
  const targetTokens = Math.max(0, Math.floor((target * input.capacity) / calibration));
  const summaryMaxTokens = Math.min(
    SUMMARY_MAX_TOKENS,
    Math.max(SUMMARY_MIN_TOKENS, Math.round((SUMMARY_SHARE * input.capacity) / calibration)),
  );
  const keepBudget = Math.max(0, targetTokens - input.fixedTokens - input.pinnedTokens - summaryMaxTokens);
  return { targetTokens, keepBudget, summaryMaxTokens };
}

/**
 * Tokens "Preserved details" may add to a summary of `summaryTokens`, when the summary
 * replaces `condensedTokens` (previous summary + condensed turns): summary plus details stay
 * within half of what they replace, so a compaction always shrinks the context by at least
 * half of what it touches, however many items are missing. Never negative.
 */
export function detailsBudget(condensedTokens: number, summaryTokens: number): number {
  return Math.max(0, Math.floor(MAX_SUMMARY_SHARE_OF_CONDENSED * condensedTokens) - summaryTokens);
}
