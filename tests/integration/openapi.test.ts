// Real answers against /api/openapi.json: every route is called through its handler (real
// PGlite, the fake Anthropic server), and each answer's status must be one the document lists
// for that operation and its body must validate against the schema it promises, errors
// included. The last test checks that every operation was seen succeeding at least once.
import type { CanvasJson } from "@/lib/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi/document";
import type {
  CheckpointJson,
  CompactionJson,
  LoadedMemoryJson,
  MemoryJson,
  MessagesPageJson,
  ProjectJson,
  SendEvent,
  SendResultJson,
  SessionJson,
  TemplateJson,
} from "@/lib/contract";
import { readdir } from "node:fs/promises";
import path from "node:path";
import pkg from "@/package.json";
import { setDb, type Database } from "@/lib/db";
import type { HealthJson, HealthUnavailableJson, StorageJson } from "@/lib/contract/health";
import { DocumentValidator, type HttpMethod } from "../openapi-validator";
import { idle, prose, readSse, req, useHarness } from "./harness";
import { routeFiles, routeOf } from "../api-routes";

const h = useHarness();
const doc = openApiDocument();
const validator = new DocumentValidator(doc);

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const routes = new Map<string, Partial<Record<Method, Handler>>>();


beforeAll(async () => {
  for (const file of await routeFiles()) {
    const route = routeOf(file);
    routes.set(route.replace(/\[(\w+)\]/g, "{$1}"), (await import(file)) as Partial<Record<Method, Handler>>);
  }
}, 60_000);

interface Call {
  params?: Record<string, string>;
  query?: string;
  /** A string is sent as it is (malformed JSON); anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** A multipart body (an upload) instead. */
  form?: FormData;
  /** Ends a stream that would not end by itself (the live events). */
  signal?: AbortSignal;
}

/** Operation and status of every validated answer: `POST /api/session 201`. */
const seen = new Set<string>();
/** Event names of every validated stream. */
const seenEvents = new Set<string>();

/** A JSON body, or null for a bodiless answer (a 202 has none either). */
async function jsonOrNull(res: Response): Promise<unknown> {
  const text = await res.text();
  return text === "" ? null : JSON.parse(text);
}

/** Calls a route's handler and checks the answer against the document; answers the parsed body. */
async function api<T = Record<string, unknown>>(method: Method, template: string, call: Call = {}): Promise<{ status: number; body: T }> {
  const handler = routes.get(template)?.[method];
  if (!handler) throw new Error(`no route ${method} ${template}`);
  const url = template.replace(/\{(\w+)\}/g, (_, name: string) => call.params?.[name] ?? "") + (call.query ?? "");
  const built = call.form ? new Request(`http://127.0.0.1:3000${url}`, { method, body: call.form, headers: call.headers }) : req(method, url, call.body, call.headers);
  const request = call.signal ? new Request(built, { signal: call.signal }) : built;
  const res = await handler(request, { params: Promise.resolve(call.params ?? {}) });
  // A file's own bytes are the document's application/octet-stream, whatever type they are served as.
  // (An export or a CSV is a download too, but of its own documented type.)
  const served = res.headers.get("content-type") ?? "";
  const file = res.status === 200 && res.headers.has("content-disposition") && !/^(application\/json|text\/markdown|text\/csv)/.test(served);
  const type = file ? "application/octet-stream" : served;
  const body: unknown =
    res.status === 204
      ? null
      : file
        ? await res.arrayBuffer().then(() => "")
      : type.startsWith("text/event-stream")
        ? await readSse(res)
        : type.startsWith("text/plain") || type.startsWith("text/csv") || type.startsWith("text/markdown")
          ? await res.text()
          : await jsonOrNull(res);
  const problems = validator.check(method.toLowerCase() as HttpMethod, template, res.status, type || "application/json", body);
  expect(problems, `${method} ${template} answered ${res.status}: ${JSON.stringify(body).slice(0, 800)}`).toEqual([]);
  seen.add(`${method} ${template} ${res.status}`);
  if (Array.isArray(body)) for (const e of body as SendEvent[]) seenEvents.add(e.event);
  return { status: res.status, body: body as T };
}

/** The same, asserting the status (and the error code, for errors). */
async function expectStatus<T = Record<string, unknown>>(status: number, method: Method, template: string, call: Call = {}, code?: string) {
  const r = await api<T>(method, template, call);
  expect(r.status, JSON.stringify(r.body).slice(0, 800)).toBe(status);
  if (code) expect((r.body as { error: { code: string } }).error.code).toBe(code);
  return r.body;
}

const json = { accept: "application/json" };
const missing = "7d9f3c2e-1b4a-4c5d-8e6f-0a1b2c3d4e5f";
// Settings that leave little room, so a few messages make something worth condensing.
const TIGHT = { output_reservation: 0.5, safety_buffer: 0.3 };

async function newSession(body: object = {}): Promise<SessionJson> {
  return (await expectStatus<{ session: SessionJson }>(201, "POST", "/api/session", { body })).session;
}

async function send(id: string, content: string, extra: object = {}): Promise<SendResultJson> {
  const r = await expectStatus<SendResultJson>(201, "POST", "/api/session/{id}/messages", { params: { id }, body: { content, ...extra }, headers: json });
  await idle(h, id);
  return r;
}

describe("sessions", () => {
  it("create, list, pick, get, rename, delete", async () => {
    const s = await newSession({ title: "OpenAPI tour", settings: { compaction_threshold: 0.75 } });
    await expectStatus(200, "GET", "/api/session", { query: "?limit=5" });
    await expectStatus(200, "GET", "/api/session/recent", { query: "?q=tour&from=2020-01-01&limit=3" });
    await expectStatus(200, "GET", "/api/session/{id}", { params: { id: s.id } });
    await expectStatus(200, "PATCH", "/api/session/{id}", { params: { id: s.id }, body: { title: "Renamed" } });
    await expectStatus(204, "DELETE", "/api/session/{id}", { params: { id: s.id } });
    await expectStatus(404, "GET", "/api/session/{id}", { params: { id: s.id } }, "not_found");
  });

  it("malformed input: 400 naming the field, malformed JSON, a malformed or unknown id", async () => {
    await expectStatus(400, "POST", "/api/session", { body: { title: "x", colour: "red" } }, "invalid_request");
    await expectStatus(400, "POST", "/api/session", { body: { model: "gpt-4" } }, "invalid_request");
    await expectStatus(400, "POST", "/api/session", { body: "{not json" }, "malformed_json");
    await expectStatus(400, "GET", "/api/session", { query: "?limit=0" }, "invalid_request");
    await expectStatus(404, "GET", "/api/session/{id}", { params: { id: "not-a-uuid" } }, "not_found");
    await expectStatus(404, "PATCH", "/api/session/{id}", { params: { id: missing }, body: { title: "x" } }, "not_found");
  });

  it("a browser write from another site is 403 csrf_rejected", async () => {
    await expectStatus(403, "POST", "/api/session", { body: {}, headers: { "sec-fetch-site": "cross-site" } }, "csrf_rejected");
  });

  it("SaaS mode: no credentials is 401; an unverifiable token is 503 auth_unavailable", async () => {
    process.env.SUPABASE_URL = "http://127.0.0.1:9";
    process.env.SUPABASE_PUBLISHABLE_KEY = "sb_publishable_test";
    try {
      await expectStatus(401, "GET", "/api/session", {}, "unauthenticated");
      await expectStatus(401, "DELETE", "/api/projects/{id}", { params: { id: missing }, headers: { authorization: "Basic x" } }, "unauthenticated");
      // A well-formed token whose signing keys cannot be fetched (nothing listens on port 9).
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
      const token = `${part({ alg: "ES256", kid: "k1" })}.${part({ sub: missing })}.${Buffer.from("sig").toString("base64url")}`;
      await expectStatus(503, "GET", "/api/context/templates", { headers: { authorization: `Bearer ${token}` } }, "auth_unavailable");
    } finally {
      delete process.env.SUPABASE_URL;
      delete process.env.SUPABASE_PUBLISHABLE_KEY;
    }
  });
});

describe("projects", () => {
  it("create, list, rename, delete; duplicate names are 409", async () => {
    const { project } = await expectStatus<{ project: ProjectJson }>(201, "POST", "/api/projects", { body: { name: "Docs" } });
    await expectStatus(409, "POST", "/api/projects", { body: { name: "Docs" } }, "duplicate_name");
    await expectStatus(200, "GET", "/api/projects");
    await expectStatus(200, "PATCH", "/api/projects/{id}", { params: { id: project.id }, body: { name: "Docs 2" } });
    const s = await newSession();
    await expectStatus(200, "PATCH", "/api/session/{id}", { params: { id: s.id }, body: { project_id: project.id } });
    await expectStatus(200, "GET", "/api/session/recent", { query: `?project_id=${project.id}` });
    await expectStatus(204, "DELETE", "/api/projects/{id}", { params: { id: project.id } });
    await expectStatus(404, "DELETE", "/api/projects/{id}", { params: { id: project.id } }, "not_found");
  });
});

describe("files", () => {
  it("upload, list, read the bytes, attach to a message, find its words, usage, delete; 415, 413, 400 and 404", async () => {
    const s = await newSession();
    const form = (name: string, body: BlobPart, type = "text/plain") => {
      const f = new FormData();
      f.set("file", new File([body], name, { type }));
      return f;
    };
    const { file } = await expectStatus<{ file: { id: string } }>(201, "POST", "/api/session/{id}/files", { params: { id: s.id }, form: form("notes.txt", "Ship on Friday.") });
    await expectStatus(415, "POST", "/api/session/{id}/files", { params: { id: s.id }, form: form("tool.exe", "MZ\u0000binary", "application/octet-stream") }, "unsupported_media_type");
    await expectStatus(413, "POST", "/api/session/{id}/files", { params: { id: s.id }, form: form("big.txt", "x".repeat(5 * 1024 * 1024 + 1)) }, "file_too_large");
    // An image that is not one is refused at once; a corrupt PDF too, unless its reading outlasts the upload's wait on a busy machine (files.test.ts).
    await expectStatus(400, "POST", "/api/session/{id}/files", { params: { id: s.id }, form: form("broken.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), "image/png") }, "invalid_file");
    await expectStatus(200, "GET", "/api/session/{id}/files", { params: { id: s.id } });
    await expectStatus(200, "GET", "/api/files/{id}", { params: { id: file.id } });
    await expectStatus(201, "POST", "/api/session/{id}/messages", { params: { id: s.id }, body: { content: "read it", attachments: [file.id] }, headers: json });
    await idle(h, s.id);
    // A hit inside the sent file validates against the document's hit shape.
    const found = await expectStatus<{ hits: { file?: { id: string; page: number } }[] }>(200, "GET", "/api/search", { query: "?q=Friday" });
    expect(found.hits.find((x) => x.file)?.file).toMatchObject({ id: file.id, page: 1 });
    await expectStatus(200, "GET", "/api/files");
    await expectStatus(204, "DELETE", "/api/files/{id}", { params: { id: file.id } });
    await expectStatus(404, "GET", "/api/files/{id}", { params: { id: file.id } }, "not_found");
  });
});

describe("preferences", () => {
  it("a draft, the session's system prompt, custom instructions and the Anthropic key", async () => {
    const s = await newSession();
    await expectStatus(200, "GET", "/api/session/{id}/draft", { params: { id: s.id } });
    await expectStatus(200, "PUT", "/api/session/{id}/draft", { params: { id: s.id }, body: { text: "half a thought" } });
    await expectStatus(400, "PUT", "/api/session/{id}/draft", { params: { id: s.id }, body: { text: 7 } }, "invalid_request");
    await expectStatus(404, "GET", "/api/session/{id}/draft", { params: { id: missing } }, "not_found");
    await expectStatus(200, "GET", "/api/session/{id}/system-prompt", { params: { id: s.id } });
    await expectStatus(200, "PUT", "/api/session/{id}/system-prompt", { params: { id: s.id }, body: { system_prompt: "Answer in French." } });
    await expectStatus(200, "GET", "/api/account/instructions");
    await expectStatus(200, "PUT", "/api/account/instructions", { body: { instructions: "" } });
    await expectStatus(200, "GET", "/api/account/anthropic-key");
    await expectStatus(400, "PUT", "/api/account/anthropic-key", { body: { key: "not a key" } }, "invalid_request");
    await expectStatus(200, "PUT", "/api/account/anthropic-key", { body: { key: "sk-ant-api03-openapi-tour-0000000000" } });
    await expectStatus(200, "DELETE", "/api/account/anthropic-key");
  });
});

describe("messages", () => {
  it("send as JSON and as Server-Sent Events; history pages; status", async () => {
    const s = await newSession();
    const sent = await send(s.id, "[[reply:Hello there.]] Hi!");
    expect(sent.assistant_message?.text).toBe("Hello there.");
    const events = await expectStatus<SendEvent[]>(200, "POST", "/api/session/{id}/messages", {
      params: { id: s.id },
      body: { content: "[[reply:Streamed.]] And again, streamed." },
      headers: { "idempotency-key": "stream-1" },
    });
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(["user_message", "delta", "assistant_message", "status", "done"]));
    await idle(h, s.id);
    const page = await expectStatus<MessagesPageJson>(200, "GET", "/api/session/{id}/messages", { params: { id: s.id }, query: "?limit=2" });
    expect(page.has_more).toBe(true);
    await expectStatus(200, "GET", "/api/session/{id}/messages", { params: { id: s.id }, query: `?before_seq=${page.messages[0].seq}` });
    await expectStatus(400, "GET", "/api/session/{id}/messages", { params: { id: s.id }, query: "?limit=9999" }, "invalid_request");
    await expectStatus(200, "GET", "/api/context/status", { query: `?session_id=${s.id}` });
    await expectStatus(400, "GET", "/api/context/status", {}, "invalid_request");
    await expectStatus(404, "GET", "/api/context/status", { query: `?session_id=${missing}` }, "not_found");
  });

  it("the send's conflicts and limits: 400, 409, 413", async () => {
    const s = await newSession();
    const at = { params: { id: s.id }, headers: json };
    await expectStatus(400, "POST", "/api/session/{id}/messages", { ...at, body: { content: "x", retry: true } }, "invalid_request");
    await expectStatus(409, "POST", "/api/session/{id}/messages", { ...at, body: { regenerate: true } }, "nothing_to_regenerate");
    await expectStatus(409, "POST", "/api/session/{id}/messages", { ...at, body: { retry: true } }, "nothing_to_retry");
    const first = await send(s.id, "[[reply:ok]] The first.");
    await send(s.id, "[[reply:ok]] The second.");
    await send(s.id, "[[reply:ok]] An edit of the first.", { edit_of: first.user_message.id });
    await expectStatus(409, "POST", "/api/session/{id}/messages", { ...at, body: { content: "edit", edit_of: first.user_message.id } }, "not_current_version");
    process.env.THREADKEEPER_MAX_MESSAGE_BYTES = "64";
    try {
      await expectStatus(413, "POST", "/api/session/{id}/messages", { ...at, body: { content: "x".repeat(100) } }, "message_too_large");
      await expectStatus(413, "POST", "/api/session/{id}/messages", { ...at, body: { content: "x".repeat(5000) } }, "payload_too_large");
    } finally {
      delete process.env.THREADKEEPER_MAX_MESSAGE_BYTES;
    }
  });

  it("a failing Claude call is 502 in JSON mode, with the saved messages in details", async () => {
    const s = await newSession();
    const failed = await expectStatus<{ error: { code: string; details: SendResultJson } }>(502, "POST", "/api/session/{id}/messages", {
      params: { id: s.id },
      body: { content: "[[fault:drop]] This breaks off." },
      headers: json,
    });
    expect(failed.error.details.user_message.text).toContain("This breaks off.");
    await idle(h, s.id);
  });

  it("stop: 202 while a reply is written, 409 when none is", async () => {
    const s = await newSession();
    await expectStatus(409, "POST", "/api/session/{id}/stop", { params: { id: s.id } }, "nothing_to_stop");
    h.fake.enqueue({ kind: "slow", text: "one two three four five six seven eight nine ten", delayMs: 6_000 });
    const running = api<SendEvent[]>("POST", "/api/session/{id}/messages", { params: { id: s.id }, body: { content: "Write slowly." } });
    for (let i = 0; i < 100; i++) {
      const [row] = await h.db.transaction((tx) =>
        tx.query<{ n: number }>("select count(*)::int as n from messages where session_id = $1 and role = 'assistant' and text <> ''", [s.id]),
      );
      if (row.n > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await expectStatus(202, "POST", "/api/session/{id}/stop", { params: { id: s.id } });
    const { body: events } = await running;
    expect(events.at(-1)?.event).toBe("done");
    await idle(h, s.id);
  });
});

describe("a session's live events", () => {
  it("sync first, then each change; 404 for a session that is not the caller's", async () => {
    const s = await newSession();
    const stop = new AbortController();
    const open = api<{ event: string }[]>("GET", "/api/session/{id}/events", { params: { id: s.id }, signal: stop.signal });
    await new Promise((r) => setTimeout(r, 300));
    await expectStatus(200, "PATCH", "/api/session/{id}", { params: { id: s.id }, body: { title: "Live" } });
    await new Promise((r) => setTimeout(r, 300));
    stop.abort();
    const { status, body } = await open;
    expect(status).toBe(200);
    expect(body.map((e) => e.event)).toEqual(["sync", "session"]);
    await expectStatus(404, "GET", "/api/session/{id}/events", { params: { id: missing } }, "not_found");
  });
});

describe("the event stream", () => {
  const stream = async (id: string, content: string) => {
    const events = await expectStatus<SendEvent[]>(200, "POST", "/api/session/{id}/messages", { params: { id }, body: { content } });
    await idle(h, id);
    return events.map((e) => e.event);
  };

  /** Streams large messages until one of the events named appears; answers all the names seen. */
  async function fillUntil(id: string, wanted: string): Promise<string[]> {
    const names: string[] = [];
    for (let i = 0; i < 10 && !names.includes(wanted); i++) names.push(...(await stream(id, `[[reply:Noted.]] ${prose(11_000, i)}`)));
    return names;
  }

  it("validates every kind of event: a notice when the window slides, compaction, checkpoint, error", async () => {
    const sliding = await newSession({ settings: { ...TIGHT, auto_compact: false } });
    expect(await fillUntil(sliding.id, "notice")).toContain("notice");
    const compacting = await newSession({ settings: TIGHT });
    expect(await fillUntil(compacting.id, "compaction")).toContain("compaction");
    expect(await stream(compacting.id, "[[reply:We decided to use Postgres.]] Which database?")).toContain("checkpoint");
    expect(await stream(compacting.id, "[[fault:drop]] This one breaks off.")).toContain("error");
  });
});

describe("context", () => {
  it("settings: your defaults and a session's, 400 out of range, 404 for a session not yours", async () => {
    const s = await newSession();
    await expectStatus(200, "GET", "/api/context/settings");
    await expectStatus(200, "PUT", "/api/context/settings", { body: { memory_ttl_days: 60 } });
    await expectStatus(200, "PUT", "/api/context/settings", { query: `?session_id=${s.id}`, body: { compaction_threshold: 0.7 } });
    await expectStatus(200, "GET", "/api/context/settings", { query: `?session_id=${s.id}` });
    await expectStatus(400, "PUT", "/api/context/settings", { body: { compaction_threshold: 2 } }, "invalid_request");
    await expectStatus(404, "GET", "/api/context/settings", { query: `?session_id=${missing}` }, "not_found");
  });

  it("compaction: 409 below the threshold, 201 forced, 429 again at once, history, undo, 409 cannot_undo", async () => {
    const s = await newSession({ settings: { ...TIGHT, auto_compact: false } });
    for (let i = 0; i < 4; i++) await send(s.id, `[[reply:Noted.]] Turn ${i}: src/app/page${i}.tsx ${prose(400, i)}`);
    const compactBody = { session_id: s.id };
    const refused = await api<{ error: { code: string } }>("POST", "/api/context/compact", { body: compactBody });
    expect(refused.status).toBe(409);
    expect(["below_threshold", "nothing_to_compact"]).toContain(refused.body.error.code);
    const { compaction } = await expectStatus<{ compaction: CompactionJson }>(201, "POST", "/api/context/compact", {
      body: { ...compactBody, force: true, preset: "debugging", instructions: "keep the file names" },
    });
    await expectStatus(429, "POST", "/api/context/compact", { body: { ...compactBody, force: true } }, "rate_limited");
    await expectStatus(400, "POST", "/api/context/compact", { body: { ...compactBody, preset: "poetry" } }, "invalid_request");
    await expectStatus(404, "POST", "/api/context/compact", { body: { session_id: missing, force: true } }, "not_found");
    await expectStatus(200, "GET", "/api/context/history/{session_id}", { params: { session_id: s.id } });
    await expectStatus(200, "POST", "/api/context/compact/{compaction_id}/undo", { params: { compaction_id: compaction.id } });
    await expectStatus(409, "POST", "/api/context/compact/{compaction_id}/undo", { params: { compaction_id: compaction.id } }, "cannot_undo");
  });

  it("protect and unprotect a message", async () => {
    const s = await newSession();
    const { user_message } = await send(s.id, "[[reply:ok]] Keep this one.");
    const at = { params: { message_id: user_message.id } };
    await expectStatus(200, "POST", "/api/context/protect/{message_id}", at);
    await expectStatus(200, "DELETE", "/api/context/protect/{message_id}", { ...at, query: `?session_id=${s.id}` });
    await expectStatus(400, "POST", "/api/context/protect/{message_id}", { ...at, query: "?session_id=nope" }, "invalid_request");
  });

  it("templates: list, save, 409 for a duplicate, delete, 404 after", async () => {
    await expectStatus(200, "GET", "/api/context/templates");
    const body = { name: "Terse", body: "Summarize the conversation in five short bullet points." };
    const { template } = await expectStatus<{ template: TemplateJson }>(201, "POST", "/api/context/templates", { body });
    await expectStatus(409, "POST", "/api/context/templates", { body }, "duplicate_name");
    await expectStatus(400, "POST", "/api/context/templates", { body: { name: "Short", body: "too short" } }, "invalid_request");
    await expectStatus(204, "DELETE", "/api/context/templates/{id}", { params: { id: template.id } });
    await expectStatus(404, "DELETE", "/api/context/templates/{id}", { params: { id: template.id } }, "not_found");
  });
});

describe("checkpoints", () => {
  it("save, list, recent, get, restore into a fork, delete", async () => {
    const s = await newSession();
    await send(s.id, "[[reply:We decided to use Postgres.]] Which database?");
    const { checkpoint } = await expectStatus<{ checkpoint: CheckpointJson }>(201, "POST", "/api/checkpoint/save", {
      body: { session_id: s.id, label: "picked the database" },
    });
    await expectStatus(404, "POST", "/api/checkpoint/save", { body: { session_id: missing } }, "not_found");
    await expectStatus(200, "GET", "/api/checkpoint/session/{session_id}", { params: { session_id: s.id } });
    await expectStatus(200, "GET", "/api/checkpoint/recent", { query: "?limit=5" });
    await expectStatus(200, "GET", "/api/checkpoint/{id}", { params: { id: checkpoint.id } });
    const fork = await expectStatus<{ session: SessionJson }>(201, "POST", "/api/checkpoint/{id}/restore", { params: { id: checkpoint.id } });
    expect(fork.session.parent_session_id).toBe(s.id);
    await expectStatus(200, "GET", "/api/session/{id}", { params: { id: fork.session.id } });
    await expectStatus(204, "DELETE", "/api/checkpoint/{id}", { params: { id: checkpoint.id } });
    await expectStatus(404, "GET", "/api/checkpoint/{id}", { params: { id: checkpoint.id } }, "not_found");
  });

  it("resume, recover after a crash, archive into a memory (409 when there is nothing to remember)", async () => {
    const empty = await newSession();
    await expectStatus(409, "POST", "/api/session/{id}/archive", { params: { id: empty.id } }, "nothing_to_remember");
    const s = await newSession();
    await send(s.id, "[[reply:Done: the uploader retries now.]] Add retries to the uploader in src/upload.ts.");
    await expectStatus(200, "POST", "/api/session/{id}/resume", { params: { id: s.id } });
    await expectStatus(200, "POST", "/api/session/recover", { body: {} });
    await expectStatus(404, "POST", "/api/session/recover", { body: { dismiss_session_id: missing } }, "not_found");
    await expectStatus(201, "POST", "/api/session/{id}/archive", { params: { id: s.id } });
  });
});

describe("canvas", () => {
  it("get (now and at a checkpoint), answer a confirmation (422 for a card), remove an element (404 when gone), clear", async () => {
    const s = await newSession();
    await send(s.id, '[[tool_use:canvas_add_card {"id":"note","title":"A note","body":"Remember the milk"}]] note it');
    const { checkpoint } = await expectStatus<{ checkpoint: CheckpointJson }>(201, "POST", "/api/checkpoint/save", { body: { session_id: s.id } });
    // Streamed, so the document's `canvas` event is checked against a real one.
    const stream = await expectStatus<SendEvent[]>(200, "POST", "/api/session/{id}/messages", {
      params: { id: s.id },
      body: { content: '[[tool_use:canvas_show_confirmation {"id":"ask","title":"Buy milk?"}]] ask' },
    });
    expect(stream.some((e) => e.event === "canvas")).toBe(true);
    await idle(h, s.id);
    const now = await expectStatus<CanvasJson>(200, "GET", "/api/session/{id}/canvas", { params: { id: s.id } });
    expect(now.elements.map((e) => e.id)).toEqual(["note", "ask"]);
    const then = await expectStatus<CanvasJson>(200, "GET", "/api/session/{id}/canvas", { params: { id: s.id }, query: `?checkpoint_id=${checkpoint.id}` });
    expect(then.elements.map((e) => e.id)).toEqual(["note"]);
    await expectStatus(404, "GET", "/api/session/{id}/canvas", { params: { id: s.id }, query: `?checkpoint_id=${missing}` }, "not_found");
    await expectStatus(200, "POST", "/api/session/{id}/canvas/{element_id}/choice", { params: { id: s.id, element_id: "ask" }, body: { choice: "Yes" } });
    await expectStatus(422, "POST", "/api/session/{id}/canvas/{element_id}/choice", { params: { id: s.id, element_id: "note" }, body: { choice: "Yes" } }, "invalid_choice");
    await expectStatus(200, "DELETE", "/api/session/{id}/canvas/{element_id}", { params: { id: s.id, element_id: "note" } });
    await expectStatus(404, "DELETE", "/api/session/{id}/canvas/{element_id}", { params: { id: s.id, element_id: "note" } }, "not_found");
    const cleared = await expectStatus<CanvasJson>(200, "DELETE", "/api/session/{id}/canvas", { params: { id: s.id } });
    expect(cleared.elements).toEqual([]);
  });
});

describe("memory", () => {
  it("save, get, pin, search, per session and project, load into a session, drop and restore, delete", async () => {
    const { project } = await expectStatus<{ project: ProjectJson }>(201, "POST", "/api/projects", { body: { name: "Memory lane" } });
    const s = await newSession();
    const { memory } = await expectStatus<{ memory: MemoryJson }>(201, "POST", "/api/memory/session", {
      body: {
        summary: "We decided to keep the walrus telemetry in PGlite; migrations live in supabase/migrations.",
        session_id: s.id,
        project_id: project.id,
        key_decisions: ["walrus telemetry in PGlite"],
        tags: ["walrus"],
      },
    });
    await expectStatus(404, "POST", "/api/memory/session", { body: { summary: "x", project_id: missing } }, "not_found");
    await expectStatus(200, "GET", "/api/memory/{memory_id}", { params: { memory_id: memory.id } });
    await expectStatus(200, "PATCH", "/api/memory/{memory_id}", { params: { memory_id: memory.id }, body: { pinned: true } });
    await expectStatus(400, "PATCH", "/api/memory/{memory_id}", { params: { memory_id: memory.id }, body: { pinned: "yes" } }, "invalid_request");
    const hits = await expectStatus<{ memories: MemoryJson[] }>(200, "POST", "/api/memory/search", {
      body: { query: "walrus telemetry", tags: ["walrus"], from: "2020-01-01", limit: 5 },
    });
    expect(hits.memories.map((m) => m.id)).toContain(memory.id);
    await expectStatus(400, "POST", "/api/memory/search", { body: { query: "" } }, "invalid_request");
    const summariesOnly = await expectStatus<{ memories: MemoryJson[] }>(200, "POST", "/api/memory/search", { body: { query: "walrus telemetry", kind: "summary" } });
    expect(summariesOnly.memories.map((m) => m.id)).toContain(memory.id);
    const factsOnly = await expectStatus<{ memories: MemoryJson[] }>(200, "POST", "/api/memory/search", { body: { query: "walrus telemetry", kind: "fact" } });
    expect(factsOnly.memories.map((m) => m.id)).not.toContain(memory.id);
    await expectStatus(400, "POST", "/api/memory/search", { body: { query: "walrus", kind: "facts" } }, "invalid_request");
    await expectStatus(200, "GET", "/api/memory/session/{session_id}", { params: { session_id: s.id } });
    await expectStatus(200, "GET", "/api/memory/project/{project_id}", { params: { project_id: project.id } });

    // A new session's first message loads the relevant memory; it can be dropped and brought back.
    const fresh = await newSession();
    const events = await expectStatus<SendEvent[]>(200, "POST", "/api/session/{id}/messages", {
      params: { id: fresh.id },
      body: { content: "[[reply:ok]] Where do we keep the walrus telemetry?" },
    });
    expect(events.some((e) => e.event === "memories")).toBe(true);
    await idle(h, fresh.id);
    // History search finds the question just asked, in that session.
    const found = await expectStatus<{ hits: { session_id: string; snippet: string }[] }>(200, "GET", "/api/search", {
      query: `?q=${encodeURIComponent("walrus telemetry")}&session_id=${fresh.id}&limit=5&from=2020-01-01`,
    });
    expect(found.hits[0]).toMatchObject({ session_id: fresh.id });
    expect(found.hits[0].snippet).toContain("walrus telemetry");
    await expectStatus(400, "GET", "/api/search", { query: "?q=" }, "invalid_request");
    await expectStatus(400, "GET", "/api/search", { query: "?q=x&limit=500" }, "invalid_request");
    await expectStatus(404, "GET", "/api/search", { query: `?q=x&session_id=${missing}` }, "not_found");
    const at = { params: { id: fresh.id, memory_id: memory.id } };
    const dropped = await expectStatus<{ loaded: LoadedMemoryJson[] }>(200, "DELETE", "/api/session/{id}/memories/{memory_id}", at);
    expect(dropped.loaded.find((l) => l.memory.id === memory.id)?.dropped).toBe(true);
    await expectStatus(200, "POST", "/api/session/{id}/memories/{memory_id}", at);
    await expectStatus(404, "POST", "/api/session/{id}/memories/{memory_id}", { params: { id: fresh.id, memory_id: missing } }, "not_found");

    await expectStatus(204, "DELETE", "/api/memory/{memory_id}", { params: { memory_id: memory.id } });
    await expectStatus(404, "GET", "/api/memory/{memory_id}", { params: { memory_id: memory.id } }, "not_found");
  });
});

describe("usage, audit and webhooks", () => {
  it("usage by day, session, model and turn, the summary; the audit log; a webhook's life", async () => {
    const s = await newSession({ title: "Usage tour" });
    await send(s.id, "Count this call, please.");
    for (const group of ["day", "session", "model"]) await expectStatus(200, "GET", "/api/usage", { query: `?group_by=${group}` });
    await expectStatus(200, "GET", "/api/usage", { query: `?group_by=turn&session_id=${s.id}` });
    await expectStatus(400, "GET", "/api/usage", { query: "?group_by=turn" }, "invalid_request");
    await expectStatus(404, "GET", "/api/usage", { query: `?group_by=turn&session_id=${missing}` }, "not_found");
    await expectStatus(200, "GET", "/api/usage/summary", { query: "?limit=5" });

    const page = await expectStatus<{ events: unknown[]; next_cursor: string | null }>(200, "GET", "/api/audit", { query: "?limit=2" });
    expect(page.events.length).toBe(2);
    await expectStatus(200, "GET", "/api/audit", { query: `?action=session.*&cursor=${page.next_cursor}` });
    await expectStatus(400, "GET", "/api/audit", { query: "?cursor=nope" }, "invalid_request");

    const { webhook } = await expectStatus<{ webhook: { id: string } }>(201, "POST", "/api/webhooks", {
      body: { url: "http://127.0.0.1:9/hook", events: ["checkpoint.created"] },
    });
    await expectStatus(400, "POST", "/api/webhooks", { body: { url: "http://127.0.0.1:9/hook", events: ["nope"] } }, "invalid_request");
    await expectStatus(200, "GET", "/api/webhooks");
    await expectStatus(201, "POST", "/api/checkpoint/save", { body: { session_id: s.id } });
    const queued = await expectStatus<{ deliveries: unknown[] }>(200, "GET", "/api/webhooks/{id}/deliveries", { params: { id: webhook.id } });
    expect(queued.deliveries).toHaveLength(1);
    await expectStatus(204, "DELETE", "/api/webhooks/{id}", { params: { id: webhook.id } });
    await expectStatus(404, "GET", "/api/webhooks/{id}/deliveries", { params: { id: webhook.id } }, "not_found");

    const created = await expectStatus<{ key: { id: string }; secret: string }>(201, "POST", "/api/keys", { body: { name: "CI", scopes: ["read"] } });
    await expectStatus(200, "GET", "/api/keys");
    await expectStatus(200, "PATCH", "/api/keys/{id}", { params: { id: created.key.id }, body: { tools: ["recall"] } });
    // Read-only key: a write is beyond its scope.
    await expectStatus(403, "POST", "/api/session", { body: {}, headers: { authorization: `Bearer ${created.secret}` } }, "insufficient_scope");
    await expectStatus(204, "DELETE", "/api/keys/{id}", { params: { id: created.key.id } });
    await expectStatus(401, "GET", "/api/session", { headers: { authorization: `Bearer ${created.secret}` } }, "invalid_api_key");
  });
});

describe("the MCP endpoint", () => {
  it("answers JSON-RPC as documented, and a notification with 202", async () => {
    const mcp = { accept: "application/json, text/event-stream" };
    const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "openapi-test", version: "1" } };
    const r = await expectStatus<{ result: { serverInfo: { name: string } } }>(200, "POST", "/api/mcp", {
      headers: mcp,
      body: { jsonrpc: "2.0", id: 1, method: "initialize", params: init },
    });
    expect(r.result.serverInfo.name).toBe("threadkeeper");
    const tools = await expectStatus<{ result: { tools: unknown[] } }>(200, "POST", "/api/mcp", { headers: mcp, body: { jsonrpc: "2.0", id: 2, method: "tools/list" } });
    expect(tools.result.tools.length).toBe(7);
    await expectStatus(202, "POST", "/api/mcp", { headers: mcp, body: { jsonrpc: "2.0", method: "notifications/initialized" } });
    // A refused key: OAuth's body, as the document says (BearerError).
    const refused = await expectStatus<{ error: string; error_description: string }>(401, "POST", "/api/mcp", {
      headers: { ...mcp, authorization: "Bearer tk_live_short" },
      body: { jsonrpc: "2.0", id: 3, method: "tools/list" },
    });
    expect(refused).toMatchObject({ error: "invalid_token", error_description: expect.stringContaining("not a Threadkeeper API key") });
  });
});

describe("the drop-in Messages API", () => {
  it("answers the Messages and Models APIs as documented, errors in Anthropic's shape", async () => {
    const ask = { model: "claude-haiku-4-5", max_tokens: 128, messages: [{ role: "user", content: "Hello there." }] };
    const reply = await expectStatus<{ type: string; content: unknown[] }>(200, "POST", "/api/anthropic/v1/messages", { body: ask });
    expect(reply.type).toBe("message");
    await expectStatus(200, "POST", "/api/anthropic/v1/messages", { body: { ...ask, stream: true } });
    await expectStatus(200, "POST", "/api/anthropic/v1/messages/count_tokens", { body: { model: ask.model, messages: ask.messages } });
    await expectStatus(200, "GET", "/api/anthropic/v1/models", { query: "?limit=3" });
    await expectStatus(200, "GET", "/api/anthropic/v1/models/{model_id}", { params: { model_id: "claude-opus-4-8" } });
    const bad = await expectStatus<{ type: string; error: { type: string } }>(400, "POST", "/api/anthropic/v1/messages", { body: { ...ask, model: "gpt-4" } });
    expect(bad.error.type).toBe("invalid_request_error");
    const unknown = await expectStatus<{ error: { type: string } }>(404, "POST", "/api/anthropic/v1/messages", { body: ask, headers: { "threadkeeper-session-id": missing } });
    expect(unknown.error.type).toBe("not_found_error");
    await expectStatus(404, "GET", "/api/anthropic/v1/models/{model_id}", { params: { model_id: "claude-9" } });
  });
});

describe("the OpenAI-compatible endpoint", () => {
  it("answers Chat Completions and the Models API as documented, errors in OpenAI's shape", async () => {
    const ask = { model: "claude-haiku-4-5", messages: [{ role: "user", content: "Hello there." }] };
    const reply = await expectStatus<{ object: string }>(200, "POST", "/api/openai/v1/chat/completions", { body: ask });
    expect(reply.object).toBe("chat.completion");
    const frames = await expectStatus<{ data: unknown }[]>(200, "POST", "/api/openai/v1/chat/completions", { body: { ...ask, stream: true, stream_options: { include_usage: true } } });
    expect(frames.at(-1)?.data).toBe("[DONE]");
    await expectStatus(200, "GET", "/api/openai/v1/models");
    await expectStatus(200, "GET", "/api/openai/v1/models/{model_id}", { params: { model_id: "claude-opus-4-8" } });
    const bad = await expectStatus<{ error: { type: string; param: string } }>(400, "POST", "/api/openai/v1/chat/completions", { body: { ...ask, n: 3 } });
    expect(bad.error).toMatchObject({ type: "invalid_request_error", param: "n" });
    const model = await expectStatus<{ error: { code: string } }>(404, "POST", "/api/openai/v1/chat/completions", { body: { ...ask, model: "gpt-4o" } });
    expect(model.error.code).toBe("model_not_found");
    await expectStatus(404, "POST", "/api/openai/v1/chat/completions", { body: ask, headers: { "threadkeeper-session-id": missing } });
    await expectStatus(404, "GET", "/api/openai/v1/models/{model_id}", { params: { model_id: "gpt-4o" } });
  });
});

describe("operations", () => {
  it("metrics: Prometheus text for the local operator, an admin key or the metrics token; 403 for a key without admin, 401 for a wrong token", async () => {
    const text = await expectStatus<string>(200, "GET", "/api/metrics");
    expect(text).toContain("# TYPE threadkeeper_turns_total counter");
    const admin = await expectStatus<{ secret: string }>(201, "POST", "/api/keys", { body: { name: "Prometheus", scopes: ["admin"] } });
    await expectStatus(200, "GET", "/api/metrics", { headers: { authorization: `Bearer ${admin.secret}` } });
    const reader = await expectStatus<{ secret: string }>(201, "POST", "/api/keys", { body: { name: "Dashboards", scopes: ["read"] } });
    await expectStatus(403, "GET", "/api/metrics", { headers: { authorization: `Bearer ${reader.secret}` } }, "insufficient_scope");
    process.env.THREADKEEPER_METRICS_TOKEN = "scrape-me-4b8e1d6f0a2c";
    try {
      await expectStatus(200, "GET", "/api/metrics", { headers: { authorization: "Bearer scrape-me-4b8e1d6f0a2c" } });
      await expectStatus(401, "GET", "/api/metrics", { headers: { authorization: "Bearer scrape-me-wrong" } }, "invalid_metrics_token");
    } finally {
      delete process.env.THREADKEEPER_METRICS_TOKEN;
    }
  });
});

describe("the document", () => {
  it("is served at /api/openapi.json and validates as the OpenAPI document it describes", async () => {
    const served = await expectStatus(200, "GET", "/api/openapi.json");
    expect(served).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});

describe("the health check", () => {
  it("answers 200 with the latest migration and the version, 503 when the database fails or does not answer in time", async () => {
    const migrations = (await readdir(path.join(process.cwd(), "supabase", "migrations"))).filter((f) => f.endsWith(".sql")).sort();
    const ok = await expectStatus<HealthJson>(200, "GET", "/api/health");
    expect(ok).toEqual({ status: "ok", database: "ok", migration: migrations.at(-1), version: pkg.version });
    const failing: Database = {
      kind: "postgres",
      transaction: () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.7:5432 (user app)")),
      execAutocommit: async () => {},
      close: async () => {},
    };
    const silent: Database = { ...failing, transaction: () => new Promise<never>(() => {}) };
    try {
      setDb(failing);
      const down = await expectStatus<HealthUnavailableJson>(503, "GET", "/api/health");
      expect(down.status).toBe("unavailable");
      // Nothing of the connection reaches the answer.
      expect(down.reason).not.toMatch(/10\.0\.0\.7|5432|app/);
      setDb(silent);
      const slow = await expectStatus<HealthUnavailableJson>(503, "GET", "/api/health");
      expect(slow.reason).toMatch(/did not answer within 2000 ms/);
    } finally {
      setDb(h.db);
    }
    await expectStatus(403, "GET", "/api/health", { headers: { host: "evil.example" } }, "forbidden_host");
  });
});

describe("export", () => {
  it("a session as JSON (validated) and as Markdown; an unknown one is a 404", async () => {
    const s = await newSession({ title: "Export tour" });
    await send(s.id, "[[reply:Noted.]] Remember the blue door.");
    const doc = await expectStatus<{ messages: unknown[]; format: string }>(200, "GET", "/api/session/{id}/export", { params: { id: s.id } });
    expect([doc.format, doc.messages.length]).toEqual(["threadkeeper-export", 2]);
    const md = await expectStatus<string>(200, "GET", "/api/session/{id}/export", { params: { id: s.id }, query: "?format=md" });
    expect(md).toContain("# Export tour");
    await expectStatus(400, "GET", "/api/session/{id}/export", { params: { id: s.id }, query: "?format=pdf" }, "invalid_request");
    await expectStatus(404, "GET", "/api/session/{id}/export", { params: { id: missing } }, "not_found");
    await expectStatus(200, "GET", "/api/export");
  });
});

describe("import", () => {
  it("an export file received (202), followed to its end, listed and cancelled; unknown ids 404", async () => {
    const form = new FormData();
    form.set("file", new Blob([JSON.stringify([{ id: "c1", title: "Tour", current_node: "n1", mapping: { n1: { id: "n1", parent: null, children: [], message: { id: "n1", author: { role: "user" }, content: { content_type: "text", parts: ["Hi"] } } } } }])]), "conversations.json");
    const started = await expectStatus<{ import: { id: string } }>(202, "POST", "/api/import", { form, headers: { origin: "http://127.0.0.1:3000" } });
    const id = started.import.id;
    let status = "running";
    for (let i = 0; i < 100 && status === "running"; i++) {
      status = (await expectStatus<{ import: { status: string } }>(200, "GET", "/api/import/{id}", { params: { id } })).import.status;
      if (status === "running") await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe("done");
    await expectStatus(200, "GET", "/api/import", { query: "?limit=5" });
    await expectStatus(202, "POST", "/api/import/{id}/archive", { params: { id }, body: {} });
    await expectStatus(200, "POST", "/api/import/{id}/cancel", { params: { id }, body: {} });
    await expectStatus(404, "POST", "/api/import/{id}/archive", { params: { id: missing }, body: {} }, "not_found");
    await expectStatus(404, "GET", "/api/import/{id}", { params: { id: missing } }, "not_found");
    await expectStatus(404, "POST", "/api/import/{id}/cancel", { params: { id: missing }, body: {} }, "not_found");
  });
});

describe("the storage level", () => {
  it("answers the level, validated against the document", async () => {
    const storage = await expectStatus<StorageJson>(200, "GET", "/api/storage");
    expect(["ok", "low", "full"]).toContain(storage.level);
  });
});

describe("coverage", () => {
  it("saw every operation succeed, and errors of every status a client can cause", () => {
    const operations = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const succeeded = new Set([...seen].filter((s) => / 2\d\d$/.test(s)).map((s) => s.replace(/ \d+$/, "")));
    expect(operations.filter((op) => !succeeded.has(op)), "operations never seen succeeding").toEqual([]);
    const statuses = new Set([...seen].map((s) => Number(s.split(" ").at(-1))));
    for (const status of [400, 401, 403, 404, 409, 413, 429, 502, 503]) expect(statuses.has(status), `status ${status}`).toBe(true);
    const union = doc.components.schemas.SendEvent.oneOf ?? [];
    const names = union.map((e) => (e.properties?.event as { const?: string } | undefined)?.const);
    expect(names.filter((n) => n && !seenEvents.has(n)), "events never seen in a real stream").toEqual([]);
  });
});
