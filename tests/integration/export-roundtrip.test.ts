// Everything exported as a ZIP, then imported back: the same conversations, every version,
// their times and order; memories, files and Markdown are in the ZIP beside them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import * as archiveRoute from "@/app/api/session/[id]/archive/route";
import * as sessionFilesRoute from "@/app/api/session/[id]/files/route";
import * as saveRoute from "@/app/api/checkpoint/save/route";
import * as restoreRoute from "@/app/api/checkpoint/[id]/restore/route";
import * as compactRoute from "@/app/api/context/compact/route";
import * as protectRoute from "@/app/api/context/protect/[message_id]/route";
import { LOCAL_USER_ID, openEmbedded, setDb, withUser } from "@/lib/db";
import { settleWindow } from "@/lib/operations/import-restore";
import type { FileInfo } from "@/lib/contract";
import { exportAccount } from "@/lib/operations/export-all";
import { importStatus, startImport, uploadTarget } from "@/lib/operations/import-job";
import { LocalFileStore, setFileStore } from "@/lib/storage";
import { pngHeader } from "../fake-anthropic/images";
import * as exportRoute from "@/app/api/export/route";
import * as importRoute from "@/app/api/import/route";
import * as importIdRoute from "@/app/api/import/[id]/route";
import * as sessionRoute from "@/app/api/session/[id]/route";
import * as projectsRoute from "@/app/api/projects/route";
import type { ImportJson, MessageJson } from "@/lib/contract";
import { history, idle, newSession, params, postMessage, prose, req, sendJson, useHarness } from "./harness";

const h = useHarness();
const ORIGIN = "http://127.0.0.1:3000";
const shape = (ms: MessageJson[]) => ms.map((m) => [m.role, m.text, m.turn_seq, m.supersedes_turn, m.restarts_turn, m.created_at]);

async function entries(file: string): Promise<Map<string, string>> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  const out = new Map<string, string>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
  }
  zip.close();
  return out;
}

describe("export everything, import it back", () => {
  it("the same conversations, with their versions and times", async () => {
    const s = await newSession({ title: "Round trip" });
    await sendJson(s.id, "[[reply:First.]] One.");
    await idle(h, s.id);
    const { body: two } = await sendJson(s.id, "[[reply:Second.]] Two.");
    await idle(h, s.id);
    expect((await postMessage(s.id, { content: "[[reply:Second, edited.]] Two, edited.", edit_of: two.user_message.id }, { accept: "application/json" })).status).toBe(201);
    await idle(h, s.id);
    h.fake.enqueue({ kind: "reply", text: "Second, again." });
    expect((await postMessage(s.id, { regenerate: true }, { accept: "application/json" })).status).toBe(201);
    await idle(h, s.id);
    const before = (await history(s.id)).messages;

    const res = await exportRoute.GET(req("GET", "/api/export"), undefined as never);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tk-rt-")), "export.zip");
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const inside = await entries(file);
    const name = `sessions/Round trip (${s.id.slice(0, 8)})`;
    expect(inside.has(`${name}.json`) && inside.has(`${name}.md`) && inside.has("memories.json") && inside.has("files.json")).toBe(true);
    expect(inside.get(`${name}.md`)).toContain("Two, edited.");

    // Still here: importing it adds nothing.
    const upload = async () => {
      const form = new FormData();
      form.set("file", new Blob([new Uint8Array(fs.readFileSync(file))]), "export.zip");
      const started = (await (await importRoute.POST(new Request(`${ORIGIN}/api/import`, { method: "POST", body: form, headers: { origin: ORIGIN } }), undefined as never)).json()) as { import: ImportJson };
      for (let i = 0; i < 200; i++) {
        const { import: job } = (await (await importIdRoute.GET(req("GET", `/api/import/${started.import.id}`), params({ id: started.import.id }))).json()) as { import: ImportJson };
        if (job.status !== "running") return job;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("the import did not finish");
    };
    expect(await upload()).toMatchObject({ status: "done", format: "threadkeeper", imported: 0, skipped: 1 });

    // Deleted, then imported back: the same messages, versions and times.
    expect((await sessionRoute.DELETE(req("DELETE", `/api/session/${s.id}`), params({ id: s.id }))).status).toBe(204);
    const job = await upload();
    expect(job).toMatchObject({ status: "done", imported: 1 });
    const list = (await (await (await import("@/app/api/session/route")).GET(req("GET", "/api/session?limit=50"), undefined as never)).json()) as { sessions: { id: string; title: string }[] };
    const back = list.sessions.find((x) => x.title === "Round trip");
    expect(back).toBeDefined();
    expect(shape((await history(back!.id)).messages)).toEqual(shape(before));
  });
});

// ── Lossless: everything of user A, exported, imported into a fresh database as user B, exported
// again: the same documents once ids are named by where they first occur. ──

const USER_B = "00000000-0000-4000-8000-0000000000b7";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

async function binaryEntries(file: string): Promise<Map<string, Buffer>> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  zip.close();
  return out;
}

async function exportZip(): Promise<string> {
  const res = await exportRoute.GET(req("GET", "/api/export"), undefined as never);
  expect(res.status).toBe(200);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tk-rt-")), "export.zip");
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

type Doc = Record<string, unknown>;

/**
 * The ZIP as one document: sessions by title, files with their bytes' digest and pages, the
 * memories; ids (and canvas event numbers, and entry names that carry ids) replaced by the order
 * in which they first occur, so two exports of the same account from two databases compare equal.
 */
function normalised(zip: Map<string, Buffer>): unknown {
  const json = (name: string) => JSON.parse(zip.get(name)!.toString("utf8")) as Doc;
  const sessions = [...zip.keys()]
    .filter((n) => n.startsWith("sessions/") && n.endsWith(".json"))
    .map((n) => {
      const doc = json(n);
      const events = (doc.canvas_events as { id: number }[]) ?? [];
      const eventNo = (v: unknown) => (typeof v === "number" && v > 0 ? `event#${events.findIndex((e) => e.id === v)}` : v);
      const md = zip.get(n.replace(/\.json$/, ".md"))!.toString("utf8");
      return <Doc>{
        ...doc,
        exported_at: null,
        canvas_events: events.map((e) => ({ ...e, id: eventNo(e.id) })),
        canvas: { ...(doc.canvas as Doc), version: eventNo((doc.canvas as Doc).version) },
        checkpoints: (doc.checkpoints as Doc[]).map((c) => ({ ...c, canvas_version: eventNo(c.canvas_version) })),
        // A message is named by its place: a fork's inherited messages share the parent's rows
        // here and come back as the fork's own copies there (nothing refers to a message's id).
        messages: (doc.messages as Doc[]).map((m) => ({ ...m, id: `message#${String(m.seq)}` })),
        markdown: md,
      };
    })
    .sort((a, b) => {
      const key = (d: Doc) => `${String((d.session as Doc).title)} ${String((d.session as Doc).created_at)}`;
      return key(a).localeCompare(key(b));
    });
  const files = (json("files.json").files as Doc[])
    .map(({ entry, pages_entry, ...f }): Doc => ({
      ...f,
      bytes: zip.get(String(entry))!.toString("base64"),
      pages: JSON.parse(zip.get(String(pages_entry))!.toString("utf8")) as unknown,
    }))
    .sort((a, b) => `${String(a.created_at)} ${String(a.name)}`.localeCompare(`${String(b.created_at)} ${String(b.name)}`));
  const memories = (json("memories.json").memories as Doc[]).sort((a, b) => `${String(a.created_at)} ${String(a.summary)}`.localeCompare(`${String(b.created_at)} ${String(b.summary)}`));
  const projects = (json("projects.json").projects as Doc[]).sort((a, b) => String(a.name).localeCompare(String(b.name)));
  const names = new Map<string, string>();
  const text = JSON.stringify({ projects, sessions, files, memories }).replace(UUID, (id) => {
    if (!names.has(id)) names.set(id, `id#${names.size}`);
    return names.get(id)!;
  });
  return JSON.parse(text);
}

async function importAs(userId: string, file: string): Promise<ImportJson> {
  const upload = await uploadTarget();
  fs.copyFileSync(file, upload);
  const started = await startImport(userId, upload, { fileName: "export.zip", bytes: fs.statSync(file).size });
  for (let i = 0; i < 600; i++) {
    const job = await importStatus(userId, started.id);
    if (job.status !== "running") return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the import did not finish");
}

describe("everything of one account into another database, losslessly", () => {
  it("sessions with versions, compactions, window, checkpoints, canvas and files; memories and facts: the same export again", { timeout: 180_000 }, async () => {
    // Account A: a session with files, a canvas, an edit, a regeneration, a protected message,
    // checkpoints before and after a compaction; another archived into a memory with facts.
    const s = await newSession({ title: "Lossless", settings: { output_reservation: 0.5, safety_buffer: 0.3 } });
    // Projects: one holding the sessions (the archived one's memory names it too), one empty.
    const project = async (name: string) =>
      ((await (await projectsRoute.POST(req("POST", "/api/projects", { name }), undefined as never)).json()) as { project: { id: string } }).project.id;
    const garden = await project("Garden");
    await project("Someday");
    expect((await sessionRoute.PATCH(req("PATCH", `/api/session/${s.id}`, { project_id: garden }), params({ id: s.id }))).status).toBe(200);
    const form = new FormData();
    form.set("file", new File([new Uint8Array(pngHeader(640, 480))], "diagram.png", { type: "image/png" }));
    const png = ((await (await sessionFilesRoute.POST(new Request(`${ORIGIN}/api/session/${s.id}/files`, { method: "POST", body: form }), params({ id: s.id }))).json()) as { file: FileInfo }).file;
    const textForm = new FormData();
    textForm.set("file", new File([new TextEncoder().encode("beds: 4\npaths: gravel\n".repeat(40))], "plan.txt", { type: "text/plain" }));
    const txt = ((await (await sessionFilesRoute.POST(new Request(`${ORIGIN}/api/session/${s.id}/files`, { method: "POST", body: textForm }), params({ id: s.id }))).json()) as { file: FileInfo }).file;
    expect((await postMessage(s.id, { content: "[[reply:A fine plan.]] Here is the plan.", attachments: [png.id, txt.id] }, { accept: "application/json" })).status).toBe(201);
    await idle(h, s.id);
    await sendJson(s.id, `[[tool_use:canvas_add_card ${JSON.stringify({ id: "beds", title: "Beds", body: "Four beds" })}]] show the beds`);
    await idle(h, s.id);
    const { body: two } = await sendJson(s.id, `[[reply:Gravel drains.]] ${prose(300, 1)}`);
    await idle(h, s.id);
    expect((await protectRoute.POST(req("POST", `/api/context/protect/${two.user_message.id}`), params({ message_id: two.user_message.id }))).status).toBe(200);
    const saved = await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: "before the compaction" }), undefined);
    expect(saved.status).toBe(201);
    // A fork from it, which goes its own way.
    const { checkpoint } = (await saved.json()) as { checkpoint: { id: string } };
    const forked = await restoreRoute.POST(req("POST", `/api/checkpoint/${checkpoint.id}/restore`), params({ id: checkpoint.id }));
    expect(forked.status).toBe(201);
    const fork = ((await forked.json()) as { session: { id: string; parent_session_id: string | null } }).session;
    expect(fork.parent_session_id).toBe(s.id);
    await sendJson(fork.id, "[[reply:Raised beds instead.]] What about raised beds?");
    await idle(h, fork.id);
    for (let i = 2; i < 4; i++) await sendJson(s.id, `[[reply:Noted ${i}.]] My brother Tomasz lives in Gdansk. ${prose(300, i)}`);
    await idle(h, s.id);
    expect((await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined)).status).toBe(201);
    const { body: asked } = await sendJson(s.id, `[[tool_use:canvas_add_card ${JSON.stringify({ id: "paths", title: "Paths", body: "Gravel" })}]] and the paths`);
    await idle(h, s.id);
    expect((await postMessage(s.id, { content: "[[reply:Paths, edited.]] and the paths, edited", edit_of: asked.user_message.id }, { accept: "application/json" })).status).toBe(201);
    await idle(h, s.id);
    h.fake.enqueue({ kind: "reply", text: "Paths, again." });
    expect((await postMessage(s.id, { regenerate: true }, { accept: "application/json" })).status).toBe(201);
    await idle(h, s.id);
    expect((await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: "after" }), undefined)).status).toBe(201);
    const other = await newSession({ title: "Archived trip" });
    expect((await sessionRoute.PATCH(req("PATCH", `/api/session/${other.id}`, { project_id: garden }), params({ id: other.id }))).status).toBe(200);
    await sendJson(other.id, "[[reply:Have a good trip.]] My sister Ola lives in Krakow and I fly there on Friday.");
    await idle(h, other.id);
    expect((await archiveRoute.POST(req("POST", `/api/session/${other.id}/archive`), params({ id: other.id }))).status).toBe(201);

    const COUNTERS = `select title, next_seq, last_turn_seq, message_count, window_start_turn, summary_text, summary_tokens, summary_through_turn,
      tail_tokens, pinned_tokens, canvas_tokens, system_tokens, file_count, cleared_through_seq, cleared_tokens, instructions, system_prompt,
      memory_text, memory_tokens, memory_loaded_at, model, settings, title_source, pinned_at is not null as pinned, archived_at is not null as archived,
      (select name from projects p where p.id = project_id) as project
      from sessions where user_id = $1 order by title`;
    // Settled as A's next request would settle them: what an import stores.
    for (const id of [s.id, other.id, fork.id]) await withUser(LOCAL_USER_ID, (tx) => settleWindow(tx, LOCAL_USER_ID, id));
    const countersA = await h.db.transaction((tx) => tx.query<{ memory_text: string | null }>(COUNTERS, [LOCAL_USER_ID]));
    // The session started after the compaction's memory carries it in its prompt: restored too.
    expect(countersA.some((c) => c.memory_text !== null)).toBe(true);
    const fromA = await exportZip();
    const a = normalised(await binaryEntries(fromA));
    const docA = a as {
      projects: unknown[];
      sessions: { compactions: unknown[]; checkpoints: unknown[]; canvas_events: unknown[]; messages: { content: { type: string }[] }[]; project: unknown }[];
      files: unknown[];
      memories: { kind: string; project_id: string | null }[];
    };
    // What the comparison below must hold, present in the first place.
    const lossless = docA.sessions.find((x) => x.compactions.length > 0)!;
    expect(lossless.checkpoints.length).toBeGreaterThanOrEqual(2);
    expect(lossless.canvas_events.length).toBeGreaterThanOrEqual(2);
    expect(lossless.messages.some((m) => m.content.some((b) => b.type === "image"))).toBe(true);
    expect(docA.files).toHaveLength(2);
    expect(docA.sessions.filter((x) => (x as unknown as { session: { parent_session_id: string | null } }).session.parent_session_id !== null)).toHaveLength(1);
    expect(docA.memories.some((m) => m.kind === "fact") && docA.memories.some((m) => m.kind === "summary")).toBe(true);
    expect(docA.projects).toHaveLength(2);
    expect(lossless.project).toMatchObject({ name: "Garden" });
    expect(docA.memories.some((m) => m.project_id !== null)).toBe(true);

    // A fresh database in a data folder of its own, and user B in it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tk-rt-db-"));
    const filesB = fs.mkdtempSync(path.join(os.tmpdir(), "tk-rt-files-"));
    const dbB = await openEmbedded(dir);
    try {
      setDb(dbB);
      setFileStore(new LocalFileStore(filesB));
      await dbB.transaction((tx) => tx.query("insert into auth.users (id) values ($1)", [USER_B]));
      expect(await importAs(USER_B, fromA)).toMatchObject({ status: "done", format: "threadkeeper", imported: docA.sessions.length, failed: 0 });
      const out = await exportAccount(USER_B);
      const fromB = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tk-rt-")), "export.zip");
      await pipeline(out, fs.createWriteStream(fromB));
      expect(normalised(await binaryEntries(fromB))).toEqual(a);
      // What the export does not show but follows from it: the window's counters, the files each session carries.
      expect(await dbB.transaction((tx) => tx.query(COUNTERS, [USER_B]))).toEqual(countersA);

      // Again: nothing added.
      expect(await importAs(USER_B, fromA)).toMatchObject({ status: "done", imported: 0, skipped: docA.sessions.length, failed: 0 });
      const again = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tk-rt-")), "export.zip");
      await pipeline(await exportAccount(USER_B), fs.createWriteStream(again));
      expect(normalised(await binaryEntries(again))).toEqual(a);
    } finally {
      setDb(h.db);
      setFileStore(new LocalFileStore(h.filesDir));
      await dbB.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(filesB, { recursive: true, force: true });
    }
  });
});
