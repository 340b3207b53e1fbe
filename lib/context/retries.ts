// Earlier versions stay in the history (it is append-only) but not in what Claude is sent:
// a turn the user edited, replies a regenerated reply replaced, and interrupted replies that
// a retry answered again.
import type { EngineMessage } from "./types";

/**
 * An edit in turn `t` naming turn `r` replaces turns r … t-1: the app edits only the last
 * turn (r = t-1); a drop-in client whose history differs from the session's several turns
 * back replaces them all.
 */
export function isReplacedTurn(turn: number, edits: readonly (readonly [from: number, by: number])[]): boolean {
  return edits.some(([from, by]) => turn >= from && turn < by);
}

/** The first turn no edit replaced: turn 1, unless an edit (made in turn `by`) replaced it. */
export function firstCurrentTurn(edits: readonly (readonly [from: number, by: number])[]): number {
  // Each step moves to a later turn, so this ends.
  for (let turn = 1; ; ) {
    const edit = edits.find(([from, by]) => isReplacedTurn(turn, [[from, by]]));
    if (!edit) return turn;
    turn = edit[1];
  }
}

/**
 * Drops turns replaced by an edit (a later user message names them in `supersedesTurn`) and,
 * within a turn, every reply before its latest regenerated one (`restartsTurn`); the user
 * message that starts the turn stays. Runs before window selection, so what is replaced
 * counts for nothing.
 */
export function dropReplaced<M extends Pick<EngineMessage, "seq" | "turnSeq" | "supersedesTurn" | "restartsTurn">>(messages: readonly M[]): M[] {
  const replaced: [number, number][] = [];
  const restartSeq = new Map<number, number>();
  const firstSeq = new Map<number, number>();
  for (const m of messages) {
    if (m.supersedesTurn) replaced.push([m.supersedesTurn, m.turnSeq]);
    if (m.restartsTurn) restartSeq.set(m.turnSeq, m.seq);
    if (!firstSeq.has(m.turnSeq)) firstSeq.set(m.turnSeq, m.seq);
  }
  if (replaced.length === 0 && restartSeq.size === 0) return messages.slice();
  return messages.filter((m) => {
    if (isReplacedTurn(m.turnSeq, replaced)) return false;
    const restart = restartSeq.get(m.turnSeq);
    return restart === undefined || m.seq >= restart || m.seq === firstSeq.get(m.turnSeq);
  });
}

/** What `retriedAttempts` needs of a message. */
export interface AttemptFacts {
  seq: number;
  turnSeq: number;
  role: string;
  status: string;
  restartsTurn: boolean;
}

/**
 * The seqs of failed attempts a retry answered again: an interrupted reply followed by a later
 * reply of the same turn, with no regenerate in between (a reply stopped and then regenerated
 * stays, as the earlier version behind the switcher). Neither the history nor Claude shows them.
 */
export function retriedAttempts(messages: readonly AttemptFacts[]): Set<number> {
  const lastReply = new Map<number, number>();
  const lastRestart = new Map<number, number>();
  for (const m of messages) {
    if (m.role === "assistant") lastReply.set(m.turnSeq, Math.max(m.seq, lastReply.get(m.turnSeq) ?? 0));
    if (m.restartsTurn) lastRestart.set(m.turnSeq, Math.max(m.seq, lastRestart.get(m.turnSeq) ?? 0));
  }
  const out = new Set<number>();
  for (const m of messages) {
    if (m.role !== "assistant" || m.status !== "interrupted") continue;
    if ((lastReply.get(m.turnSeq) ?? m.seq) > m.seq && (lastRestart.get(m.turnSeq) ?? 0) < m.seq) out.add(m.seq);
  }
  return out;
}

/**
 * For the request being built: drops interrupted assistant messages that a later reply of the
 * same turn replaces (a retry), and those of `current.turn`, which this request is about to
 * replace; with `current.regenerate`, every reply of that turn (only its user message stays).
 * Without this the API would see a broken partial reply merged with the new one.
 */
export function dropSuperseded(
  messages: readonly EngineMessage[],
  current: { turn: number; regenerate: boolean } | null,
): EngineMessage[] {
  const lastAssistantSeq = new Map<number, number>();
  const firstSeq = new Map<number, number>();
  for (const m of messages) {
    if (m.role === "assistant") lastAssistantSeq.set(m.turnSeq, m.seq);
    if (!firstSeq.has(m.turnSeq)) firstSeq.set(m.turnSeq, m.seq);
  }
  return messages.filter((m) => {
    if (current?.regenerate && m.turnSeq === current.turn) return m.seq === firstSeq.get(m.turnSeq);
    return !(
      m.role === "assistant" &&
      m.status !== "complete" &&
      (m.turnSeq === current?.turn || (lastAssistantSeq.get(m.turnSeq) ?? m.seq) > m.seq)
    );
  });
}
