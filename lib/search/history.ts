// History search: anything ever said, found again. Hybrid like memory search: full-text over
// every message (found the moment it is saved) fused by RRF with the nearest message
// embeddings (added by the background indexer, lib/search/indexer.ts); beside them, the pages
// of the files the conversations carry that hold the query's words.
import "server-only";
import type { HistoryHitJson } from "@/lib/contract";
import { redactSecrets } from "@/lib/redact";
import type { Tx } from "@/lib/db";
import { searchFiles, type FileHitRow } from "@/lib/db/files";
import { hitDetails, thinkingMatches, vectorCandidates } from "@/lib/db/history-search";
import { keywordCandidates } from "./keywords";
import { getEmbedder, toPgVector } from "@/lib/memory/embedder";
import { fusedRank, vectorWeight } from "@/lib/memory/rank";
import { excerptOf, queryTerms, snippetOf, truncateAround } from "@/lib/context/snippet";

/** Width of `message_embeddings.embedding` (halfvec(256)): a quarter of memories', see the migration. */
export const HISTORY_EMBEDDING_DIMENSIONS = 256;
export const MAX_TEXT_CHARS = 2_000;
// Enough of a long message for the snippet to find a match deep in it (the tsvector covers 100K).
const MAX_FETCH_CHARS = 100_000;
const MIN_CANDIDATES = 50;
/**
 * An earlier version (a turn an edit replaced, a reply a regenerated one replaced) stays
 * findable, since it was said, but counts half: the live version, matching about as well,
 * ranks above it.
 */
export const REPLACED_FACTOR = 0.5;
/**
 * A message only the embedding finds (no keyword match) must be at least this similar: the
 * nearest neighbours of any query exist, related or not. Measured for the local lexical
 * embedder at 256 dimensions: made-up words against 300 generated messages score p99.9 0.23,
 * at most 0.36 (hash collisions, highest for a one-word query against a long message), while a
 * query sharing a few words with a short message scores 0.4-0.7. (At 0.25 a search for a
 * unique word listed long unrelated messages under the one that said it.) A semantic provider
 * (Voyage) puts unrelated texts higher, hence its own, untuned, bar.
 */
export function minVectorOnlySimilarity(model: string): number {
  return model.startsWith("local-") ? 0.35 : 0.45;
}

export interface HistoryQuery {
  q: string;
  sessionId?: string;
  projectId?: string;
  from?: Date;
  to?: Date;
  limit: number;
  excludeSessionId?: string;
  /** Also find replies by words in Claude's thinking, which search otherwise leaves out. */
  includeThinking?: boolean;
}

/** At most this many of a query's words must all be in a reply's thinking for it to match. */
const THINKING_WORDS = 8;

export type HistoryHit = HistoryHitJson;

/** A query's embedding for the history column; null when there is nothing to embed. */
export interface QueryVector {
  vector: string | null;
  model: string;
}

/**
 * Embeds a query outside any transaction (Voyage is an HTTP call): pass the result to
 * `searchHistory` to keep the transaction short.
 */
export async function embedHistoryQuery(q: string): Promise<QueryVector> {
  const embedder = getEmbedder(HISTORY_EMBEDDING_DIMENSIONS);
  const [v] = await embedder.embed([q], "query");
  return { vector: v && v.some((x) => x !== 0) ? toPgVector(v) : null, model: embedder.model };
}

/**
 * The user's messages, and pages of the files their messages carry, that best match `q.q`, best first. The user's own only (explicit filter
 * and RLS). With `sessionId`, that session's whole view, inherited rows included (reported
 * under the fork's id); with `excludeSessionId`, everything but that session's view.
 */
export async function searchHistory(tx: Tx, userId: string, q: HistoryQuery, embedded?: QueryVector): Promise<HistoryHit[]> {
  const text = q.q.trim();
  if (!text || q.limit < 1) return [];
  const perList = Math.max(MIN_CANDIDATES, q.limit * 2);
  const qv = embedded ?? (await embedHistoryQuery(text));
  const byText = await keywordCandidates(tx, userId, q, text, perList);
  const byVector = qv.vector ? await vectorCandidates(tx, userId, q, { vector: qv.vector, model: qv.model }, perList) : [];

  const ranks = new Map<string, { text: number | null; vector: number | null }>();
  for (const h of byText) ranks.set(h.message_id, { text: h.rank, vector: null });
  const bar = minVectorOnlySimilarity(qv.model);
  for (const h of byVector) {
    const r = ranks.get(h.message_id);
    if (r) r.vector = h.rank;
    else if (h.similarity >= bar) ranks.set(h.message_id, { text: null, vector: h.rank });
  }
  // Asked to, replies whose thinking holds the query's words rank after what the text found.
  const thinking = new Map<string, string>();
  if (q.includeThinking) {
    const found = await thinkingMatches(tx, userId, q, queryTerms(text).slice(0, THINKING_WORDS), perList);
    for (const [i, m] of found.entries()) {
      if (ranks.has(m.message_id)) continue;
      thinking.set(m.message_id, m.thinking);
      ranks.set(m.message_id, { text: byText.length + i + 1, vector: null });
    }
  }
  // Replaced versions count half, so a few more than asked are detailed before cutting.
  const weight = vectorWeight(qv.model);
  const fused = [...ranks].map(([id, r]) => ({ id, fused: fusedRank(r.vector, r.text, weight) })).sort((a, b) => b.fused - a.fused);
  const shortlist = fused.slice(0, q.limit * 2);
  const rows = await hitDetails(tx, userId, q, shortlist.map((c) => c.id), MAX_FETCH_CHARS);
  const fusedOf = new Map(shortlist.map((c) => [c.id, c.fused]));
  const terms = queryTerms(text);
  const messages: HistoryHit[] = rows
    .map((r) => {
      const score = Math.round((fusedOf.get(r.message_id) ?? 0) * (r.replaced ? REPLACED_FACTOR : 1) * 1e6) / 1e6;
      return { r, score };
    })
    .sort((a, b) => b.score - a.score || b.r.created_at.getTime() - a.r.created_at.getTime() || a.r.message_id.localeCompare(b.r.message_id))
    .slice(0, q.limit)
    .map(({ r, score }) => {
      // Redacted before anything is cut from it, so a key is never half-shown.
      const clean = redactSecrets(r.text);
      const thought = thinking.get(r.message_id);
      return {
        session_id: r.session_id,
        session_title: r.session_title,
        message_id: r.message_id,
        seq: r.seq,
        turn_seq: r.turn_seq,
        role: r.role,
        snippet: snippetOf(thought === undefined ? clean : redactSecrets(thought), terms),
        text: truncateAround(clean, terms, MAX_TEXT_CHARS),
        score,
        created_at: r.created_at.toISOString(),
        ...(thought === undefined ? {} : { in_thinking: true }),
      };
    });
  // Files: one more indexed statement. Their pages rank among themselves (ts_rank) and the i-th
  // scores as the i-th message found by words alone would, so the best page of a file sits
  // beside the best keyword matches and below a message both halves found.
  const files = await searchFiles(tx, userId, q, text, q.limit, MAX_FETCH_CHARS);
  const fileHits = files.map((f, i) => fileHit(f, terms, Math.round(fusedRank(null, i + 1, weight) * 1e6) / 1e6));
  // At an equal score what was said comes before what a file holds; then the newer first.
  return [...messages, ...fileHits]
    .sort((a, b) => b.score - a.score || Number(a.file !== undefined) - Number(b.file !== undefined) || b.created_at.localeCompare(a.created_at))
    .slice(0, q.limit);
}

/** A page of a file as a hit: the page's words around the match, under the message that carries the file. */
function fileHit(f: FileHitRow, terms: readonly string[], score: number): HistoryHit {
  const clean = redactSecrets(f.text);
  return {
    session_id: f.session_id,
    session_title: f.session_title,
    message_id: f.message_id,
    seq: f.seq,
    turn_seq: f.turn_seq,
    role: f.role,
    snippet: snippetOf(clean, terms),
    text: excerptOf(clean, terms, MAX_TEXT_CHARS, MAX_TEXT_CHARS / 4),
    score,
    created_at: f.created_at.toISOString(),
    file: { id: f.file_id, name: f.name, page: f.page },
  };
}
