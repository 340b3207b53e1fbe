// A user pastes an Anthropic key, a database URL with its password and an `export
// STRIPE_SECRET=…` line. Whatever is derived from the conversation (compaction records,
// memories, titles, checkpoints, previews, the summarizer's requests) must not hold them; the
// stored messages and the chat requests to Claude must hold them verbatim.
import { describe, expect, it } from "vitest";
import * as compactRoute from "@/app/api/context/compact/route";
import * as saveCheckpointRoute from "@/app/api/checkpoint/save/route";
import * as restoreRoute from "@/app/api/checkpoint/[id]/restore/route";
import * as saveMemoryRoute from "@/app/api/memory/session/route";
import * as archiveRoute from "@/app/api/session/[id]/archive/route";
import type { CheckpointJson, CompactionJson, MemoryJson, SessionJson } from "@/lib/contract";
import type { RecordedRequest } from "../fake-anthropic/types";
import { idle, newSession, params, prose, req, sendJson, useHarness } from "./harness";

const h = useHarness();

const ANTHROPIC_KEY =
  "sk-ant-api03-Rq7Lx2Vb9Nc4Mz8Kd1Fh6Tg3Wy5Pj0Hs2Qe7Ua9Ic4Ob1Xn6Ev8Zl3Ym5Ar0Dt2Gk7Bw9Cu4Sf1Ji6Np8Lq3Mh5Ko0Vx2Tz7Ry-Pc9AA";
const DB_PASSWORD = "S3cretPass";
const DB_URL = `postgres://app:${DB_PASSWORD}@db.internal:5432/prod`;
const STRIPE_SECRET = "whsec_Q9vT2xW7yZ4aB1cD6eF8";
const SECRETS = [ANTHROPIC_KEY, DB_PASSWORD, STRIPE_SECRET];

const FIRST = `My key is ${ANTHROPIC_KEY} and the database is ${DB_URL}. Please set up the deploy.`;
const PASTE = [
  "Here is what production uses:",
  "```sh",
  `export ANTHROPIC_API_KEY=${ANTHROPIC_KEY}`,
  `export DATABASE_URL=${DB_URL}`,
  `export STRIPE_SECRET=${STRIPE_SECRET}`,
  "```",
  `We decided to deploy with ${DB_URL} as the primary database.`,
].join("\n");

/** Every secret found in `text`, compared without case (full-text vectors lower-case words). */
function leaked(text: string): string[] {
  const lower = text.toLowerCase();
  return SECRETS.filter((s) => lower.includes(s.toLowerCase()));
}

const json = (v: unknown) => JSON.stringify(v);

async function body<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** Every row of every table except messages, as JSON: whatever is stored besides the conversation. */
async function derivedRows(): Promise<string> {
  return h.db.transaction(async (tx) => {
    const tables = await tx.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'messages'`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(["sessions", "compaction_logs", "session_checkpoints", "session_memories"]));
    const rows: string[] = [];
    for (const { table_name } of tables) {
      for (const r of await tx.query<{ j: string }>(`select row_to_json(t)::text as j from public.${table_name} t`)) rows.push(`${table_name}: ${r.j}`);
    }
    return rows.join("\n");
  });
}

async function storedMessages(sessionId: string): Promise<string> {
  const rows = await h.db.transaction((tx) => tx.query<{ j: string }>(`select row_to_json(m)::text as j from messages m where session_id = $1`, [sessionId]));
  return rows.map((r) => r.j).join("\n");
}

/** What the session picker shows as the session's last message. */
async function lastMessagePreview(sessionId: string): Promise<string> {
  const [row] = await h.db.transaction((tx) => tx.query<{ p: string }>(`select last_message_preview as p from sessions where id = $1`, [sessionId]));
  return row.p;
}

/** A session whose turns 2 and 3 (the ones a compaction condenses) carry the secrets. */
async function sessionWithSecrets(): Promise<SessionJson> {
  const s = await newSession({ settings: { output_reservation: 0.5, safety_buffer: 0.3, auto_compact: false } });
  const first = await sendJson(s.id, FIRST);
  expect(first.res.status).toBe(201);
  await idle(h, s.id);
  await sendJson(s.id, `${PASTE}\n\n${prose(300, 1)}`);
  await sendJson(s.id, `Also check ${DB_URL} from the worker, with STRIPE_SECRET=${STRIPE_SECRET} in its env. ${prose(300, 2)}`);
  for (let i = 3; i < 5; i++) await sendJson(s.id, `Next step ${i}: ${prose(300, i)}`);
  await idle(h, s.id);
  return s;
}

async function compact(sessionId: string, instructions?: string): Promise<CompactionJson> {
  const res = await compactRoute.POST(req("POST", "/api/context/compact", { session_id: sessionId, force: true, instructions }), undefined);
  return (await body<{ compaction: CompactionJson }>(res, 201)).compaction;
}

const isSummarizerCall = (r: RecordedRequest) => r.path === "/v1/messages" && json(r.body).includes("<transcript>");
const isTitleCall = (r: RecordedRequest) => r.path === "/v1/messages" && json(r.body).includes("Title this conversation");
const isChatCall = (r: RecordedRequest) => r.path === "/v1/messages" && (r.body as { stream?: boolean } | null)?.stream === true;

/** The compaction record and what it derived carry placeholders, never the secrets. */
function expectRedactedCompaction(c: CompactionJson): void {
  expect(leaked(json(c))).toEqual([]);
  expect(c.summary).toContain("[redacted: ");
  // Must-keep items were drawn from the redacted turns and found in (or appended to) the
  // redacted summary: verification stays whole.
  expect(c.items_total).toBeGreaterThan(0);
  expect(c.retention_rate).toBe(1);
}

describe("secrets pasted into a conversation", () => {
  it("stay out of the LLM summary and its request, the memory, the title, checkpoints and previews; the messages and Claude's requests keep them", async () => {
    // The first turn: Claude's answer repeats the secrets, and so does the title Haiku suggests.
    h.fake.enqueue(
      { kind: "reply", text: `Got it: ${ANTHROPIC_KEY} for Claude and ${DB_URL} for the database.` },
      { kind: "reply", text: `Deploy with ${ANTHROPIC_KEY}` },
    );
    const s = await sessionWithSecrets();
    const titleCall = h.fake.requests.find(isTitleCall);
    expect(titleCall).toBeDefined();
    expect(leaked(json(titleCall?.body))).toEqual([]);
    expect(json(titleCall?.body)).toContain("[redacted: ANTHROPIC_API_KEY]");

    // A summarizer that leaks (it may quote an old summary): its answer is redacted too.
    const before = h.fake.requests.length;
    h.fake.enqueue({ kind: "reply", text: `### Session Summary\nDeploy configured with ${ANTHROPIC_KEY} and ${DB_URL}.` });
    const c = await compact(s.id, `focus on the deploy that uses ${ANTHROPIC_KEY}`);
    expect(c.method).toBe("llm");
    expect(c.instructions).toBe("focus on the deploy that uses [redacted: ANTHROPIC_API_KEY]");
    const summarizerCalls = h.fake.requests.slice(before).filter(isSummarizerCall);
    expect(summarizerCalls).toHaveLength(1);
    const sent = json(summarizerCalls[0].body);
    expect(leaked(sent)).toEqual([]);
    for (const p of ["[redacted: ANTHROPIC_API_KEY]", "postgres://app:[redacted: PASSWORD]@db.internal:5432/prod", "STRIPE_SECRET=[redacted: STRIPE_SECRET]"]) {
      expect(sent).toContain(p);
    }
    expectRedactedCompaction(c);
    expect(c.summary).toContain("Deploy configured with [redacted: ANTHROPIC_API_KEY] and postgres://app:[redacted: PASSWORD]@db.internal:5432/prod.");
    expect(json(c.preserved_items)).toContain("[redacted: ");

    // Archive: Haiku again, and again leaking.
    h.fake.enqueue({ kind: "reply", text: `### Session Summary\nThe worker reads STRIPE_SECRET=${STRIPE_SECRET}.` });
    const { memory } = await body<{ memory: MemoryJson }>(await archiveRoute.POST(req("POST", `/api/session/${s.id}/archive`), params({ id: s.id })), 201);
    expect(leaked(json(memory))).toEqual([]);
    expect(memory.summary).toContain("STRIPE_SECRET=[redacted: STRIPE_SECRET]");

    // Claude's echo of this message is the session's last message: the picker's preview of it.
    await sendJson(s.id, `One more thing: rotate ${ANTHROPIC_KEY} after the deploy.`);
    await idle(h, s.id);
    const preview = await lastMessagePreview(s.id);
    expect(preview).toContain("rotate [redacted: ANTHROPIC_API_KEY] after the deploy");
    expect(leaked(preview)).toEqual([]);

    // A checkpoint labelled with a key (its preview shows those last messages), and a fork restored from it.
    const { checkpoint } = await body<{ checkpoint: CheckpointJson }>(
      await saveCheckpointRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: `before rotating ${ANTHROPIC_KEY}` }), undefined),
      201,
    );
    expect(checkpoint.label).toBe("before rotating [redacted: ANTHROPIC_API_KEY]");
    expect(checkpoint.preview.length).toBeGreaterThan(0);
    expect(leaked(json(checkpoint))).toEqual([]);
    const { session: fork } = await body<{ session: SessionJson }>(
      await restoreRoute.POST(req("POST", `/api/checkpoint/${checkpoint.id}/restore`), params({ id: checkpoint.id })),
      201,
    );
    expect(leaked(json(fork))).toEqual([]);
    expect(json(checkpoint.preview)).toContain("rotate [redacted: ANTHROPIC_API_KEY] after the deploy");
    expect(await lastMessagePreview(fork.id)).toContain("rotate [redacted: ANTHROPIC_API_KEY] after the deploy");

    // The next chat request: the summary in the system prompt is redacted, the first turn
    // (always in the window) reaches Claude exactly as the user wrote it.
    const chatBefore = h.fake.requests.length;
    await sendJson(s.id, "What is left to do?");
    await idle(h, s.id);
    const chat = h.fake.requests.slice(chatBefore).find(isChatCall)?.body as { system: { text: string }[]; messages: unknown[] };
    const system = chat.system.map((b) => b.text).join("");
    expect(system).toContain("<conversation_summary>");
    expect(leaked(system)).toEqual([]);
    expect(json(chat.messages)).toContain(ANTHROPIC_KEY);
    expect(json(chat.messages)).toContain(DB_URL);

    // Stored: the messages verbatim (user's and Claude's), nothing else with a secret.
    const messages = await storedMessages(s.id);
    for (const secret of SECRETS) expect(messages).toContain(secret);
    expect(leaked(await derivedRows())).toEqual([]);
    const [row] = await h.db.transaction((tx) => tx.query<{ title: string }>(`select title from sessions where id = $1`, [s.id]));
    expect(row.title).toBe("Deploy with [redacted: ANTHROPIC_API_KEY]");
  });

  it("stay out of the extractive summary when the summarizer fails, and out of what the failed calls carried", async () => {
    const s = await sessionWithSecrets();
    // A summary written before redaction existed, holding a password: it is the previous
    // summary this compaction extends, and must not carry the password forward.
    const legacy = `### Session Summary\nThe staging database is postgres://stage:${DB_PASSWORD}@db.staging:5432/app.`;
    await h.db.transaction((tx) => tx.query(`update sessions set summary_text = $2 where id = $1`, [s.id, legacy]));
    const before = h.fake.requests.length;
    h.fake.enqueue({ kind: "error", status: 500 }, { kind: "error", status: 500 });
    const c = await compact(s.id);
    expect(c).toMatchObject({ method: "extractive" });
    expect(c.fallback_reason).toMatch(/summarizer failed/);
    const attempts = h.fake.requests.slice(before).filter(isSummarizerCall);
    expect(attempts.length).toBeGreaterThan(0);
    for (const a of attempts) expect(leaked(json(a.body))).toEqual([]);
    expectRedactedCompaction(c);
    // The extractive summary keeps the decision and the old summary's URL, passwords redacted.
    expect(c.summary).toContain("postgres://app:[redacted: PASSWORD]@db.internal:5432/prod");
    expect(c.summary).toContain("postgres://stage:[redacted: PASSWORD]@db.staging:5432/app");
    // Only the checkpoint taken just before points at the old state, planted summary included
    // (a checkpoint restores exactly what was); the planted session then goes, so later scans
    // see only what the app wrote.
    const rows = (await derivedRows()).split("\n").filter((r) => !(r.startsWith("session_checkpoints:") && r.includes("db.staging")));
    expect(leaked(rows.join("\n"))).toEqual([]);
    await h.db.transaction((tx) => tx.query(`delete from sessions where id = $1`, [s.id]));
  });

  it("stay out of everything offline: the first-sentence title, the extractive summary, the archive and a memory saved by hand", async () => {
    delete process.env.ANTHROPIC_API_KEY;
    const s = await sessionWithSecrets();
    const [row] = await h.db.transaction((tx) => tx.query<{ title: string; title_source: string }>(`select title, title_source from sessions where id = $1`, [s.id]));
    expect(row.title_source).toBe("heuristic");
    expect(row.title).toContain("[redacted: ANTHROPIC_API_KEY]");
    expect(leaked(row.title)).toEqual([]);

    const c = await compact(s.id);
    expect(c.method).toBe("extractive");
    expectRedactedCompaction(c);
    const { memory: archived } = await body<{ memory: MemoryJson }>(await archiveRoute.POST(req("POST", `/api/session/${s.id}/archive`), params({ id: s.id })), 201);
    expect(leaked(json(archived))).toEqual([]);
    expect(archived.summary).toContain("[redacted: ");

    const { memory: manual } = await body<{ memory: MemoryJson }>(
      await saveMemoryRoute.POST(
        req("POST", "/api/memory/session", {
          summary: `Production: ${PASTE}`,
          session_id: s.id,
          key_decisions: [`Use ${DB_URL}`],
          code_references: [`export STRIPE_SECRET=${STRIPE_SECRET}`],
          tags: ["deploy"],
        }),
        undefined,
      ),
      201,
    );
    expect(leaked(json(manual))).toEqual([]);
    expect(manual.key_decisions).toEqual(["Use postgres://app:[redacted: PASSWORD]@db.internal:5432/prod"]);
    expect(manual.code_references).toEqual(["export STRIPE_SECRET=[redacted: STRIPE_SECRET]"]);
    expect(manual.tags).toEqual(["deploy"]);

    expect(h.fake.requests.filter((r) => r.path === "/v1/messages")).toEqual([]);
    const messages = await storedMessages(s.id);
    for (const secret of SECRETS) expect(messages).toContain(secret);
    expect(leaked(await derivedRows())).toEqual([]);
  });
});
