// The recall benchmark's passes over a generated corpus (./recall-corpus.ts), each on its own
// in-memory PGlite and only through the product's own functions: messages written by
// appendMessage (as the send path writes them), compaction by compactSession, the request by
// assembleWindow + buildRequest, memories by archiveSession / saveMemory /
// loadMemoriesForSession, search by searchMemories and (when the build has it) searchHistory.
import { performance } from "node:perf_hooks";
import type { MemoryHitJson } from "@/lib/contract";
import { archiveSession } from "@/lib/operations/archive";
import { compactSession } from "@/lib/operations/compact";
import { assembleWindow, fixedRawTokens, loadContext } from "@/lib/operations/session-context";
import { loadMemoriesForSession, saveMemory, searchMemories } from "@/lib/operations/memory";
import { buildRequest } from "@/lib/turn/request";
import { createSession } from "@/lib/operations/sessions";
import { blocksToText } from "@/lib/context/text";
import { groupTurns } from "@/lib/context/turns";
import { openEmbedded, setDb, withUser, type Database, type Tx } from "@/lib/db";
import { appendMessage, tailMessages } from "@/lib/db/messages";
import { getSession } from "@/lib/db/sessions";
import { ensureEmbeddedUser } from "@/lib/db/users";
import type { LlmRequest } from "@/lib/llm/client";
import { renderMemory } from "@/lib/memory/rank";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";
import { answerVisible, messageText, normalise, transcript, type QuestionKind, type RecallCorpus, type RecallQuestion, type RecallTurn } from "./recall-corpus";

const userId = (group: number, n: number) => `${String(group).padStart(8, "0")}-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A fresh in-memory database for one pass; the app's getDb() points back to `restore` afterwards. */
export async function onFreshDb<T>(restore: Database | undefined, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openEmbedded("memory://");
  setDb(db);
  try {
    return await fn(db);
  } finally {
    setDb(restore);
    await db.close();
  }
}

/** One session of the corpus written message by message, as the send path writes them. */
async function writeSession(uid: string, title: string, turns: readonly RecallTurn[]): Promise<string> {
  const session = await createSession(uid, { title });
  await withUser(uid, async (tx) => {
    for (const t of turns) {
      for (const [role, text] of [["user", t.user], ["assistant", t.assistant]] as const) {
        const content = [{ type: "text" as const, text }];
        await appendMessage(tx, uid, session.id, {
          role,
          content,
          text,
          tokenCount: estimateMessageTokens(role, content),
          status: "complete",
          startsTurn: role === "user",
        });
      }
    }
  });
  return session.id;
}

/** Every text of a request as Claude receives it (system blocks, message text and tool blocks), joined. */
export function requestText(request: LlmRequest): string {
  const parts: string[] = request.system.map((b) => b.text);
  const walk = (v: unknown): void => {
    if (typeof v === "string") parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) if (k !== "type" && k !== "cache_control" && k !== "id" && k !== "tool_use_id") walk(x);
    }
  };
  for (const m of request.messages) walk(m.content);
  return parts.join("\n");
}

// ------------------------------------------------------------------ a. visibility after compaction

/**
 * How the compaction is forced: "manual" is /compact with force (it keeps up to a quarter of
 * the turns' tokens verbatim); "target" asks compactSession, as overflow recovery does, for a
 * request of the fixed part plus (1 - TARGET_REDUCTION) of the conversation.
 */
export type CompactMode = "manual" | "target";
export const TARGET_REDUCTION = 0.6;

export interface VisibilityRow {
  question: RecallQuestion;
  full: boolean;
  compacted: boolean;
  truncated: boolean;
  /** The evidence reached the asking session only through a memory loaded at its first message. */
  viaMemory: boolean;
}

export interface CompactionStats {
  method: string;
  /** As the product reports it: the whole request before and after, loaded memories included. */
  reductionPercent: number;
  /** Of the conversation alone: the session's messages before, summary + window messages after. */
  historyReductionPercent: number;
  historyTokens: number;
  historyTokensAfter: number;
  durationMs: number;
  retention: number;
}

export interface VisibilityResult {
  rows: VisibilityRow[];
  compactions: CompactionStats[];
  ms: number;
}

/**
 * Per user, session by session as they would happen: memories of the earlier (archived)
 * sessions load at the first message, the session is written, compacted by force (the manual
 * /compact path), and then archived. Each question asked in the session is checked against
 * three views of the same request: the assembled one after compaction, the session's full
 * history, and plain truncation (the newest turns that fit the compacted request's tokens).
 * All three carry the same system prompt and loaded memories.
 */
export async function visibilityPass(db: Database, corpus: RecallCorpus, group: number, mode: CompactMode): Promise<VisibilityResult> {
  const started = performance.now();
  const rows: VisibilityRow[] = [];
  const compactions: CompactionStats[] = [];
  for (const u of corpus.users) {
    const uid = userId(group, u.index);
    await ensureEmbeddedUser(db, uid, null);
    for (let s = 0; s < u.sessions.length; s++) {
      const turns = u.sessions[s];
      const sid = await writeSession(uid, `recall u${u.index} s${s}`, turns);
      await loadMemoriesForSession(uid, sid, turns[0].user);
      const full = await withUser(uid, async (tx) => {
        const session = await getSession(tx, uid, sid);
        const messages = await tailMessages(tx, sid, 1);
        const fixed = session.system_prompt + (session.memory_text ?? "");
        return {
          fixed,
          fixedTokens: session.system_tokens + session.memory_tokens,
          turns: groupTurns(messages),
          text: normalise([fixed, ...messages.map((m) => blocksToText(m.content))].join("\n")),
          historyTokens: messages.reduce((n, m) => n + m.tokenCount, 0),
        };
      });
      const outcome = await compactSession(
        uid,
        sid,
        mode === "manual"
          ? { trigger: "manual", force: true }
          : // Asked, as overflow recovery asks, to bring the request down to its fixed part plus 40 % of the conversation.
            { trigger: "error_recovery", targetRaw: full.fixedTokens + Math.floor(full.historyTokens * (1 - TARGET_REDUCTION)) },
      );
      const seen = await withUser(uid, async (tx) => viewAfterCompaction(tx, uid, sid));
      // Plain truncation at the same budget: the same fixed part, then the newest whole turns
      // that fit in the tokens the summary and window take.
      const budget = seen.historyTokens;
      const kept: string[] = [];
      let used = 0;
      for (let i = full.turns.length - 1; i >= 0; i--) {
        if (used + full.turns[i].tokens > budget) break;
        used += full.turns[i].tokens;
        kept.push(...full.turns[i].messages.map((m) => blocksToText(m.content)));
      }
      const truncated = normalise([full.fixed, ...kept].join("\n"));
      const memoryText = normalise(full.fixed);
      for (const q of u.questions.filter((x) => x.askSession === s)) {
        rows.push({
          question: q,
          full: answerVisible(full.text, q.answers),
          compacted: answerVisible(seen.text, q.answers),
          truncated: answerVisible(truncated, q.answers),
          viaMemory: q.evidence.session !== s && answerVisible(memoryText, q.answers),
        });
      }
      const c = outcome.kind === "compacted" ? outcome.compaction : null;
      compactions.push({
        method: c ? c.method : `skipped: ${outcome.kind === "skipped" ? outcome.reason : ""}`,
        reductionPercent: c ? c.reduction_percent : 0,
        historyReductionPercent: full.historyTokens > 0 ? 100 * (1 - seen.historyTokens / full.historyTokens) : 0,
        historyTokens: full.historyTokens,
        historyTokensAfter: seen.historyTokens,
        durationMs: c ? c.duration_ms : 0,
        retention: c ? c.retention_rate : 0,
      });
      await archiveSession(uid, sid);
    }
  }
  return { rows, compactions, ms: performance.now() - started };
}

/** What the next request would carry: the window assembled as the send path does, built into the API request. */
export async function viewAfterCompaction(tx: Tx, uid: string, sid: string): Promise<{ text: string; rawTokens: number; historyTokens: number }> {
  const ctx = await loadContext(tx, uid, await getSession(tx, uid, sid));
  const win = await assembleWindow(tx, ctx, ctx.calibration.factor);
  return {
    text: normalise(requestText(buildRequest(ctx, win.messages, null).request)),
    rawTokens: win.rawTokens,
    // What stands for the conversation itself: the summary and the window's messages.
    historyTokens: win.rawTokens - fixedRawTokens(ctx) + ctx.session.summary_tokens,
  };
}

// ------------------------------------------------------------------ b. memory recall, c. history search

export interface RankRow {
  question: RecallQuestion;
  /** 1-based rank of the first hit from the evidence session (null: not in the list). */
  archivedRank: number | null;
  /** Some memory in the archived top 5 holds the answer, as loaded into a prompt (renderMemory). */
  archivedAnswerTop5: boolean;
  verbatimRank: number | null;
  verbatimAnswerTop5: boolean;
  /** Sources of the archived hits from the evidence session in the top 10 (e.g. "archive"; fact memories once they exist). */
  archivedSources: string[];
  /** History search: rank of the evidence turn (either message of it) and of the exact message; undefined when unavailable. */
  historyTurnRank?: number | null;
  historyMessageRank?: number | null;
}

export interface HistorySearchHit {
  session_id: string;
  seq: number;
}

export type HistorySearch = (tx: Tx, userId: string, opts: { q: string; limit: number }) => Promise<unknown>;

export interface SearchResult {
  rows: RankRow[];
  memorySearchMs: number[];
  historySearchMs: number[];
  history: { available: true } | { available: false; reason: string };
  seedMs: number;
  ms: number;
}

const K = 10;

/**
 * `lib/search/history.ts` is built on another branch: its real `searchHistory` is measured
 * when this build has it, and the table says so plainly when it does not. The specifier is a
 * variable so this compiles either way.
 */
export async function loadHistorySearch(): Promise<{ fn: HistorySearch } | { reason: string }> {
  // BENCH_RECALL_HISTORY_MODULE: another module with the same contract, by path (to check this harness).
  const spec = process.env.BENCH_RECALL_HISTORY_MODULE || "@/lib/search/history";
  let mod: Record<string, unknown>;
  try {
    mod = (await import(spec)) as Record<string, unknown>;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") return { reason: `not available on this build (no ${spec === "@/lib/search/history" ? "lib/search/history.ts" : spec})` };
    throw err;
  }
  const fn = mod.searchHistory;
  if (typeof fn !== "function") return { reason: "not available on this build (lib/search/history.ts exports no searchHistory)" };
  return { fn: fn as HistorySearch };
}

function historyHits(out: unknown): HistorySearchHit[] {
  const list = Array.isArray(out) ? out : (out as { hits?: unknown } | null)?.hits;
  if (!Array.isArray(list)) throw new Error("searchHistory: expected an array of hits (or { hits })");
  return list.map((h: unknown) => {
    const x = h as Partial<HistorySearchHit>;
    if (typeof x.session_id !== "string" || typeof x.seq !== "number") throw new Error("searchHistory: a hit without session_id and seq");
    return { session_id: x.session_id, seq: x.seq };
  });
}

const rankOf = <T>(xs: readonly T[], hit: (x: T) => boolean): number | null => {
  const i = xs.findIndex(hit);
  return i < 0 ? null : i + 1;
};

/**
 * Every session archived into a memory (archiveSession, no compaction before), and the same
 * sessions saved verbatim as memories of a twin user (saveMemory): the question is asked of
 * searchMemories for each. History search, when present, runs over the archived user's messages.
 */
export async function searchPass(db: Database, corpus: RecallCorpus, group: number): Promise<SearchResult> {
  const started = performance.now();
  const history = await loadHistorySearch();
  const sessionIds = new Map<string, string>();
  for (const u of corpus.users) {
    const uid = userId(group, u.index);
    const twin = userId(group + 1, u.index);
    await ensureEmbeddedUser(db, uid, null);
    await ensureEmbeddedUser(db, twin, null);
    for (let s = 0; s < u.sessions.length; s++) {
      const sid = await writeSession(uid, `recall u${u.index} s${s}`, u.sessions[s]);
      sessionIds.set(`${u.index}:${s}`, sid);
      await archiveSession(uid, sid);
      await saveMemory(twin, { summary: transcript(u.sessions[s]), key_decisions: [], code_references: [], tags: [`session-${s}`] });
    }
  }
  await db.execAutocommit("vacuum analyze");
  const seedMs = performance.now() - started;

  const rows: RankRow[] = [];
  const memorySearchMs: number[] = [];
  const historySearchMs: number[] = [];
  for (const u of corpus.users) {
    const uid = userId(group, u.index);
    const twin = userId(group + 1, u.index);
    for (const q of u.questions) {
      const evidenceSid = sessionIds.get(`${u.index}:${q.evidence.session}`);
      const t0 = performance.now();
      const archived = await searchMemories(uid, q.question, {}, K);
      memorySearchMs.push(performance.now() - t0);
      const verbatim = await searchMemories(twin, q.question, {}, K);
      const answerIn = (hits: MemoryHitJson[]) => answerVisible(normalise(hits.slice(0, 5).map(renderMemory).join("\n")), q.answers);
      const row: RankRow = {
        question: q,
        archivedRank: rankOf(archived, (h) => h.session_id === evidenceSid),
        archivedAnswerTop5: answerIn(archived),
        verbatimRank: rankOf(verbatim, (h) => h.tags.includes(`session-${q.evidence.session}`)),
        verbatimAnswerTop5: answerIn(verbatim),
        archivedSources: [...new Set(archived.filter((h) => h.session_id === evidenceSid).map((h) => h.source))],
      };
      if ("fn" in history) {
        const search = history.fn;
        const t1 = performance.now();
        const hits = historyHits(await withUser(uid, (tx) => search(tx, uid, { q: q.question, limit: K })));
        historySearchMs.push(performance.now() - t1);
        const turnSeqs = [2 * q.evidence.turn + 1, 2 * q.evidence.turn + 2];
        row.historyTurnRank = rankOf(hits, (h) => h.session_id === evidenceSid && turnSeqs.includes(h.seq));
        row.historyMessageRank = rankOf(hits, (h) => h.session_id === evidenceSid && h.seq === q.evidence.seq);
      }
      rows.push(row);
    }
  }
  await checkEvidence(corpus, group, sessionIds);
  return {
    rows,
    memorySearchMs,
    historySearchMs,
    history: "fn" in history ? { available: true } : { available: false, reason: history.reason },
    seedMs,
    ms: performance.now() - started,
  };
}

/** The stored message at each evidence seq must be the generated one, or every rank above means nothing. */
async function checkEvidence(corpus: RecallCorpus, group: number, sessionIds: Map<string, string>): Promise<void> {
  for (const u of corpus.users) {
    const uid = userId(group, u.index);
    await withUser(uid, async (tx) => {
      for (const q of u.questions) {
        const sid = sessionIds.get(`${u.index}:${q.evidence.session}`);
        const [m] = await tx.query<{ text: string }>("select text from messages where session_id = $1 and seq = $2", [sid, q.evidence.seq]);
        if (m?.text !== messageText(u, q.evidence)) throw new Error(`recall bench: evidence of ${q.id} is not at seq ${q.evidence.seq}`);
      }
    });
  }
}

export const KINDS: readonly QuestionKind[] = ["single", "cross", "temporal"];
