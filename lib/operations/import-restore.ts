// What an imported session is beyond its messages, written in the transaction that stores them
// (import-store.ts): another app's compaction markers (Claude Code's compact boundaries) as
// compactions whose summary stands in for the turns before them; and for Threadkeeper's own
// export the session as it was: its compactions with their states, the summary and window it
// stood at, its checkpoints, canvas history and flags. Every row gets a new id; references to
// old ids (a compaction's predecessor, a checkpoint's summary and canvas event, seqs) are
// remapped to the new ones.
import "server-only";
import { sessionSystemText } from "@/lib/context/instructions";
import { storeCanvas } from "@/lib/db/canvas";
import type { Tx } from "@/lib/db/driver";
import { insertRestoredCanvasEvents, insertRestoredCheckpoint, insertRestoredCompaction, markInterrupted, protectSeqs, restoreSessionFields, setForkLinks } from "@/lib/db/exchange";
import { importedSession } from "@/lib/db/imports";
import { installSummary } from "@/lib/db/compactions";
import { getSession, updateWindow } from "@/lib/db/sessions";
import { clearToolResults } from "@/lib/context/clearing";
import { groupTurns } from "@/lib/context/turns";
import type { ImportedCompaction, SessionRestore } from "@/lib/import/types";
import { getModel } from "@/lib/models";
import { estimateSystemTokens, estimateTextTokens } from "@/lib/tokens/tokenizer";
import { refreshCanvasTokens } from "./canvas";
import { windowRows } from "./session-context";

const PREVIEW_CHARS = 200;
const preview = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
};

/** The new session's messages: seq and turn of each, in order. */
export type StoredSeqs = readonly { seq: number; turn: number }[];

/**
 * Another app's compactions, oldest first: each condenses the turns since the one before it;
 * the newest is the session's summary and Claude's view begins after it, as after /compact.
 */
export async function storeMarkers(tx: Tx, userId: string, sessionId: string, compactions: readonly ImportedCompaction[], stored: StoredSeqs): Promise<void> {
  const lastTurn = stored.at(-1)?.turn ?? 0;
  const list = [...compactions].filter((c) => c.throughTurn > 0 && c.throughTurn <= lastTurn).sort((a, b) => a.throughTurn - b.throughTurn);
  let prev: { id: string; through: number } | null = null;
  let latest: { id: string; text: string; tokens: number; through: number } | null = null;
  for (const [i, c] of list.entries()) {
    const from = (prev?.through ?? 0) + 1;
    if (c.throughTurn < from) continue;
    const condensed = stored.filter((m) => m.turn >= from && m.turn <= c.throughTurn);
    const tokens = estimateTextTokens(c.summary);
    const id = await insertRestoredCompaction(tx, userId, sessionId, {
      trigger: c.trigger ?? "auto",
      method: "llm",
      status: i === list.length - 1 ? "applied" : "superseded",
      from_turn: from,
      through_turn: c.throughTurn,
      at_seq: condensed.at(-1)?.seq ?? 0,
      at_turn: c.throughTurn,
      prev_compaction_id: prev?.id ?? null,
      prev_window_start_turn: from,
      summary: c.summary,
      summary_tokens: tokens,
      summary_preview: preview(c.summary),
      items_total: 0,
      retention_rate: 1,
      preserved_items: [],
      omitted_items: [],
      pre_tokens: c.preTokens ?? 0,
      post_tokens: 0,
      reduction_percent: 0,
      messages_condensed: condensed.length,
      model: null,
      template: "general",
      instructions: null,
      duration_ms: 0,
      cost_usd: 0,
      fallback_reason: null,
      cache_break: null,
      created_at: c.saidAt,
    });
    prev = { id, through: c.throughTurn };
    latest = { id, text: c.summary, tokens, through: c.throughTurn };
  }
  if (latest) await installSummary(tx, sessionId, { summaryId: latest.id, text: latest.text, tokens: latest.tokens, throughTurn: latest.through, windowStartTurn: latest.through + 1 });
}

/**
 * What one import has restored so far, by the export's ids: files (the messages' blocks name
 * them) and checkpoints (a fork names the one it came from; parents come first, by creation).
 */
export interface ImportLinks {
  readonly files: ReadonlyMap<string, string>;
  readonly checkpoints: Map<string, string>;
}

/** Threadkeeper's own export: the session's state beyond its messages, as it was. */
export async function restoreSession(tx: Tx, userId: string, sessionId: string, r: SessionRestore, stored: StoredSeqs, links: ImportLinks): Promise<void> {
  const seqOf = seqMap(r.seqs, stored);
  await protectSeqs(tx, sessionId, r.protectedSeqs.map(seqOf));
  await markInterrupted(tx, sessionId, r.interruptedSeqs.map(seqOf));

  // Compactions, oldest first, so each one's predecessor already has its new id.
  const compactionIds = new Map<string, string>();
  const summaries = new Map<string, { text: string | null; tokens: number; through: number }>();
  for (const c of r.compactions) {
    const id = await insertRestoredCompaction(tx, userId, sessionId, {
      ...c,
      at_seq: seqOf(c.at_seq),
      at_turn: c.at_turn ?? c.through_turn,
      prev_compaction_id: c.prev_compaction_id ? (compactionIds.get(c.prev_compaction_id) ?? null) : null,
      prev_window_start_turn: c.prev_window_start_turn ?? c.from_turn,
      cache_break: c.cache,
      created_at: c.created_at,
    });
    compactionIds.set(c.id, id);
    summaries.set(id, { text: c.summary, tokens: c.summary_tokens, through: c.through_turn });
  }
  const newest = [...r.compactions].reverse().find((c) => c.status === "applied");
  const window = r.window ?? { window_start_turn: newest ? newest.through_turn + 1 : 1, summary_id: newest?.id ?? null, cleared_through_seq: 0 };
  const summaryId = window.summary_id ? (compactionIds.get(window.summary_id) ?? null) : null;
  const summary = summaryId ? summaries.get(summaryId) : undefined;
  if (summaryId || window.window_start_turn > 1) {
    await installSummary(tx, sessionId, {
      summaryId,
      text: summary?.text ?? null,
      tokens: summary?.tokens ?? 0,
      throughTurn: summary?.through ?? 0,
      windowStartTurn: window.window_start_turn,
    });
  }

  // The canvas's history, then the checkpoints that point into it.
  const events = r.canvas_events ?? [];
  const newIds = events.length > 0 ? await insertRestoredCanvasEvents(tx, userId, sessionId, events.map((e) => ({ ...e, at_seq: seqOf(e.at_seq) }))) : [];
  const eventIds = new Map(events.map((e, i) => [e.id, newIds[i]]));
  const checkpoints = [...r.checkpoints].reverse();
  for (const c of checkpoints) {
    const sid = c.summary_id ? (compactionIds.get(c.summary_id) ?? null) : null;
    const s = sid ? summaries.get(sid) : undefined;
    const id = await insertRestoredCheckpoint(tx, userId, sessionId, {
      label: c.label,
      trigger: c.trigger,
      auto_tags: c.auto_tags,
      through_seq: seqOf(c.through_seq),
      through_turn: c.through_turn,
      window_start_turn: c.window_start_turn ?? 1,
      summary_id: sid,
      summary_text: s?.text ?? null,
      summary_tokens: c.summary_tokens ?? s?.tokens ?? 0,
      summary_through_turn: c.summary_through_turn ?? s?.through ?? 0,
      token_count: c.token_count,
      // 0: the canvas had never changed when it was saved.
      canvas_version: c.canvas_version == null || c.canvas_version === 0 ? (c.canvas_version ?? null) : (eventIds.get(c.canvas_version) ?? null),
      preview: c.preview,
      created_at: c.created_at,
    });
    links.checkpoints.set(c.id, id);
  }
  if (r.session.parent_session_id) {
    // A fork: linked to its parent when that came in too (or is still here), as a copy of what it inherited.
    const parent = await importedSession(tx, userId, "threadkeeper", r.session.parent_session_id);
    const from = r.session.forked_from_checkpoint_id;
    if (parent) await setForkLinks(tx, sessionId, parent, from ? (links.checkpoints.get(from) ?? from) : null);
  }

  const session = await getSession(tx, userId, sessionId);
  const instructions = r.instructions ?? null;
  const newestCheckpoint = checkpoints.at(-1);
  await restoreSessionFields(tx, sessionId, {
    // A model this server does not know (another registry, long retired) leaves the account's default.
    model: getModel(r.session.model) ? r.session.model : session.model,
    settings: r.session.settings,
    instructions,
    titleSource: r.session.title_source,
    pinned: r.session.pinned,
    archived: r.session.archived,
    clearedThroughSeq: window.cleared_through_seq > 0 ? seqOf(window.cleared_through_seq) : 0,
    lastCheckpoint: newestCheckpoint ? { at: newestCheckpoint.created_at, seq: seqOf(newestCheckpoint.through_seq) } : null,
    memory: r.memory_context ?? null,
  });
  if (instructions) {
    await tx.query(`update sessions set system_tokens = $2 where id = $1`, [sessionId, estimateSystemTokens(sessionSystemText(session.system_prompt, instructions))]);
  }
  if (r.canvas && (newIds.length > 0 || r.canvas.elements.length > 0)) {
    const version = eventIds.get(r.canvas.version) ?? newIds.at(-1) ?? 0;
    await storeCanvas(tx, sessionId, { state: { layout: r.canvas.layout, elements: r.canvas.elements }, version, tokens: 0 });
    await refreshCanvasTokens(tx, userId, await getSession(tx, userId, sessionId));
  }
}

/**
 * The window's counters as the next request would settle them (assembleWindow, without sliding):
 * an append adds every message's tokens, an earlier version's too, which the window leaves out.
 */
export async function settleWindow(tx: Tx, userId: string, sessionId: string): Promise<void> {
  const s = await getSession(tx, userId, sessionId);
  const { messages, saved } = clearToolResults(await windowRows(tx, s), s.cleared_through_seq);
  let tailTokens = 0;
  let pinnedTokens = 0;
  let clearedTokens = 0;
  for (const t of groupTurns(messages)) {
    if (t.turnSeq >= s.window_start_turn) tailTokens += t.tokens;
    else pinnedTokens += t.tokens;
    for (const m of t.messages) clearedTokens += saved.get(m.seq) ?? 0;
  }
  await updateWindow(tx, sessionId, { windowStartTurn: s.window_start_turn, tailTokens, pinnedTokens, clearedTokens });
}

/** An old seq as the new one: its own message's, else the nearest message before it (0 before any). */
function seqMap(oldSeqs: readonly number[], stored: StoredSeqs): (seq: number) => number {
  const pairs = oldSeqs.map((s, i) => [s, stored[i]?.seq ?? 0] as const).sort((a, b) => a[0] - b[0]);
  return (seq) => {
    let lo = 0;
    let hi = pairs.length - 1;
    let best = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[mid][0] <= seq) {
        best = pairs[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  };
}
