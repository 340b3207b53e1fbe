// The queries behind history search: two candidate lists (full-text and nearest vectors) over
// the messages a scope can see, then the details of the few that make the cut.
import "server-only";
import type { CorpusStat, ScoredDoc, TermStat } from "@/lib/context/bm25";
import type { Tx } from "./driver";
import { lexemesOf, termCounts, termCountsOf } from "./fulltext";

export interface HistoryScope {
  sessionId?: string;
  projectId?: string;
  excludeSessionId?: string;
  from?: Date;
  to?: Date;
}

export interface ArmHit {
  message_id: string;
  rank: number;
}

export interface VectorHit extends ArmHit {
  similarity: number;
}

// A message a session sees without owning it: one of its lineage ranges covers it.
const INHERITED_BY = (sessionParam: string) =>
  `exists (select 1 from session_lineage l where l.session_id = ${sessionParam}
     and l.source_session_id = m.session_id and m.seq between l.from_seq and l.to_seq)`;

/**
 * The rows a search reads, as `m` with the user's own filter. With a session: its whole view
 * (own and inherited rows, through the inlined `session_messages`), so a fork finds what it
 * inherited. Otherwise every message of the user, narrowed by project (a session of the
 * project owns it or inherits it) and with one session's view left out (the recall tool asks
 * for "elsewhere"). Parameters: $1 user, $2 session, $3 project, $4 excluded session, $5/$6 dates.
 */
function scoped(s: HistoryScope): string {
  // Tool results are left out (not `searchable`): a recall's result repeats messages found
  // elsewhere, and the next recall would find the copy instead of (or beside) the original.
  const common = `m.user_id = $1 and m.searchable
    and ($5::timestamptz is null or m.created_at >= $5) and ($6::timestamptz is null or m.created_at <= $6)`;
  if (s.sessionId) {
    return `session_messages($2::uuid) m where ${common}
      and ($3::uuid is null or exists (select 1 from sessions s where s.id = $2 and s.project_id = $3))
      and ($4::uuid is null or $4 <> $2)`;
  }
  return `messages m where ${common} and ${ACROSS}`;
}

/** Across the history: narrowed by project, one session's view left out (by `m`'s session and seq alone). */
const ACROSS = `$2::uuid is null
    and ($3::uuid is null
      or exists (select 1 from sessions s where s.id = m.session_id and s.project_id = $3)
      or exists (select 1 from session_lineage l join sessions s on s.id = l.session_id
        where l.source_session_id = m.session_id and m.seq between l.from_seq and l.to_seq and s.project_id = $3))
    and ($4::uuid is null or not (m.session_id = $4 or ${INHERITED_BY("$4::uuid")}))`;

function scopeParams(userId: string, s: HistoryScope): unknown[] {
  return [userId, s.sessionId ?? null, s.projectId ?? null, s.excludeSessionId ?? null, s.from ?? null, s.to ?? null];
}

/**
 * How many of the user's newest matches the session picker's keyword search reads (see
 * migrations 20261123000013 and 000017): a common word costs the same at any history size.
 */
export const KEYWORD_MATCH_CAP = 250;

/** A query's words as full-text search stems them, with their document frequencies for the user and the user's totals. */
export async function termStats(tx: Tx, userId: string, text: string): Promise<{ terms: TermStat[]; corpus: CorpusStat }> {
  // Both tables take each change as a row of its own until folded (lib/db/rollups.ts): summed.
  const terms = await tx.query<TermStat>(
    `select t.lexeme, coalesce((select sum(s.df) from search_terms s where s.user_id = $1 and s.term = hashtextextended(t.lexeme, 0)), 0)::int as df
     from (${lexemesOf("$2")}) t`,
    [userId, text],
  );
  const [totals] = await tx.query<{ docs: string; words: string }>(
    `select sum(docs) as docs, sum(words) as words from search_totals where user_id = $1`,
    [userId],
  );
  const docs = Number(totals?.docs ?? 0);
  return { terms, corpus: { docs, avgLen: docs > 0 ? Number(totals!.words) / docs : 0 } };
}

export interface KeywordDoc extends ScoredDoc {
  /** When it was said: its own leading timestamp (an imported log line), else when it was stored. */
  saidAt: Date;
}

interface DocRow {
  id: string;
  session_id: string;
  seq: number;
  len: number | null;
  tf: string;
  said_at: Date;
}

const toDoc = (r: DocRow): KeywordDoc => ({ id: r.id, sessionId: r.session_id, seq: r.seq, len: r.len ?? 0, tf: termCountsOf(r.tf), saidAt: r.said_at });

/**
 * The messages of the scope matching `tsquery` (see lexemeQuery), newest first, at most `cap`,
 * with their counts of the query's `lexemes`. Across the history through `messages_matching`,
 * which reads a common word's newest matches without its older ones.
 */
export async function matchingDocs(
  tx: Tx,
  userId: string,
  scope: HistoryScope,
  tsquery: string,
  lexemes: readonly string[],
  cap: number,
): Promise<KeywordDoc[]> {
  // Across the history the function reads the caller's own searchable rows in the date range
  // and counts the lexemes itself ($1 is its caller: auth.uid()).
  const sql = scope.sessionId
    ? `select m.id, m.session_id, m.seq, m.search_len as len, ${termCounts("$8", "m")} as tf, coalesce(m.said_at, m.created_at) as said_at
       from ${scoped(scope)} and m.search @@ $7::tsquery order by m.seq desc limit $9`
    : `select m.id, m.session_id, m.seq, m.search_len as len, m.term_counts as tf, coalesce(m.said_at, m.created_at) as said_at
       from messages_matching($7::tsquery, $9, $5, $6, $8::text[]) m where $1::uuid is not null and ${ACROSS}`;
  const rows = await tx.query<DocRow>(sql, [...scopeParams(userId, scope), tsquery, lexemes, cap]);
  return rows.map(toDoc);
}

/** The messages of the scope at these positions (session and seq), with their counts of the query's `lexemes`. */
export async function docsAt(
  tx: Tx,
  userId: string,
  scope: HistoryScope,
  at: readonly { sessionId: string; seq: number }[],
  lexemes: readonly string[],
): Promise<KeywordDoc[]> {
  if (at.length === 0) return [];
  // Across the history each position is one probe of (session_id, seq); filtering the user's
  // messages by the list instead reads all of them.
  const from = scope.sessionId
    ? `${scoped(scope)} and (m.session_id, m.seq) in (select * from unnest($7::uuid[], $8::int[]))`
    : scoped(scope).replace("messages m where ", "unnest($7::uuid[], $8::int[]) k(session_id, seq) join messages m on m.session_id = k.session_id and m.seq = k.seq where ");
  const rows = await tx.query<DocRow>(
    `select m.id, m.session_id, m.seq, m.search_len as len, ${termCounts("$9", "m")} as tf, coalesce(m.said_at, m.created_at) as said_at
     from ${from}`,
    [...scopeParams(userId, scope), at.map((a) => a.sessionId), at.map((a) => a.seq), lexemes],
  );
  return rows.map(toDoc);
}

/**
 * The nearest embeddings of the current model. Across the whole history this walks the HNSW
 * index with iterative scan, so filters that drop most neighbours still fill the list; within
 * one session it is an exact scan of that session's few rows (`+ 0` keeps the planner off
 * the index there, where filtering an approximate user-wide walk would find too few).
 */
export async function vectorCandidates(
  tx: Tx,
  userId: string,
  scope: HistoryScope,
  q: { vector: string; model: string },
  limit: number,
): Promise<VectorHit[]> {
  if (!scope.sessionId) {
    await tx.query(`select set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', $1, true)`, [
      String(Math.max(40, limit)),
    ]);
  }
  const distance = scope.sessionId ? `(e.embedding <=> $7::halfvec) + 0` : `e.embedding <=> $7::halfvec`;
  // relaxed_order may return neighbours slightly out of order: re-sorted outside.
  return tx.query<VectorHit>(
    `with near as materialized (
       select e.message_id, e.embedding <=> $7::halfvec as d
       from message_embeddings e join ${scoped(scope).replace(" where ", " on m.id = e.message_id where ")}
         and e.user_id = $1 and e.model = $8 and e.embedding is not null
       order by ${distance} limit $9
     )
     select message_id, (row_number() over (order by d, message_id))::int as rank, (1 - d)::float8 as similarity
     from near order by rank`,
    [...scopeParams(userId, scope), q.vector, q.model, limit],
  );
}

export interface HitRow {
  message_id: string;
  session_id: string;
  session_title: string | null;
  seq: number;
  turn_seq: number;
  role: "user" | "assistant";
  text: string;
  created_at: Date;
  replaced: boolean;
}

/** A message whose thinking holds every word of a query, with that thinking's text. */
export interface ThinkingMatch {
  message_id: string;
  thinking: string;
}

/**
 * Claude's replies in the scope whose thinking holds every one of `words` (case-insensitive
 * substrings), newest first, at most `limit`. Thinking is not indexed (search leaves it out
 * unless asked), so this reads the scope's replies: for the occasional explicit request only.
 */
export async function thinkingMatches(tx: Tx, userId: string, scope: HistoryScope, words: readonly string[], limit: number): Promise<ThinkingMatch[]> {
  if (words.length === 0) return [];
  // ILIKE's own wildcards and escape in a word are matched as themselves.
  const patterns = words.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return tx.query<ThinkingMatch>(
    `select t.id as message_id, t.thinking from (
       select m.id, m.created_at,
         (select string_agg(b->>'thinking', E'\n\n') from jsonb_array_elements(m.content) b where b->>'type' = 'thinking') as thinking
       from ${scoped(scope)} and m.role = 'assistant' and m.content @> '[{"type": "thinking"}]'::jsonb
     ) t
     where t.thinking ilike all ($7::text[])
     order by t.created_at desc limit $8`,
    [...scopeParams(userId, scope), patterns, limit],
  );
}

/**
 * What a hit shows, for the few candidates that made the cut: attributed to the searched
 * session (a fork's view), else to the session of the project that sees it, else its owner.
 * `replaced`: an edit superseded its turn, or a regenerated reply replaced this one.
 */
export async function hitDetails(tx: Tx, userId: string, scope: HistoryScope, ids: readonly string[], maxChars: number): Promise<HitRow[]> {
  if (ids.length === 0) return [];
  return tx.query<HitRow>(
    `select m.id as message_id, v.session_id, vs.title as session_title, m.seq, m.turn_seq, m.role,
       left(m.text, $5) as text, m.created_at,
       (exists (select 1 from messages x where x.session_id = m.session_id and x.supersedes_turn <= m.turn_seq and x.turn_seq > m.turn_seq)
         or (m.role = 'assistant' and exists (select 1 from messages x where x.session_id = m.session_id and x.restarts_turn
           and x.turn_seq = m.turn_seq and x.seq > m.seq))) as replaced
     from messages m
     join sessions own on own.id = m.session_id
     cross join lateral (select coalesce($3::uuid,
       case when $4::uuid is null or own.project_id = $4 then m.session_id end,
       (select l.session_id from session_lineage l join sessions s on s.id = l.session_id
        where l.source_session_id = m.session_id and m.seq between l.from_seq and l.to_seq and s.project_id = $4
        order by l.session_id limit 1),
       m.session_id) as session_id) v
     join sessions vs on vs.id = v.session_id
     where m.id = any ($2::uuid[]) and m.user_id = $1`,
    [userId, ids, scope.sessionId ?? null, scope.projectId ?? null, maxChars],
  );
}

/**
 * The indexer's queue: up to `limit` messages saved but not embedded yet (a trigger adds a
 * pending row, model null, to message_embeddings), oldest first, their text cut to `maxChars`.
 * Across users: the indexer runs on the app's own role.
 */
export async function pendingEmbeddings(tx: Tx, limit: number, maxChars: number): Promise<{ message_id: string; text: string }[]> {
  return tx.query<{ message_id: string; text: string }>(
    `select e.message_id, left(m.text, $2) as text from message_embeddings e join messages m on m.id = e.message_id
       where e.model is null order by e.created_at limit $1`,
    [limit, maxChars],
  );
}

/**
 * Fills pending rows with their vectors (pgvector text; null for a zero vector, which has no
 * direction to compare). Only rows still pending, and not those a racing pass (another
 * instance's indexer) is storing right now: it stores the same vector, and waiting for its
 * commit would only hold this transaction.
 */
export async function storeEmbeddings(tx: Tx, messageIds: readonly string[], vectors: readonly (string | null)[], model: string): Promise<void> {
  await tx.query(
    `with free as (
       select message_id from message_embeddings where message_id = any($1::uuid[]) and model is null for update skip locked
     )
     update message_embeddings e set model = $3, embedding = v.embedding::halfvec
       from unnest($1::uuid[], $2::text[]) as v(message_id, embedding) join free f on f.message_id = v.message_id
       where e.message_id = v.message_id`,
    [messageIds, vectors, model],
  );
}
