// Turns are the unit the window slides by. Cutting only between turns is what keeps
// every tool_use next to its tool_result, which the Messages API requires.
import type { ContentBlock, EngineMessage, Role } from "@/lib/context/types";

/** turn_seq of a session's first turn; that turn is always kept because it usually states the task. */
export const FIRST_TURN_SEQ = 1;

export interface Turn {
  turnSeq: number;
  /** Ascending by seq. */
  messages: EngineMessage[];
  /** Sum of the stored (raw) token counts. */
  tokens: number;
  /** Never slides out: holds a protected message or is the first turn. */
  protected: boolean;
}

/**
 * A user message starts a turn unless it carries a tool_result. A result-carrying message
 * with extra text after the results still belongs to the tool loop: starting a turn there
 * would let the window cut between the tool_use and its result.
 */
export function startsTurn(role: Role, content: readonly ContentBlock[]): boolean {
  return role === "user" && !content.some((b) => b.type === "tool_result");
}

export function nextTurnSeq(prevTurnSeq: number | null, role: Role, content: readonly ContentBlock[]): number {
  if (prevTurnSeq === null) return FIRST_TURN_SEQ;
  return startsTurn(role, content) ? prevTurnSeq + 1 : prevTurnSeq;
}

/** Groups messages by their stored turnSeq, ascending by turnSeq. */
export function groupTurns(messages: readonly EngineMessage[]): Turn[] {
  // Messages normally arrive in seq order; sorting a sorted array is linear and makes
  // the result independent of how the caller queried them.
  const sorted = [...messages].sort((a, b) => a.seq - b.seq);
  const byTurn = new Map<number, Turn>();
  for (const m of sorted) {
    let turn = byTurn.get(m.turnSeq);
    if (!turn) {
      turn = { turnSeq: m.turnSeq, messages: [], tokens: 0, protected: m.turnSeq === FIRST_TURN_SEQ };
      byTurn.set(m.turnSeq, turn);
    }
    turn.messages.push(m);
    turn.tokens += m.tokenCount;
    if (m.protected) turn.protected = true;
  }
  return [...byTurn.values()].sort((a, b) => a.turnSeq - b.turnSeq);
}
