// Pure helpers of the conversation store: merging pages of messages, the compaction list,
// which messages earlier versions replaced, and the words shown for a refused /compact.
import type { ApiErrorJson, CompactionJson, MessageJson, WindowJson } from "@/lib/contract";
import { retryAfterSeconds } from "@/lib/client/api/http";
import { isReplacedTurn, retriedAttempts } from "@/lib/context/retries";

export interface CommandFeedback {
  tone: "info" | "error";
  /** The server's error code, or "ok". */
  code: string;
  message: string;
}

/** The server's rule for which turns Claude still sees (see WindowJson). */
export function isInWindow(turnSeq: number, window: WindowJson): boolean {
  return turnSeq >= window.cutoff_turn_seq || window.pinned_turn_seqs.includes(turnSeq);
}

/**
 * Merges messages by id (incoming wins) in seq order. Messages the server did not just
 * send get their in_window flag recomputed, because a slide or a compaction changes it
 * for old messages that are never re-fetched.
 */
export function merge(existing: MessageJson[], incoming: MessageJson[], window: WindowJson | null): MessageJson[] {
  const fresh = new Set(incoming.map((m) => m.id));
  const byId = new Map<string, MessageJson>();
  for (const m of existing) {
    byId.set(m.id, window && !fresh.has(m.id) ? { ...m, in_window: isInWindow(m.turn_seq, window) } : m);
  }
  for (const m of incoming) byId.set(m.id, m);
  return withoutRetriedAttempts([...byId.values()].sort((a, b) => a.seq - b.seq));
}

/** Without the failed attempts a retry answered again (see retriedAttempts). */
export function withoutRetriedAttempts(messages: MessageJson[]): MessageJson[] {
  const retried = retriedAttempts(
    messages.map((m) => ({ seq: m.seq, turnSeq: m.turn_seq, role: m.role, status: m.status, restartsTurn: m.restarts_turn })),
  );
  return retried.size > 0 ? messages.filter((m) => !retried.has(m.seq)) : messages;
}

/** Inserts or replaces one compaction, oldest first. */
export function upsertCompaction(list: CompactionJson[], c: CompactionJson): CompactionJson[] {
  const others = list.filter((x) => x.id !== c.id);
  // A newer applied compaction replaces the summary: only it can be undone now.
  const adjusted =
    c.status === "applied" ? others.map((x) => (x.can_undo ? { ...x, can_undo: false } : x)) : others;
  return [...adjusted, c].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.at_seq - b.at_seq);
}

/** The newest applied compaction: messages up to its at_seq are condensed into the summary. */
export function activeCompaction(compactions: CompactionJson[]): CompactionJson | null {
  for (let i = compactions.length - 1; i >= 0; i--) if (compactions[i].status === "applied") return compactions[i];
  return null;
}

/** Text of the newest user message that a person typed (tool results are not retried). */
export function lastTypedUserText(messages: MessageJson[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "user" && !m.content.some((b) => b.type === "tool_result")) return m.text;
  }
  return null;
}

export function newIdempotencyKey(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** The words shown when /compact is refused or fails. */
export function compactFeedback(error: ApiErrorJson["error"]): CommandFeedback {
  if (error.code === "rate_limited") {
    const seconds = retryAfterSeconds(error);
    return {
      tone: "info",
      code: error.code,
      message: seconds ? `You can compact again in ${seconds} s.` : "You can compact again in a few seconds.",
    };
  }
  if (error.code === "below_threshold" || error.code === "nothing_to_compact" || error.code === "little_gain") {
    return { tone: "info", code: error.code, message: error.message };
  }
  if (error.code === "session_busy") {
    return { tone: "info", code: error.code, message: "Claude is still busy with this session; try /compact again in a moment." };
  }
  return { tone: "error", code: error.code, message: `Compaction failed: ${error.message}` };
}

/**
 * Ids of messages an edit or a regenerated reply replaced (the server's dropReplaced): a turn
 * named by a later message's `supersedes_turn`, and a turn's replies before its latest
 * `restarts_turn` reply. They stay in the chat as earlier versions.
 */
export function replacedIds(messages: MessageJson[]): Set<string> {
  const edits: [number, number][] = [];
  const restart = new Map<number, number>();
  const first = new Map<number, number>();
  for (const m of messages) {
    if (m.supersedes_turn) edits.push([m.supersedes_turn, m.turn_seq]);
    if (m.restarts_turn) restart.set(m.turn_seq, m.seq);
    if (!first.has(m.turn_seq)) first.set(m.turn_seq, m.seq);
  }
  const out = new Set<string>();
  for (const m of messages) {
    const r = restart.get(m.turn_seq);
    if (isReplacedTurn(m.turn_seq, edits) || (r !== undefined && m.seq < r && m.seq !== first.get(m.turn_seq))) out.add(m.id);
  }
  return out;
}
