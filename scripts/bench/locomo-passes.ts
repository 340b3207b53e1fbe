// The LoCoMo measures, through the product's own functions on a fresh in-memory PGlite: turns
// written by appendMessage (as the send path writes them), the background indexer's embeddings,
// searchHistory (what GET /api/search runs), archiveSession and searchMemories (what
// POST /api/session/{id}/archive and POST /api/memory/search run), compactSession with
// assembleWindow + buildRequest for what Claude would be sent.
import { performance } from "node:perf_hooks";
import { archiveSession } from "@/lib/operations/archive";
import { compactSession } from "@/lib/operations/compact";
import { saveMemory, searchMemories } from "@/lib/operations/memory";
import { createSession } from "@/lib/operations/sessions";
import { blocksToText } from "@/lib/context/text";
import { groupTurns } from "@/lib/context/turns";
import { withUser, type Database } from "@/lib/db";
import { appendMessage, tailMessages } from "@/lib/db/messages";
import { getSession } from "@/lib/db/sessions";
import { ensureEmbeddedUser } from "@/lib/db/users";
import { renderMemory } from "@/lib/memory/rank";
import { searchHistory } from "@/lib/search/history";
import { indexPendingMessages } from "@/lib/search/indexer";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";
import { answerIndex, answerWordsIn, Bm25, type LocomoConversation, type LocomoQuestion, type LocomoTurn } from "./locomo-data";
import { viewAfterCompaction } from "./recall-passes";

/**
 * How the two speakers are stored: "alternate" (default) writes the first speaker's turns as
 * the user's and the second's as the assistant's; "user" writes every turn as the user's.
 */
export type RoleMode = "alternate" | "user";

const K = 10;
const MEMORY_K = 5;
/** Forced compaction to this share of the conversation's tokens (the README's protocol). */
export const KEEP_SHARE = 0.4;

const userId = (group: number, n: number) => `${String(group).padStart(8, "0")}-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** Writes turns into one new session; returns it and each message's diaId by seq. */
async function writeTurns(uid: string, title: string, turns: readonly LocomoTurn[], c: LocomoConversation, roles: RoleMode) {
  const session = await createSession(uid, { title });
  const bySeq = new Map<number, string>();
  await withUser(uid, async (tx) => {
    for (const t of turns) {
      const role = roles === "user" || t.speaker === c.speakers[0] ? "user" : "assistant";
      const content = [{ type: "text" as const, text: t.message }];
      const row = await appendMessage(tx, uid, session.id, {
        role,
        content,
        text: t.message,
        tokenCount: estimateMessageTokens(role, content),
        status: "complete",
        startsTurn: role === "user",
      });
      bySeq.set(row.seq, t.diaId);
    }
  });
  return { sessionId: session.id, bySeq };
}

export interface SearchRow {
  question: LocomoQuestion;
  /** Rank (1-based) of the first evidence turn in the product's history search, and in BM25; null: not in the top 10. */
  history: number | null;
  bm25: number | null;
  /** Rank of the first memory from an evidence session: archived, and raw session text. */
  archived: number | null;
  raw: number | null;
  /** The answer's words in the top 5 memories' text as loaded into a prompt. */
  archivedAnswer: boolean;
  rawAnswer: boolean;
}

export interface SearchPassResult {
  rows: SearchRow[];
  historyMs: number[];
  memoryMs: number[];
  archiveMs: number[];
  memories: { summaries: number; facts: number };
}

const rankOf = <T>(xs: readonly T[], hit: (x: T) => boolean): number | null => {
  const i = xs.findIndex(hit);
  return i < 0 ? null : i + 1;
};

/** Where a conversation's turns went: each LoCoMo session's product session, each message's turns. */
export interface Ingested {
  sessionOf: Map<number, string>;
  /** `${sessionId}:${seq}` -> the diaIds of the turns that message holds (one, unless a source joined some). */
  where: Map<string, string[]>;
}

/** How a conversation gets into the product for one user: written natively, or imported (./locomo-import.ts). */
export type Ingest = (uid: string, c: LocomoConversation, roles: RoleMode) => Promise<Ingested>;

/** One product session per LoCoMo session, every turn written as the send path writes it. */
export const ingestNative: Ingest = async (uid, c, roles) => {
  const where = new Map<string, string[]>();
  const sessionOf = new Map<number, string>();
  for (const s of c.sessions) {
    const { sessionId, bySeq } = await writeTurns(uid, `${s.date}`, s.turns, c, roles);
    sessionOf.set(s.n, sessionId);
    for (const [seq, dia] of bySeq) where.set(`${sessionId}:${seq}`, [dia]);
  }
  return { sessionOf, where };
};

/**
 * One product session per LoCoMo session for one user (written by `ingest`): each question
 * asked of history search (then BM25 over the same turns), then every session archived (and,
 * for a twin user, saved verbatim as one memory) and the question asked of memory search.
 */
export async function searchPass(db: Database, c: LocomoConversation, group: number, roles: RoleMode, ingest: Ingest = ingestNative): Promise<SearchPassResult> {
  const uid = userId(group, 1);
  const twin = userId(group, 2);
  await ensureEmbeddedUser(db, uid, null);
  await ensureEmbeddedUser(db, twin, null);
  const { sessionOf, where } = await ingest(uid, c, roles);
  while ((await indexPendingMessages(db)) > 0);
  await db.execAutocommit("vacuum analyze");

  const turns = c.sessions.flatMap((s) => s.turns);
  const bm25 = new Bm25(turns.map((t) => t.message));
  const rows: SearchRow[] = [];
  const historyMs: number[] = [];
  for (const q of c.questions) {
    const t0 = performance.now();
    const hits = await withUser(uid, (tx) => searchHistory(tx, uid, { q: q.question, limit: K }));
    historyMs.push(performance.now() - t0);
    const found = hits.map((h) => where.get(`${h.session_id}:${h.seq}`) ?? []);
    const ref = bm25.top(q.question, K).map((i) => turns[i].diaId);
    rows.push({
      question: q,
      history: rankOf(found, (ds) => ds.some((d) => q.evidence.includes(d))),
      bm25: rankOf(ref, (d) => q.evidence.includes(d)),
      archived: null,
      raw: null,
      archivedAnswer: false,
      rawAnswer: false,
    });
  }

  const archiveMs: number[] = [];
  for (const s of c.sessions) {
    const t0 = performance.now();
    await archiveSession(uid, sessionOf.get(s.n)!);
    archiveMs.push(performance.now() - t0);
    await saveMemory(twin, { summary: s.turns.map((t) => t.message).join("\n"), key_decisions: [], code_references: [], tags: [`session-${s.n}`] });
  }
  await db.execAutocommit("vacuum analyze");
  const memoryMs: number[] = [];
  const evidenceSessions = (q: LocomoQuestion) => new Set(q.evidence.map((e) => Number(/^D(\d+):/.exec(e)![1])));
  const answerIn = (hits: Parameters<typeof renderMemory>[0][], answer: string) => answerWordsIn(answerIndex(hits.slice(0, MEMORY_K).map(renderMemory).join("\n")), answer);
  for (const row of rows) {
    const q = row.question;
    const sessions = evidenceSessions(q);
    const ids = new Set([...sessions].map((n) => sessionOf.get(n)));
    const t0 = performance.now();
    const archived = await searchMemories(uid, q.question, {}, MEMORY_K);
    memoryMs.push(performance.now() - t0);
    const raw = await searchMemories(twin, q.question, {}, MEMORY_K);
    row.archived = rankOf(archived, (h) => h.session_id !== null && ids.has(h.session_id));
    row.raw = rankOf(raw, (h) => h.tags.some((t) => sessions.has(Number(t.slice("session-".length)))));
    row.archivedAnswer = answerIn(archived, q.answer);
    row.rawAnswer = answerIn(raw, q.answer);
  }
  const [counts] = await withUser(uid, (tx) =>
    tx.query<{ summaries: number; facts: number }>(
      `select count(*) filter (where kind = 'summary')::int as summaries, count(*) filter (where kind = 'fact')::int as facts from session_memories`,
    ),
  );
  return { rows, historyMs, memoryMs, archiveMs, memories: counts };
}

export interface VisibilityRow {
  question: LocomoQuestion;
  full: boolean;
  compacted: boolean;
  truncated: boolean;
}

export interface VisibilityPassResult {
  rows: VisibilityRow[];
  method: string;
  historyTokens: number;
  historyTokensAfter: number;
  reductionPct: number;
  compactionMs: number;
}

/**
 * The whole conversation in one session, compacted by force to the fixed part plus KEEP_SHARE
 * of the conversation's tokens (as overflow recovery asks); each question's answer words looked
 * for in what Claude would be sent then, in the full history and in plain truncation to the
 * same tokens.
 */
export async function visibilityPass(db: Database, c: LocomoConversation, group: number, roles: RoleMode): Promise<VisibilityPassResult> {
  const uid = userId(group, 3);
  await ensureEmbeddedUser(db, uid, null);
  const { sessionId } = await writeTurns(uid, `LoCoMo ${c.id}`, c.sessions.flatMap((s) => s.turns), c, roles);
  const full = await withUser(uid, async (tx) => {
    const session = await getSession(tx, uid, sessionId);
    const messages = await tailMessages(tx, sessionId, 1);
    const fixed = session.system_prompt + (session.memory_text ?? "");
    return {
      fixed,
      fixedTokens: session.system_tokens + session.memory_tokens,
      turns: groupTurns(messages),
      text: [fixed, ...messages.map((m) => blocksToText(m.content))].join("\n"),
      historyTokens: messages.reduce((n, m) => n + m.tokenCount, 0),
    };
  });
  const t0 = performance.now();
  const outcome = await compactSession(uid, sessionId, {
    trigger: "error_recovery",
    targetRaw: full.fixedTokens + Math.floor(full.historyTokens * KEEP_SHARE),
  });
  const compactionMs = performance.now() - t0;
  const seen = await withUser(uid, (tx) => viewAfterCompaction(tx, uid, sessionId));
  const kept: string[] = [];
  let used = 0;
  for (let i = full.turns.length - 1; i >= 0; i--) {
    if (used + full.turns[i].tokens > seen.historyTokens) break;
    used += full.turns[i].tokens;
    kept.push(...full.turns[i].messages.map((m) => blocksToText(m.content)));
  }
  const fullWords = answerIndex(full.text);
  const seenWords = answerIndex(seen.text);
  const truncatedWords = answerIndex([full.fixed, ...kept].join("\n"));
  return {
    rows: c.questions.map((q) => ({
      question: q,
      full: answerWordsIn(fullWords, q.answer),
      compacted: answerWordsIn(seenWords, q.answer),
      truncated: answerWordsIn(truncatedWords, q.answer),
    })),
    method: outcome.kind === "compacted" ? outcome.compaction.method : `skipped: ${outcome.kind === "skipped" ? outcome.reason : outcome.kind}`,
    historyTokens: full.historyTokens,
    historyTokensAfter: seen.historyTokens,
    reductionPct: full.historyTokens > 0 ? 100 * (1 - seen.historyTokens / full.historyTokens) : 0,
    compactionMs,
  };
}
