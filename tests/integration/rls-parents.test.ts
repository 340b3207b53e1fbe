// Row-level security checks the rows a row points at (migration 20261123000001): user B, as
// role `authenticated` with B's claims, cannot write a row of B's own that references user A's
// session, project, message, memory, compaction or checkpoint — by INSERT, by UPDATE of one of
// B's rows, or by INSERT ... ON CONFLICT DO UPDATE. Every case is written in raw SQL with no
// user filter, as a query that forgot one would be; each also runs with B's own parent instead
// (rolled back), which must pass, so the refusal is the parent check and nothing else. A foreign
// key between user tables missing from the table below fails the coverage test.
import { insertCanvasEvents } from "@/lib/db/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbedded, setDb, withUser, type Database, type Tx } from "@/lib/db";
import { inheritHistory, handOverToForks } from "@/lib/db/forks";
import { recordLoaded, insertMemory, type NewMemory } from "@/lib/db/memories";
import { appendMessage, setProtected, type NewMessage } from "@/lib/db/messages";
import { insertCheckpoint } from "@/lib/db/checkpoints";
import { insertProject } from "@/lib/db/projects";
import { deleteSession, insertSession, patchSession } from "@/lib/db/sessions";
import { insertImport } from "@/lib/db/imports";

const A = "00000000-0000-4000-8000-00000000a001";
const B = "00000000-0000-4000-8000-00000000b002";

let db: Database;

/** A's rows, the targets of B's attempts. */
interface OfA {
  project: string;
  session: string;
  message: string;
  compaction: string;
  checkpoint: string;
  memory: string;
  fork: string;
  webhook: string;
  file: string;
  import: string;
}
/** B's own rows: the ones B re-points, and B's own parents for the control runs. */
interface OfB {
  project: string;
  session: string;
  other: string;
  fork: string;
  message: string;
  streaming: string;
  compaction: string;
  checkpoint: string;
  memory: string;
  memory2: string;
  webhook: string;
  webhook2: string;
  delivery: string;
  file: string;
  file2: string;
  import: string;
}
let a: OfA;
let b: OfB;

const userMessage = (text: string): NewMessage => ({
  role: "user",
  content: [{ type: "text", text }],
  text,
  tokenCount: 10,
  status: "complete",
  startsTurn: true,
});
const reply = (text: string, status: NewMessage["status"] = "complete"): NewMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  text,
  tokenCount: 10,
  status,
  startsTurn: false,
});
const memory = (summary: string, projectId: string | null, sessionId: string | null): NewMemory => ({
  projectId,
  sessionId,
  source: "manual",
  summary,
  keyDecisions: [],
  codeReferences: [],
  tags: [],
  embedding: null,
  embeddingModel: "local-lexical-v1",
  ttlDays: 30,
});

const newSessionRow = async (tx: Tx, user: string, title: string) =>
  (await insertSession(tx, user, { title, model: "claude-haiku-4-5", settings: {}, systemPrompt: "", systemTokens: 0 })).id;

async function compaction(tx: Tx, sessionId: string): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into compaction_logs (session_id, trigger, method, from_turn, through_turn, at_seq, prev_window_start_turn,
       summary, pre_tokens, post_tokens, reduction_percent, messages_condensed, duration_ms, at_turn)
     values ($1, 'manual', 'llm', 1, 1, 2, 1, 'a summary', 100, 50, 50, 2, 1, 1) returning id`,
    [sessionId],
  );
  return row.id;
}

/** Everything of one user, written as that user through the app's own functions. */
async function seedUser(user: string) {
  return withUser(user, async (tx) => {
    const project = (await insertProject(tx, user, "Project")).id;
    const session = await newSessionRow(tx, user, "Session");
    await patchSession(tx, user, session, { projectId: project });
    const other = await newSessionRow(tx, user, "Other");
    const message = (await appendMessage(tx, user, session, userMessage("the plan"))).id;
    const second = (await appendMessage(tx, user, session, reply("noted", user === B ? "streaming" : "complete"))).id;
    const compactionId = await compaction(tx, session);
    const checkpoint = (await insertCheckpoint(tx, user, session, { label: "cp", trigger: "manual", tags: [], tokenCount: 20 })).id;
    const memoryId = (await insertMemory(tx, user, memory("remembered", project, session))).id;
    const memory2 = (await insertMemory(tx, user, memory("remembered too", null, null))).id;
    await recordLoaded(tx, user, session, [{ memoryId, tokens: 5, score: 0.5 }], "remembered", 5);
    // A fork reading the session's two messages by reference, with the first protected in it.
    const [{ id: fork }] = await tx.query<{ id: string }>(
      `insert into sessions (user_id, model, parent_session_id, forked_from_checkpoint_id, project_id, next_seq, last_turn_seq)
       values ($1, 'claude-haiku-4-5', $2, $3, $4, 2, 1) returning id`,
      [user, session, checkpoint, project],
    );
    await inheritHistory(tx, user, fork, session, 1);
    await setProtected(tx, user, message, true, fork);
    await tx.query(`update sessions set summary_id = $2 where id = $1`, [session, compactionId]);
    await insertCanvasEvents(tx, user, session, 1, [{ event: { op: "clear" }, source: "user" }]);
    const hook = async () =>
      (await tx.query<{ id: string }>(`insert into webhooks (url, events, secret) values ('https://hooks.example.com/x', '{memory.saved}', 'a-long-enough-secret') returning id`))[0].id;
    const webhook = await hook();
    const webhook2 = await hook();
    const [{ id: delivery }] = await tx.query<{ id: string }>(
      `insert into webhook_deliveries (webhook_id, event, payload) values ($1, 'memory.saved', '{}') returning id`,
      [webhook],
    );
    const attach = async (name: string) =>
      (
        await tx.query<{ id: string }>(
          `insert into files (session_id, name, media_type, kind, size, sha256) values ($1, $2, 'text/plain', 'text', 4, repeat('a', 64)) returning id`,
          [session, name],
        )
      )[0].id;
    const file = await attach("notes.txt");
    const file2 = await attach("more.txt");
    await tx.query(`insert into file_pages (file_id, page, text) values ($1, 1, 'notes')`, [file]);
    await tx.query(`insert into file_uses (session_id, file_id, seq, turn_seq, tokens) values ($1, $2, 1, 1, 4)`, [session, file]);
    await tx.query(`insert into client_conversations (conversation, session_id) values ('conversation-' || $1::text, $1::uuid)`, [session]);
    await tx.query(`insert into session_drafts (session_id, text) values ($1, 'a draft of B')`, [session]);
    const imported = (await insertImport(tx, user, { fileName: "conversations.json", bytes: 10 })).id;
    return { project, session, other, fork, message, second, compaction: compactionId, checkpoint, memory: memoryId, memory2, webhook, webhook2, delivery, file, file2, import: imported };
  });
}

beforeAll(async () => {
  db = await openEmbedded("memory://");
  setDb(db);
  await db.transaction((tx) => tx.query(`insert into auth.users (id, email) values ($1, 'a@example.test'), ($2, 'b@example.test')`, [A, B]));
  const sa = await seedUser(A);
  a = { ...sa };
  const sb = await seedUser(B);
  b = { ...sb, streaming: sb.second };
});

afterAll(async () => {
  setDb(undefined);
  await db?.close();
});

/** The error a statement failed with: SQLSTATE and message, or null when it succeeded. */
async function failure(p: Promise<unknown>): Promise<{ code: string; message: string } | null> {
  try {
    await p;
    return null;
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    return { code: String(e.code), message: String(e.message) };
  }
}

const ROLLBACK = new Error("rollback");
/** Runs fn as `user` and rolls back: a control run leaves nothing behind. */
async function tryAndRollBack(user: string, fn: (tx: Tx) => Promise<unknown>): Promise<void> {
  try {
    await withUser(user, async (tx) => {
      await fn(tx);
      throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
}

interface Case {
  /** The referencing table and column. */
  table: string;
  column: string;
  what: string;
  /** The statement, with $1 the referenced parent's id. */
  sql: (b: OfB) => string;
  /** A's parent (refused) and B's own parent of the same table (allowed). */
  foreign: (a: OfA) => string;
  own: (b: OfB) => string;
}

const INSERTS: Case[] = [
  {
    table: "webhook_deliveries", column: "webhook_id", what: "a delivery queued on A's webhook",
    sql: () => `insert into webhook_deliveries (webhook_id, event, payload) values ($1, 'memory.saved', '{}')`,
    foreign: (a) => a.webhook, own: (b) => b.webhook2,
  },
  {
    table: "messages", column: "session_id", what: "a message into A's session, at A's next seq",
    sql: () => `insert into messages (session_id, seq, turn_seq, role, content, text) values ($1, 3, 2, 'user', '[]', 'hijack')`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "sessions", column: "project_id", what: "a session in A's project",
    sql: () => `insert into sessions (model, project_id) values ('claude-haiku-4-5', $1)`,
    foreign: (a) => a.project, own: (b) => b.project,
  },
  {
    table: "sessions", column: "parent_session_id", what: "a fork of A's session",
    sql: () => `insert into sessions (model, parent_session_id) values ('claude-haiku-4-5', $1)`,
    foreign: (a) => a.session, own: (b) => b.session,
  },
  {
    table: "sessions", column: "summary_id", what: "a session using A's summary",
    sql: () => `insert into sessions (model, summary_id) values ('claude-haiku-4-5', $1)`,
    foreign: (a) => a.compaction, own: (b) => b.compaction,
  },
  {
    table: "sessions", column: "import_id", what: "a session credited to A's import",
    sql: () => `insert into sessions (model, import_id) values ('claude-haiku-4-5', $1)`,
    foreign: (a) => a.import, own: (b) => b.import,
  },
  {
    table: "sessions", column: "forked_from_checkpoint_id", what: "a session restored from A's checkpoint",
    sql: () => `insert into sessions (model, forked_from_checkpoint_id) values ('claude-haiku-4-5', $1)`,
    foreign: (a) => a.checkpoint, own: (b) => b.checkpoint,
  },
  {
    table: "compaction_logs", column: "session_id", what: "a compaction log on A's session",
    sql: () => `insert into compaction_logs (session_id, trigger, method, from_turn, through_turn, at_seq, prev_window_start_turn,
      pre_tokens, post_tokens, reduction_percent, messages_condensed, duration_ms, at_turn)
      values ($1, 'manual', 'llm', 1, 1, 1, 1, 100, 50, 50, 1, 1, 1)`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "compaction_logs", column: "prev_compaction_id", what: "a compaction log undoing into A's compaction",
    sql: (b) => `insert into compaction_logs (session_id, prev_compaction_id, trigger, method, from_turn, through_turn, at_seq,
      prev_window_start_turn, pre_tokens, post_tokens, reduction_percent, messages_condensed, duration_ms, at_turn)
      values ('${b.session}', $1, 'manual', 'llm', 1, 1, 1, 1, 100, 50, 50, 1, 1, 1)`,
    foreign: (a) => a.compaction, own: (b) => b.compaction,
  },
  {
    table: "session_checkpoints", column: "session_id", what: "a checkpoint on A's session",
    sql: () => `insert into session_checkpoints (session_id, trigger, through_seq, through_turn, window_start_turn, token_count)
      values ($1, 'manual', 2, 1, 1, 10)`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "session_checkpoints", column: "summary_id", what: "a checkpoint pointing at A's summary",
    sql: (b) => `insert into session_checkpoints (session_id, summary_id, trigger, through_seq, through_turn, window_start_turn, token_count)
      values ('${b.session}', $1, 'manual', 2, 1, 1, 10)`,
    foreign: (a) => a.compaction, own: (b) => b.compaction,
  },
  {
    table: "session_memories", column: "session_id", what: "a memory of A's session",
    sql: () => `insert into session_memories (session_id, source, summary, embedding_model) values ($1, 'manual', 'mine', 'local-lexical-v1')`,
    foreign: (a) => a.session, own: (b) => b.session,
  },
  {
    table: "session_memories", column: "project_id", what: "a memory in A's project",
    sql: () => `insert into session_memories (project_id, source, summary, embedding_model) values ($1, 'manual', 'mine', 'local-lexical-v1')`,
    foreign: (a) => a.project, own: (b) => b.project,
  },
  {
    table: "session_loaded_memories", column: "session_id", what: "a memory loaded into A's session",
    sql: (b) => `insert into session_loaded_memories (session_id, memory_id, tokens, score) values ($1, '${b.memory2}', 5, 0.5)`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "session_loaded_memories", column: "memory_id", what: "A's memory loaded into B's session",
    sql: (b) => `insert into session_loaded_memories (session_id, memory_id, tokens, score) values ('${b.other}', $1, 5, 0.5)`,
    foreign: (a) => a.memory, own: (b) => b.memory,
  },
  {
    table: "session_lineage", column: "session_id", what: "a lineage row making A's session read B's",
    sql: (b) => `insert into session_lineage (session_id, source_session_id, from_seq, to_seq) values ($1, '${b.session}', 100, 100)`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "session_lineage", column: "source_session_id", what: "a lineage row making B's session read A's",
    sql: (b) => `insert into session_lineage (session_id, source_session_id, from_seq, to_seq) values ('${b.other}', $1, 1, 2)`,
    foreign: (a) => a.session, own: (b) => b.session,
  },
  {
    table: "inherited_protection", column: "session_id", what: "a protection row on A's session",
    sql: (b) => `insert into inherited_protection (session_id, message_id) values ($1, '${b.message}')`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "inherited_protection", column: "message_id", what: "a protection row for A's message",
    sql: (b) => `insert into inherited_protection (session_id, message_id) values ('${b.other}', $1)`,
    foreign: (a) => a.message, own: (b) => b.message,
  },
  {
    table: "canvas_events", column: "session_id", what: "a canvas change on A's session",
    sql: () => `insert into canvas_events (session_id, at_seq, payload, source) values ($1, 1, '{"op":"clear"}', 'user')`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "files", column: "session_id", what: "a file attached to A's session",
    sql: () => `insert into files (session_id, name, media_type, kind, size, sha256) values ($1, 'x.txt', 'text/plain', 'text', 1, repeat('b', 64))`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "file_pages", column: "file_id", what: "a page of text added to A's file",
    sql: () => `insert into file_pages (file_id, page, text) values ($1, 99, 'planted')`,
    foreign: (a) => a.file, own: (b) => b.file2,
  },
  {
    table: "file_uses", column: "session_id", what: "B's file used in A's session",
    sql: (b) => `insert into file_uses (session_id, file_id, seq, turn_seq, tokens) values ($1, '${b.file}', 50, 9, 4)`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "file_uses", column: "file_id", what: "A's file used in B's session",
    sql: (b) => `insert into file_uses (session_id, file_id, seq, turn_seq, tokens) values ('${b.other}', $1, 51, 9, 4)`,
    foreign: (a) => a.file, own: (b) => b.file2,
  },
  {
    table: "client_conversations", column: "session_id", what: "a client's conversation mapped to A's session",
    sql: () => `insert into client_conversations (conversation, session_id) values ('planted', $1)`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    table: "session_drafts", column: "session_id", what: "a draft planted on A's session",
    sql: () => `insert into session_drafts (session_id, text) values ($1, 'planted')`,
    foreign: (a) => a.session, own: (b) => b.other,
  },
  {
    // B's streaming reply has no embedding row yet (it is enqueued when it completes).
    table: "message_embeddings", column: "message_id", what: "an embedding row for A's message",
    sql: () => `insert into message_embeddings (message_id) values ($1)`,
    foreign: (a) => a.message, own: (b) => b.streaming,
  },
];

/** B re-points one of B's own rows at a parent (no user filter: RLS alone decides). */
const UPDATES: Case[] = [
  { table: "webhook_deliveries", column: "webhook_id", what: "B's delivery moved onto A's webhook",
    sql: (b) => `update webhook_deliveries set webhook_id = $1 where id = '${b.delivery}'`, foreign: (a) => a.webhook, own: (b) => b.webhook2 },
  { table: "messages", column: "session_id", what: "B's streaming reply moved into A's session",
    sql: (b) => `update messages set session_id = $1, seq = seq + 1000 where id = '${b.streaming}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "sessions", column: "project_id", what: "B's session moved into A's project",
    sql: (b) => `update sessions set project_id = $1 where id = '${b.other}'`, foreign: (a) => a.project, own: (b) => b.project },
  { table: "sessions", column: "parent_session_id", what: "B's session made a fork of A's",
    sql: (b) => `update sessions set parent_session_id = $1 where id = '${b.other}'`, foreign: (a) => a.session, own: (b) => b.session },
  { table: "sessions", column: "summary_id", what: "B's session given A's summary",
    sql: (b) => `update sessions set summary_id = $1 where id = '${b.other}'`, foreign: (a) => a.compaction, own: (b) => b.compaction },
  { table: "sessions", column: "import_id", what: "B's session credited to A's import",
    sql: (b) => `update sessions set import_id = $1 where id = '${b.other}'`, foreign: (a) => a.import, own: (b) => b.import },
  { table: "sessions", column: "forked_from_checkpoint_id", what: "B's session pointed at A's checkpoint",
    sql: (b) => `update sessions set forked_from_checkpoint_id = $1 where id = '${b.other}'`, foreign: (a) => a.checkpoint, own: (b) => b.checkpoint },
  { table: "canvas_events", column: "session_id", what: "B's canvas change moved onto A's session",
    sql: (b) => `update canvas_events set session_id = $1 where session_id = '${b.session}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "compaction_logs", column: "session_id", what: "B's compaction log moved onto A's session",
    sql: (b) => `update compaction_logs set session_id = $1 where id = '${b.compaction}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "compaction_logs", column: "prev_compaction_id", what: "B's compaction log undoing into A's",
    sql: (b) => `update compaction_logs set prev_compaction_id = $1 where id = '${b.compaction}'`, foreign: (a) => a.compaction, own: (b) => b.compaction },
  { table: "session_checkpoints", column: "session_id", what: "B's checkpoint moved onto A's session",
    sql: (b) => `update session_checkpoints set session_id = $1 where id = '${b.checkpoint}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "session_checkpoints", column: "summary_id", what: "B's checkpoint pointed at A's summary",
    sql: (b) => `update session_checkpoints set summary_id = $1 where id = '${b.checkpoint}'`, foreign: (a) => a.compaction, own: (b) => b.compaction },
  { table: "session_memories", column: "session_id", what: "B's memory attached to A's session",
    sql: (b) => `update session_memories set session_id = $1 where id = '${b.memory}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "session_memories", column: "project_id", what: "B's memory moved into A's project",
    sql: (b) => `update session_memories set project_id = $1 where id = '${b.memory}'`, foreign: (a) => a.project, own: (b) => b.project },
  { table: "session_loaded_memories", column: "session_id", what: "B's loaded memory moved onto A's session",
    sql: (b) => `update session_loaded_memories set session_id = $1 where session_id = '${b.session}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "session_loaded_memories", column: "memory_id", what: "B's loaded memory swapped for A's memory",
    sql: (b) => `update session_loaded_memories set memory_id = $1 where session_id = '${b.session}'`, foreign: (a) => a.memory, own: (b) => b.memory2 },
  { table: "session_lineage", column: "session_id", what: "B's lineage row moved onto A's session",
    sql: (b) => `update session_lineage set session_id = $1 where session_id = '${b.fork}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "session_lineage", column: "source_session_id", what: "B's fork made to read A's session",
    sql: (b) => `update session_lineage set source_session_id = $1 where session_id = '${b.fork}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "inherited_protection", column: "session_id", what: "B's protection row moved onto A's session",
    sql: (b) => `update inherited_protection set session_id = $1 where session_id = '${b.fork}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "inherited_protection", column: "message_id", what: "B's protection row pointed at A's message",
    sql: (b) => `update inherited_protection set message_id = $1 where session_id = '${b.fork}'`, foreign: (a) => a.message, own: (b) => b.streaming },
  { table: "message_embeddings", column: "message_id", what: "B's embedding row pointed at A's message",
    sql: (b) => `update message_embeddings set message_id = $1 where message_id = '${b.message}'`, foreign: (a) => a.message, own: (b) => b.streaming },
  { table: "files", column: "session_id", what: "B's file moved onto A's session",
    sql: (b) => `update files set session_id = $1 where id = '${b.file2}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "file_pages", column: "file_id", what: "B's page of text moved onto A's file",
    sql: (b) => `update file_pages set file_id = $1 where file_id = '${b.file}'`, foreign: (a) => a.file, own: (b) => b.file2 },
  { table: "file_uses", column: "session_id", what: "B's file use moved onto A's session",
    sql: (b) => `update file_uses set session_id = $1 where file_id = '${b.file}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "file_uses", column: "file_id", what: "B's file use pointed at A's file",
    sql: (b) => `update file_uses set file_id = $1 where file_id = '${b.file}'`, foreign: (a) => a.file, own: (b) => b.file2 },
  { table: "client_conversations", column: "session_id", what: "B's conversation moved onto A's session",
    sql: (b) => `update client_conversations set session_id = $1 where session_id = '${b.session}'`, foreign: (a) => a.session, own: (b) => b.other },
  { table: "session_drafts", column: "session_id", what: "B's draft moved onto A's session",
    sql: (b) => `update session_drafts set session_id = $1 where session_id = '${b.session}'`, foreign: (a) => a.session, own: (b) => b.other },
  // INSERT ... ON CONFLICT DO UPDATE: the update side is checked too.
  { table: "session_loaded_memories", column: "memory_id", what: "an upsert of B's loaded memory swapping in A's memory",
    sql: (b) => `insert into session_loaded_memories (session_id, memory_id, tokens, score) values ('${b.session}', '${b.memory}', 1, 1)
      on conflict (session_id, memory_id) do update set memory_id = $1`,
    foreign: (a) => a.memory, own: (b) => b.memory2 },
];

/** Every table's row count as its owner sees it, to show that B's attempts changed nothing of A's. */
async function countsOf(user: string): Promise<Record<string, number>> {
  const tables = [...new Set([...INSERTS, ...UPDATES].map((c) => c.table)), "projects"];
  return withUser(user, async (tx) => {
    const out: Record<string, number> = {};
    for (const t of tables.sort()) out[t] = Number((await tx.query<{ n: number }>(`select count(*)::int as n from ${t}`))[0].n);
    return out;
  });
}

/** References checked by a composite foreign key to the parent's (id, user_id) rather than by a policy (migration 20261127000002). */
const KEYED = new Set(["messages.session_id"]);

/** References kept without a foreign key (a trigger removes the row with its parent; migration 20261127000003): the policy alone guards them. */
const UNKEYED = [{ tbl: "message_embeddings", col: "message_id", parent: "messages" }];

/** The migration's ownership check for each parent table. */
const OWNS: Record<string, string> = {
  sessions: "owns_session",
  projects: "owns_project",
  compaction_logs: "owns_compaction_log",
  session_checkpoints: "owns_checkpoint",
  session_memories: "owns_memory",
  messages: "owns_message",
  webhooks: "owns_webhook",
  files: "owns_file",
  imports: "owns_import",
};

describe("row-level security checks every row a new or changed row points at", () => {
  it("covers every foreign key between user-owned tables: a key that carries the user, or a restrictive policy naming the column", async () => {
    const fks = await db.transaction((tx) =>
      tx.query<{ tbl: string; col: string; parent: string; cols: string[]; parent_cols: string[] }>(
        `select c.conrelid::regclass::text as tbl, a.attname as col, c.confrelid::regclass::text as parent,
           array(select attname from unnest(c.conkey) with ordinality k(n, i) join pg_attribute x on x.attrelid = c.conrelid and x.attnum = k.n order by k.i)::text[] as cols,
           array(select attname from unnest(c.confkey) with ordinality k(n, i) join pg_attribute x on x.attrelid = c.confrelid and x.attnum = k.n order by k.i)::text[] as parent_cols
         from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
         where c.contype = 'f' and c.connamespace = 'public'::regnamespace
           and (select relnamespace from pg_class where oid = c.confrelid) = 'public'::regnamespace
         order by 1, 2`,
      ),
    );
    // A composite key is the parent's (id, user_id): the row can only point at its own user's parent.
    const keyed = fks.filter((f) => f.cols.length > 1);
    for (const f of keyed) expect({ cols: f.cols, parent: f.parent_cols }).toEqual({ cols: [f.col, "user_id"], parent: ["id", "user_id"] });
    expect(keyed.map((f) => `${f.tbl}.${f.col}`).sort()).toEqual([...KEYED].sort());
    const keys = (cases: Case[]) => [...new Set(cases.map((c) => `${c.table}.${c.column}`))].sort();
    const all = [...fks, ...UNKEYED].map((f) => `${f.tbl}.${f.col}`).sort();
    expect(keys(INSERTS)).toEqual(all);
    expect(keys(UPDATES)).toEqual(all);

    const policies = await db.transaction((tx) =>
      tx.query<{ tablename: string; policyname: string; permissive: string; cmd: string; qual: string | null; with_check: string }>(
        `select tablename, policyname, permissive, cmd, qual, with_check from pg_policies
         where schemaname = 'public' and policyname like '%\\_parents\\_%'`,
      ),
    );
    for (const f of [...fks.filter((x) => x.cols.length === 1), ...UNKEYED]) {
      for (const cmd of ["insert", "update"]) {
        const p = policies.find((x) => x.policyname === `${f.tbl}_parents_${cmd}`);
        expect(p, `${f.tbl}_parents_${cmd}`).toMatchObject({ tablename: f.tbl, permissive: "RESTRICTIVE", cmd: cmd.toUpperCase(), qual: null });
        expect(p?.with_check, `${f.tbl}.${f.col}`).toContain(`${OWNS[f.parent]}(${f.col})`);
      }
    }
  });

  describe.each([
    ["insert", INSERTS],
    ["update", UPDATES],
  ] as const)("%s", (kind, cases) => {
    it.each(cases.map((c) => [`${c.table}.${c.column}: ${c.what}`, c] as const))("B cannot write %s", async (_name, c) => {
      const before = await countsOf(A);
      const refused = await failure(withUser(B, (tx) => tx.query(c.sql(b), [c.foreign(a)])));
      if (KEYED.has(`${c.table}.${c.column}`)) {
        expect(refused?.code, refused?.message).toBe("23503");
        expect(refused?.message).toContain(`violates foreign key constraint`);
      } else {
        expect(refused?.code, refused?.message).toBe("42501");
        expect(refused?.message).toContain(`new row violates row-level security policy "${c.table}_parents_${kind}" for table "${c.table}"`);
      }
      // The same statement with B's own parent passes: the parent is what was refused.
      await tryAndRollBack(B, (tx) => tx.query(c.sql(b), [c.own(b)]));
      expect(await countsOf(A)).toEqual(before);
    });
  });

  it("the app's own functions, called by B with A's ids, are refused by RLS where they do not filter themselves", async () => {
    // A fork of B's pointing at A's session as its source.
    const lineage = await failure(withUser(B, (tx) => inheritHistory(tx, B, b.other, a.session, 2)));
    expect(lineage?.code).toBe("42501");
    // A canvas change written into A's session.
    const canvas = await failure(withUser(B, (tx) => insertCanvasEvents(tx, B, a.session, 1, [{ event: { op: "clear" }, source: "user" }])));
    expect(canvas?.code).toBe("42501");
    // A's memory recorded as loaded into B's session.
    const loaded = await failure(withUser(B, (tx) => recordLoaded(tx, B, b.other, [{ memoryId: a.memory, tokens: 5, score: 1 }], null, 0)));
    expect(loaded?.code).toBe("42501");
    // B's session moved into A's project (the route checks the project first; the function alone does not).
    const moved = await failure(withUser(B, (tx) => patchSession(tx, B, b.other, { projectId: a.project })));
    expect(moved?.code).toBe("42501");
    // Where the function filters by user, the first lock answers: not found.
    const appended = await failure(withUser(B, (tx) => appendMessage(tx, B, a.session, userMessage("hijack"))));
    expect(appended?.message).toMatch(/not found/i);
  });

  it("A's next message still takes A's next seq, and A reads exactly A's rows", async () => {
    const row = await withUser(A, (tx) => appendMessage(tx, A, a.session, userMessage("after B's attempts")));
    expect(row.seq).toBe(3);
    await withUser(A, async (tx) => {
      const foreign = await tx.query(
        `select 1 from messages where user_id <> $1 union all select 1 from session_lineage where user_id <> $1
         union all select 1 from inherited_protection where user_id <> $1 union all select 1 from session_loaded_memories where user_id <> $1`,
        [A],
      );
      expect(foreign).toEqual([]);
      // The only rows anywhere pointing at A's session are A's.
      const [{ n }] = await tx.query<{ n: number }>(`select count(*)::int as n from session_messages($1)`, [a.session]);
      expect(n).toBe(3);
    });
    const everyone = await db.transaction((tx) =>
      tx.query<{ user_id: string }>(
        `select user_id from messages where session_id = $1 union select user_id from session_lineage where source_session_id = $1
         union select user_id from session_checkpoints where session_id = $1 union select user_id from compaction_logs where session_id = $1
         union select user_id from session_loaded_memories where session_id = $1 union select user_id from session_memories where session_id = $1`,
        [a.session],
      ),
    );
    expect(everyone.map((r) => r.user_id)).toEqual([A]);
  });

  it("a user's own references keep working: forks, protection in a fork, loaded memories, deleting a source with forks", async () => {
    await withUser(A, async (tx) => {
      // A second fork of A's session, through A's own fork (lineage is flattened to the source).
      const [{ id: fork2 }] = await tx.query<{ id: string }>(
        `insert into sessions (user_id, model, parent_session_id, project_id, next_seq, last_turn_seq)
         values ($1, 'claude-haiku-4-5', $2, $3, 2, 1) returning id`,
        [A, a.fork, a.project],
      );
      await inheritHistory(tx, A, fork2, a.fork, 1);
      await setProtected(tx, A, a.message, true, fork2);
      await appendMessage(tx, A, fork2, reply("the fork's own"));
      await recordLoaded(tx, A, fork2, [{ memoryId: a.memory, tokens: 5, score: 1 }], "remembered", 5);
      await insertCheckpoint(tx, A, fork2, { label: "fork cp", trigger: "manual", tags: [], tokenCount: 20 });
      await compaction(tx, fork2);
      await insertMemory(tx, A, memory("of the fork", a.project, fork2));
      // Deleting the source hands its rows over to both forks (same user), then deletes it.
      await handOverToForks(tx, A, a.session);
      await deleteSession(tx, A, a.session);
      const [{ n }] = await tx.query<{ n: number }>(`select count(*)::int as n from session_messages($1)`, [fork2]);
      expect(n).toBe(2);
      const [{ p }] = await tx.query<{ p: boolean }>(`select protected as p from session_messages($1) where seq = 1`, [fork2]);
      expect(p).toBe(true);
    });
  });
});
