// The files table and its two companions: a file's text by page (file_pages) and which
// session's messages carry it (file_uses). The bytes are not here: lib/storage keeps them by
// (user, sha256).
import "server-only";
import type { ExtractionState, FileInfo, FileKind } from "@/lib/contract/files";
import { carriedFiles } from "@/lib/context/files";
import type { ContentBlock } from "@/lib/contract/messages";
import type { Tx } from "./driver";
import type { HistoryScope } from "./history-search";

export interface FileRow {
  id: string;
  user_id: string;
  session_id: string | null;
  name: string;
  media_type: string;
  kind: FileKind;
  size: number;
  sha256: string;
  tokens: number;
  pages: number | null;
  width: number | null;
  height: number | null;
  extraction: ExtractionState;
  about: string | null;
  created_at: Date;
}

const COLUMNS = `id, user_id, session_id, name, media_type, kind, size::float8 as size, sha256, tokens, pages, width, height, extraction, about, created_at`;

/**
 * A file of session $2 (user $1): attached to it, or carried by one of its messages (a fork's
 * inherited ones included).
 */
const OF_SESSION = `(session_id = $2 or id in (select file_id from file_uses where session_id = $2 and user_id = $1))`;

export function fileJson(f: FileRow): FileInfo {
  return {
    id: f.id,
    session_id: f.session_id,
    name: f.name,
    media_type: f.media_type,
    kind: f.kind,
    size: Number(f.size),
    sha256: f.sha256,
    tokens: f.tokens,
    pages: f.pages,
    width: f.width,
    height: f.height,
    extraction: f.extraction,
    about: f.about,
    created_at: new Date(f.created_at).toISOString(),
  };
}

export type NewFile = Omit<FileRow, "id" | "user_id" | "created_at">;

export async function insertFile(tx: Tx, userId: string, f: NewFile): Promise<FileRow> {
  const [row] = await tx.query<FileRow>(
    `insert into files (user_id, session_id, name, media_type, kind, size, sha256, tokens, pages, width, height, extraction, about)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning ${COLUMNS}`,
    [userId, f.session_id, f.name, f.media_type, f.kind, f.size, f.sha256, f.tokens, f.pages, f.width, f.height, f.extraction, f.about],
  );
  return row;
}

export async function fileById(tx: Tx, userId: string, id: string): Promise<FileRow | null> {
  const [row] = await tx.query<FileRow>(`select ${COLUMNS} from files where id = $1 and user_id = $2`, [id, userId]);
  return row ?? null;
}

export async function filesByIds(tx: Tx, userId: string, ids: readonly string[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  return tx.query<FileRow>(`select ${COLUMNS} from files where id = any($1::uuid[]) and user_id = $2`, [ids, userId]);
}

/** Those of these files that belong to the session (attached to it or carried by its messages). */
export async function sessionFilesByIds(tx: Tx, userId: string, sessionId: string, ids: readonly string[]): Promise<FileRow[]> {
  return tx.query<FileRow>(
    `select ${COLUMNS} from files where user_id = $1 and id = any($3::uuid[])
       and ${OF_SESSION}`,
    [userId, sessionId, ids],
  );
}

/** A file of this user with these bytes whose text has been read: its pages are copied instead of read again. */
export async function readTwin(tx: Tx, userId: string, sha256: string): Promise<FileRow | null> {
  const [row] = await tx.query<FileRow>(
    `select ${COLUMNS} from files where user_id = $1 and sha256 = $2 and extraction in ('done', 'none') order by created_at limit 1`,
    [userId, sha256],
  );
  return row ?? null;
}

/** Files attached to the session or carried by its messages (a fork's inherited ones too), newest first. */
export async function sessionFiles(tx: Tx, userId: string, sessionId: string): Promise<FileRow[]> {
  return tx.query<FileRow>(
    `select ${COLUMNS} from files where user_id = $1 and ${OF_SESSION}
     order by created_at desc limit 500`,
    [userId, sessionId],
  );
}

/** The session's files with these digests (attached to it or carried by its messages), the oldest of each content first. */
export async function sessionFilesByDigest(tx: Tx, userId: string, sessionId: string, digests: readonly string[]): Promise<FileRow[]> {
  return tx.query<FileRow>(
    `select distinct on (sha256) ${COLUMNS} from files where user_id = $1 and sha256 = any($3::text[])
       and ${OF_SESSION}
     order by sha256, created_at`,
    [userId, sessionId, digests],
  );
}

export async function recentFiles(tx: Tx, userId: string, limit: number): Promise<FileRow[]> {
  return tx.query<FileRow>(`select ${COLUMNS} from files where user_id = $1 order by created_at desc limit $2`, [userId, limit]);
}

/** Bytes stored for the user: each distinct content once, as the store keeps it. */
export async function storedBytes(tx: Tx, userId: string): Promise<{ bytes: number; files: number }> {
  const [row] = await tx.query<{ bytes: number; files: number }>(
    `select coalesce(sum(size), 0)::float8 as bytes, (select count(*)::int from files where user_id = $1) as files
     from (select distinct on (sha256) size from files where user_id = $1 order by sha256) d`,
    [userId],
  );
  return row;
}

/** Serialises the user's file writes for the rest of the transaction (the quota's check and its rows). */
export async function lockUserFiles(tx: Tx, userId: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended('threadkeeper.files:' || $1::text, 0))`, [userId]);
}

export async function hasContent(tx: Tx, userId: string, sha256: string): Promise<boolean> {
  const rows = await tx.query(`select 1 from files where user_id = $1 and sha256 = $2 limit 1`, [userId, sha256]);
  return rows.length > 0;
}

/** The file's figures once its text has been read (or could not be). */
export async function setExtracted(
  tx: Tx,
  fileId: string,
  f: { tokens: number; pages: number | null; extraction: ExtractionState; about: string | null },
): Promise<void> {
  await tx.query(`update files set tokens = $2, pages = $3, extraction = $4, about = $5 where id = $1`, [fileId, f.tokens, f.pages, f.extraction, f.about]);
}

export async function insertPages(tx: Tx, userId: string, fileId: string, pages: readonly string[]): Promise<void> {
  if (pages.length === 0) return;
  await tx.query(
    `insert into file_pages (file_id, user_id, page, text)
     select $1, $2, p.ord::int, p.text from unnest($3::text[]) with ordinality as p(text, ord)
     on conflict do nothing`,
    [fileId, userId, pages],
  );
}

export async function copyPages(tx: Tx, userId: string, fromId: string, toId: string): Promise<void> {
  await tx.query(
    `insert into file_pages (file_id, user_id, page, text) select $3, user_id, page, text from file_pages where file_id = $2 and user_id = $1
     on conflict do nothing`,
    [userId, fromId, toId],
  );
}

export async function pagesOf(tx: Tx, userId: string, fileId: string, from: number, to: number): Promise<{ page: number; text: string }[]> {
  return tx.query<{ page: number; text: string }>(
    `select page, text from file_pages where file_id = $1 and user_id = $2 and page between $3 and $4 order by page`,
    [fileId, userId, from, to],
  );
}

export async function pageCount(tx: Tx, userId: string, fileId: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(`select coalesce(max(page), 0)::int as n from file_pages where file_id = $1 and user_id = $2`, [fileId, userId]);
  return row.n;
}

/** Pages of the file holding every word of `query` (full text, English stemming), best first. */
export async function searchPages(tx: Tx, userId: string, fileId: string, query: string, limit: number): Promise<{ page: number; text: string }[]> {
  return tx.query<{ page: number; text: string }>(
    `select page, text from file_pages where file_id = $1 and user_id = $2 and search @@ websearch_to_tsquery('english', $3)
     order by ts_rank(search, websearch_to_tsquery('english', $3)) desc, page limit $4`,
    [fileId, userId, query, limit],
  );
}

/** A page of a file that history search found, with the message that carries the file. */
export interface FileHitRow {
  file_id: string;
  name: string;
  page: number;
  text: string;
  rank: number;
  session_id: string;
  session_title: string | null;
  message_id: string;
  seq: number;
  turn_seq: number;
  role: "user" | "assistant";
  created_at: Date;
}

/**
 * Matching pages a file search ranks at most: the GIN index finds them, and ranking each costs a
 * read of its vector, so a word on every page of many long PDFs costs the same as on a thousand.
 */
export const FILE_PAGES_RANKED = 1_000;

/**
 * History search's file hits, in one statement: the user's file pages holding every word of
 * `query` (websearch syntax, English stemming, as open_file's search), each file's best page
 * once, best first. A file is found through a message that carries it (file_uses), which gives
 * the hit its session, seq and turn to jump to: an upload never sent is not part of any
 * conversation. The scope reads as for messages: with a session, its own uses (a fork inherited
 * its source's); with a project, uses in its sessions; a file the excluded session carries is
 * in that session's view and left out; the dates are the carrying message's. Among a file's
 * uses the one in the session it was uploaded to comes first.
 */
export async function searchFiles(tx: Tx, userId: string, scope: HistoryScope, query: string, limit: number, maxChars: number): Promise<FileHitRow[]> {
  return tx.query<FileHitRow>(
    `with found as materialized (
       select p.file_id, p.page, p.text, ts_rank(p.search, q) as rank
       from file_pages p, websearch_to_tsquery('english', $2) q
       where p.user_id = $1 and p.search @@ q limit $9
     ), best as (
       select distinct on (file_id) file_id, page, text, rank from found order by file_id, rank desc, page
     )
     select f.id as file_id, f.name, b.page, left(b.text, $10) as text, b.rank::float8 as rank,
       u.session_id, s.title as session_title, m.id as message_id, u.seq, u.turn_seq, m.role, m.created_at
     from best b
     join files f on f.id = b.file_id and f.user_id = $1
     cross join lateral (
       select x.session_id, x.seq, x.turn_seq from file_uses x join sessions xs on xs.id = x.session_id
       where x.file_id = f.id and x.user_id = $1
         and ($3::uuid is null or x.session_id = $3) and ($4::uuid is null or xs.project_id = $4)
       order by coalesce(x.session_id = f.session_id, false) desc, x.seq, x.session_id limit 1
     ) u
     join sessions s on s.id = u.session_id
     cross join lateral (select v.id, v.role, v.created_at from session_messages(u.session_id) v where v.seq = u.seq limit 1) m
     where ($5::uuid is null or not exists (select 1 from file_uses e where e.file_id = f.id and e.session_id = $5))
       and ($6::timestamptz is null or m.created_at >= $6) and ($7::timestamptz is null or m.created_at <= $7)
     order by b.rank desc, m.created_at desc, f.id limit $8`,
    [
      userId,
      query,
      scope.sessionId ?? null,
      scope.projectId ?? null,
      scope.excludeSessionId ?? null,
      scope.from ?? null,
      scope.to ?? null,
      limit,
      FILE_PAGES_RANKED,
      maxChars,
    ],
  );
}

export interface FileUse {
  file_id: string;
  seq: number;
  turn_seq: number;
  tokens: number;
  by_reference: boolean;
}

export async function recordUses(tx: Tx, userId: string, sessionId: string, uses: readonly FileUse[]): Promise<void> {
  if (uses.length === 0) return;
  await tx.query(
    `insert into file_uses (session_id, file_id, user_id, seq, turn_seq, tokens, by_reference)
     select $1, u.file_id, $2, u.seq, u.turn_seq, u.tokens, u.by_reference
     from jsonb_to_recordset($3::text::jsonb) as u(file_id uuid, seq int, turn_seq int, tokens int, by_reference boolean)
     on conflict do nothing`,
    [sessionId, userId, JSON.stringify(uses)],
  );
  await tx.query(`update sessions set file_count = file_count + $2 where id = $1`, [sessionId, uses.length]);
}

/** Records the stored files a just-written message carries (none: no statement). */
export async function recordCarried(tx: Tx, userId: string, sessionId: string, rows: readonly { seq: number; turn_seq: number; content: readonly ContentBlock[] }[]): Promise<void> {
  const uses = rows.flatMap((r) => carriedFiles(r.content).map((c) => ({ ...c, seq: r.seq, turn_seq: r.turn_seq })));
  await recordUses(tx, userId, sessionId, uses);
}

/** A session's file uses with each file's name and figures: few rows, read with the session's context. */
export interface FileUseRow extends FileUse {
  name: string;
  media_type: string;
  kind: FileKind;
  pages: number | null;
  about: string | null;
}

export async function sessionUses(tx: Tx, sessionId: string): Promise<FileUseRow[]> {
  return tx.query<FileUseRow>(
    `select u.file_id, u.seq, u.turn_seq, u.tokens, u.by_reference, f.name, f.media_type, f.kind, f.pages, f.about
     from file_uses u join files f on f.id = u.file_id where u.session_id = $1 order by u.seq, f.name`,
    [sessionId],
  );
}

/** A fork sees its source's files up to the fork point, as it sees its messages. */
export async function inheritUses(tx: Tx, forkId: string, sourceId: string, throughSeq: number): Promise<void> {
  await tx.query(
    `insert into file_uses (session_id, file_id, user_id, seq, turn_seq, tokens, by_reference)
     select $1, file_id, user_id, seq, turn_seq, tokens, by_reference from file_uses where session_id = $2 and seq <= $3
     on conflict do nothing`,
    [forkId, sourceId, throughSeq],
  );
  await tx.query(`update sessions set file_count = (select count(*) from file_uses where session_id = $1) where id = $1`, [forkId]);
}

/**
 * Before a session is deleted: its files that another session (a fork) still uses move to that
 * session; the rest are deleted. Answers the digests of the deleted files whose bytes no other
 * file of the user has, for the store to remove after the transaction.
 */
export async function releaseSessionFiles(tx: Tx, userId: string, sessionId: string): Promise<string[]> {
  await tx.query(
    `update files f set session_id = (select min(u.session_id::text)::uuid from file_uses u where u.file_id = f.id and u.session_id <> $2)
     where f.user_id = $1 and f.session_id = $2 and exists (select 1 from file_uses u where u.file_id = f.id and u.session_id <> $2)`,
    [userId, sessionId],
  );
  const gone = await tx.query<{ sha256: string }>(
    `delete from files f where f.user_id = $1
       and (f.session_id = $2 or f.id in (select file_id from file_uses where session_id = $2))
       and not exists (select 1 from file_uses u where u.file_id = f.id and u.session_id <> $2)
     returning f.sha256`,
    [userId, sessionId],
  );
  return orphaned(tx, userId, gone.map((g) => g.sha256));
}

/** Deletes one file; answers its digest when no other file of the user has those bytes. */
export async function deleteFileRow(tx: Tx, userId: string, id: string): Promise<string[] | null> {
  const gone = await tx.query<{ sha256: string }>(`delete from files where id = $1 and user_id = $2 returning sha256`, [id, userId]);
  if (gone.length === 0) return null;
  return orphaned(tx, userId, gone.map((g) => g.sha256));
}

async function orphaned(tx: Tx, userId: string, digests: readonly string[]): Promise<string[]> {
  if (digests.length === 0) return [];
  const still = await tx.query<{ sha256: string }>(`select distinct sha256 from files where user_id = $1 and sha256 = any($2::text[])`, [userId, [...new Set(digests)]]);
  const kept = new Set(still.map((s) => s.sha256));
  return [...new Set(digests)].filter((d) => !kept.has(d));
}
