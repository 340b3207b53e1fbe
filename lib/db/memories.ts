import "server-only";
import type { LoadedMemoryJson, MemoryJson, MemoryKind, MemorySource } from "@/lib/contract";
import { notFound } from "@/lib/errors";
import { standaloneScores } from "@/lib/context/bm25";
import { qualify, type Tx } from "./driver";
import { lexemeQuery, queryLexemes, termCounts, termCountsOf } from "./fulltext";

export interface MemoryRow {
  id: string;
  project_id: string | null;
  session_id: string | null;
  source: MemorySource;
  summary: string;
  key_decisions: string[];
  code_references: string[];
  tags: string[];
  pinned: boolean;
  embedding_model: string;
  created_at: Date;
  expires_at: Date | null;
  kind: MemoryKind;
  fact_subject: string | null;
  fact_attribute: string | null;
  fact_value: string | null;
  from_seq: number | null;
  through_seq: number | null;
  valid_from: Date | null;
  valid_until: Date | null;
  superseded_by: string | null;
  seen_count: number;
  last_seen_at: Date | null;
}

export const COLUMNS = `id, project_id, session_id, source, summary, key_decisions, code_references, tags, pinned,
  embedding_model, created_at, expires_at, kind, fact_subject, fact_attribute, fact_value, from_seq, through_seq,
  valid_from, valid_until, superseded_by, seen_count, last_seen_at`;

/** Expired memories are never returned, whether or not the clean-up has run yet. */
export const LIVE = `(m.pinned or m.expires_at is null or m.expires_at > now())`;
/** Search and loading see summaries and current facts; a superseded fact stays listed, marked. */
const CURRENT = `(m.kind = 'summary' or m.superseded_by is null)`;

export interface NewMemory {
  projectId: string | null;
  sessionId: string | null;
  source: MemorySource;
  summary: string;
  keyDecisions: string[];
  codeReferences: string[];
  tags: string[];
  embedding: string | null;
  embeddingModel: string;
  ttlDays: number;
  /**
   * The (redacted) text of the turns it stands for: matched by search beside the summary, kept
   * as words only. A compaction's memory adds each compaction's turns to the ones before; an
   * archive's adds the session's compaction memory's (the turns condensed before it).
   */
  about?: string;
}

export async function insertMemory(tx: Tx, userId: string, m: NewMemory): Promise<MemoryRow> {
  const [row] = await tx.query<MemoryRow>(
    `insert into session_memories (user_id, project_id, session_id, source, summary, key_decisions, code_references, tags,
       embedding, embedding_model, expires_at, about)
     values ($1, $2, $3, $4, $5, $6::text::jsonb, $7::text::jsonb, $8::text[], $9::vector, $10,
       now() + make_interval(days => $11),
       case when $12::text is not null then to_tsvector('english', $12::text) || coalesce((select c.about from session_memories c
         where c.user_id = $1 and c.session_id = $3 and c.source = 'compaction' and c.kind = 'summary' and $4 = 'archive' limit 1), ''::tsvector) end)
     returning ${COLUMNS}`,
    [
      userId,
      m.projectId,
      m.sessionId,
      m.source,
      m.summary,
      JSON.stringify(m.keyDecisions),
      JSON.stringify(m.codeReferences),
      m.tags,
      m.embedding,
      m.embeddingModel,
      m.ttlDays,
      m.about ?? null,
    ],
  );
  return row;
}

/**
 * Adds words to a memory's `about` (see NewMemory.about), after what it holds: a long text
 * goes in several calls, each a short transaction (to_tsvector reads about 8 MB/s on PGlite).
 */
export async function appendMemoryAbout(tx: Tx, userId: string, id: string, text: string): Promise<void> {
  await tx.query(
    `update session_memories set about = coalesce(about, ''::tsvector) || to_tsvector('english', $3::text) where id = $1 and user_id = $2`,
    [id, userId, text],
  );
}

export async function getMemory(tx: Tx, userId: string, id: string): Promise<MemoryRow> {
  const [row] = await tx.query<MemoryRow>(
    `select ${qualify(COLUMNS, "m")} from session_memories m where m.id = $1 and m.user_id = $2 and ${LIVE}`,
    [id, userId],
  );
  if (!row) throw notFound("Memory", id);
  return row;
}

/** A session's memories of one kind: its summaries (the panel's list) or its facts (grouped apart). */
export async function memoriesOfSession(tx: Tx, userId: string, sessionId: string, kind: MemoryKind = "summary"): Promise<MemoryRow[]> {
  return tx.query<MemoryRow>(
    `select ${qualify(COLUMNS, "m")} from session_memories m where m.user_id = $1 and m.session_id = $2 and m.kind = $3 and ${LIVE}
     order by ${kind === "fact" ? "m.superseded_by is not null, m.valid_from desc, m.id" : "m.created_at desc"}`,
    [userId, sessionId, kind],
  );
}

/** Every live memory of the user, summaries and facts, oldest first (the account export). */
export async function allMemories(tx: Tx, userId: string): Promise<MemoryRow[]> {
  return tx.query<MemoryRow>(`select ${qualify(COLUMNS, "m")} from session_memories m where m.user_id = $1 and ${LIVE} order by m.created_at, m.id`, [userId]);
}

export async function memoriesOfProject(tx: Tx, userId: string, projectId: string): Promise<MemoryRow[]> {
  return tx.query<MemoryRow>(
    `select ${qualify(COLUMNS, "m")} from session_memories m where m.user_id = $1 and m.project_id = $2 and m.kind = 'summary' and ${LIVE}
     order by m.pinned desc, m.created_at desc limit 500`,
    [userId, projectId],
  );
}

export async function setPinned(tx: Tx, userId: string, id: string, pinned: boolean): Promise<MemoryRow> {
  const [row] = await tx.query<MemoryRow>(
    `update session_memories m set pinned = $3 where m.id = $1 and m.user_id = $2 and ${LIVE} returning ${qualify(COLUMNS, "m")}`,
    [id, userId, pinned],
  );
  if (!row) throw notFound("Memory", id);
  return row;
}

export async function deleteMemory(tx: Tx, userId: string, id: string): Promise<void> {
  const rows = await tx.query(`delete from session_memories where id = $1 and user_id = $2 returning id`, [id, userId]);
  if (rows.length === 0) throw notFound("Memory", id);
  // A deleted fact no longer replaces the one it superseded: that one counts again.
  await tx.query(`update session_memories set superseded_by = null, valid_until = null where user_id = $2 and superseded_by = $1`, [id, userId]);
}

/** Removes expired, unpinned memories (they are already invisible; this frees the space). */
export async function deleteExpired(tx: Tx): Promise<number> {
  const rows = await tx.query(`delete from session_memories where not pinned and expires_at <= now() returning id`);
  return rows.length;
}

export interface SearchFilter {
  projectId?: string;
  tags?: string[];
  from?: Date;
  to?: Date;
  /** Only summaries or only facts; both when absent. */
  kind?: MemoryKind;
}

export interface Candidate {
  row: MemoryRow;
  vectorRank: number | null;
  textRank: number | null;
  /** How many of the query's words (stop words aside) the memory holds, of `queryWords`. */
  sharedWords: number;
  queryWords: number;
}

/** Memories holding a query word that are scored; beyond, the most recent (a user rarely has so many). */
const MAX_TEXT_MATCHES = 5_000;

/**
 * The two candidate lists hybrid search fuses: the nearest vectors (exact cosine distance
 * over the user's rows of the current embedding model) and the best keyword matches, every
 * memory holding any of the query's words ranked by BM25 (lib/context/bm25.ts), so that a
 * question, which shares only some words with what answers it, still finds it.
 */
export async function searchCandidates(
  tx: Tx,
  userId: string,
  q: { vector: string | null; text: string; model: string; perList: number },
  f: SearchFilter,
): Promise<Candidate[]> {
  const lexemes = await queryLexemes(tx, q.text);
  const arms = await tx.query<{ id: string; vector_rank: number | null; len: number | null; tf: string | null; kind: MemoryKind | null; docs: number; summary_len: number; fact_len: number }>(
    `with filtered as materialized (
       select m.id, m.embedding, m.search, m.created_at, m.kind from session_memories m
       where m.user_id = $1 and m.embedding_model = $2 and ${LIVE} and ${CURRENT}
         and ($5::uuid is null or m.project_id = $5)
         and ($6::text[] is null or m.tags && $6::text[])
         and ($7::timestamptz is null or m.created_at >= $7)
         and ($8::timestamptz is null or m.created_at <= $8)
         and ($10::text is null or m.kind = $10)
     ),
     by_vector as (
       select id, row_number() over (order by embedding <=> $3::vector, id) as r
       from filtered where $3::vector is not null and embedding is not null
       order by embedding <=> $3::vector, id limit $9
     ),
     by_text as (
       select f.id, f.kind, length(f.search) as len, ${termCounts("$11", "f")} as tf
       from filtered f where $4::text <> '' and f.search @@ $4::tsquery
       order by f.created_at desc limit ${MAX_TEXT_MATCHES}
     ),
     corpus as (select count(*)::int as docs, coalesce(avg(length(search)) filter (where kind = 'summary'), 0)::float8 as summary_len,
       coalesce(avg(length(search)) filter (where kind = 'fact'), 0)::float8 as fact_len from filtered)
     select coalesce(v.id, t.id) as id, v.r::int as vector_rank, t.kind, t.len, t.tf, c.docs, c.summary_len, c.fact_len
     from by_vector v full join by_text t on t.id = v.id cross join corpus c`,
    [userId, q.model, q.vector, lexemeQuery(lexemes), f.projectId ?? null, f.tags ?? null, f.from ?? null, f.to ?? null, q.perList, f.kind ?? null, lexemes],
  );
  if (arms.length === 0) return [];
  // Each kind's length is judged against its own kind's: a session's summary is long beside a fact.
  const avgLen = { summary: arms[0].summary_len, fact: arms[0].fact_len };
  const matches = arms.filter((a) => a.tf !== null).map((a) => ({ id: a.id, len: a.len ?? 0, words: Object.keys(termCountsOf(a.tf!)), avgLen: avgLen[a.kind!] }));
  const scores = standaloneScores(matches, arms[0].docs);
  const byText = matches
    .filter((m) => scores.get(m.id)! > 0)
    .sort((a, b) => scores.get(b.id)! - scores.get(a.id)! || a.id.localeCompare(b.id))
    .slice(0, q.perList);
  const textRank = new Map(byText.map((m, i) => [m.id, i + 1]));
  const shared = new Map(matches.map((m) => [m.id, m.words.length]));
  const vectorRank = new Map(arms.filter((a) => a.vector_rank !== null).map((a) => [a.id, a.vector_rank!]));
  const ids = [...new Set([...vectorRank.keys(), ...textRank.keys()])];
  const rows = await tx.query<MemoryRow>(`select ${qualify(COLUMNS, "m")} from session_memories m where m.id = any ($1::uuid[]) and m.user_id = $2`, [ids, userId]);
  return rows.map((row) => ({
    row,
    vectorRank: vectorRank.get(row.id) ?? null,
    textRank: textRank.get(row.id) ?? null,
    sharedWords: shared.get(row.id) ?? 0,
    queryWords: lexemes.length,
  }));
}

export async function recordLoaded(
  tx: Tx,
  userId: string,
  sessionId: string,
  loaded: { memoryId: string; tokens: number; score: number }[],
  memoryText: string | null,
  memoryTokens: number,
): Promise<void> {
  for (const l of loaded) {
    await tx.query(
      `insert into session_loaded_memories (session_id, memory_id, user_id, tokens, score) values ($1, $2, $3, $4, $5)
       on conflict (session_id, memory_id) do nothing`,
      [sessionId, l.memoryId, userId, l.tokens, l.score],
    );
  }
  await tx.query(`update sessions set memory_text = $2, memory_tokens = $3, memory_loaded_at = now() where id = $1`, [
    sessionId,
    memoryText,
    memoryTokens,
  ]);
}

export async function loadedMemories(tx: Tx, userId: string, sessionId: string): Promise<LoadedMemoryJson[]> {
  const rows = await tx.query<MemoryRow & { tokens: number; score: number; dropped: boolean }>(
    `select ${qualify(COLUMNS, "m")}, l.tokens, l.score, l.dropped from session_loaded_memories l
     join session_memories m on m.id = l.memory_id
     where l.session_id = $1 and l.user_id = $2 order by l.score desc`,
    [sessionId, userId],
  );
  return rows.map(({ tokens, score, dropped, ...m }) => ({ memory: memoryJson(m), tokens, score, dropped }));
}

export async function setDropped(tx: Tx, userId: string, sessionId: string, memoryId: string, dropped: boolean): Promise<void> {
  const rows = await tx.query(
    `update session_loaded_memories set dropped = $4 where session_id = $1 and memory_id = $2 and user_id = $3 returning memory_id`,
    [sessionId, memoryId, userId, dropped],
  );
  if (rows.length === 0) throw notFound("Loaded memory", memoryId);
}

export function memoryJson(r: MemoryRow): MemoryJson {
  return {
    id: r.id,
    project_id: r.project_id,
    session_id: r.session_id,
    source: r.source,
    summary: r.summary,
    key_decisions: r.key_decisions,
    code_references: r.code_references,
    tags: r.tags,
    pinned: r.pinned,
    embedding_model: r.embedding_model,
    created_at: r.created_at.toISOString(),
    expires_at: r.pinned || !r.expires_at ? null : r.expires_at.toISOString(),
    kind: r.kind,
    fact:
      r.kind === "fact" && r.fact_subject !== null && r.from_seq !== null && r.through_seq !== null && r.valid_from !== null
        ? {
            subject: r.fact_subject,
            attribute: r.fact_attribute,
            value: r.fact_value,
            from_seq: r.from_seq,
            through_seq: r.through_seq,
            valid_from: r.valid_from.toISOString(),
            valid_until: r.valid_until?.toISOString() ?? null,
            superseded_by: r.superseded_by,
            seen_count: r.seen_count,
            last_seen_at: (r.last_seen_at ?? r.valid_from).toISOString(),
          }
        : null,
  };
}

/** A session's compaction memory follows its latest summary (each summary extends the previous one). */
export async function upsertCompactionMemory(tx: Tx, userId: string, m: NewMemory): Promise<MemoryRow> {
  const [existing] = await tx.query<{ id: string }>(
    `select id from session_memories where user_id = $1 and session_id = $2 and source = 'compaction' and kind = 'summary' limit 1`,
    [userId, m.sessionId],
  );
  if (!existing) return insertMemory(tx, userId, m);
  const [row] = await tx.query<MemoryRow>(
    `update session_memories set summary = $3, key_decisions = $4::text::jsonb, code_references = $5::text::jsonb,
       tags = $6::text[], embedding = $7::vector, embedding_model = $8, project_id = $9,
       expires_at = now() + make_interval(days => $10), created_at = now(),
       about = case when $11::text is null then about else coalesce(about, ''::tsvector) || to_tsvector('english', $11::text) end
     where id = $1 and user_id = $2 returning ${COLUMNS}`,
    [
      existing.id,
      userId,
      m.summary,
      JSON.stringify(m.keyDecisions),
      JSON.stringify(m.codeReferences),
      m.tags,
      m.embedding,
      m.embeddingModel,
      m.projectId,
      m.ttlDays,
      m.about ?? null,
    ],
  );
  return row;
}

/**
 * Up to `limit` memories, of any user, stored with another embedding model than `model`,
 * oldest first: what re-embedding after a change of model still has to do.
 */
export async function memoriesToReembed(tx: Tx, model: string, limit: number): Promise<{ id: string; summary: string }[]> {
  return tx.query<{ id: string; summary: string }>(
    `select id, summary from session_memories where embedding_model <> $1 order by created_at limit $2`,
    [model, limit],
  );
}

/** Stores a memory's new embedding (pgvector text; null for a zero vector) and its model. */
export async function setMemoryEmbedding(tx: Tx, id: string, vector: string | null, model: string): Promise<void> {
  await tx.query(`update session_memories set embedding = $2::vector, embedding_model = $3 where id = $1`, [id, vector, model]);
}
