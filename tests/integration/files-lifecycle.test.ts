// Where files live and how long: an embedded server restarted keeps every file, Supabase Storage
// (the real supabase-js against the fake Storage server) serves the same routes, and a fork keeps
// the files its history carries when its source is deleted.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as saveRoute from "@/app/api/checkpoint/save/route";
import * as restoreRoute from "@/app/api/checkpoint/[id]/restore/route";
import * as fileRoute from "@/app/api/files/[id]/route";
import * as sessionFilesRoute from "@/app/api/session/[id]/files/route";
import * as sessionRoute from "@/app/api/session/[id]/route";
import type { CheckpointJson, FileInfo, SessionJson } from "@/lib/contract";
import { openEmbedded, setDb } from "@/lib/db";
import { DEFAULT_FILES_BUCKET, LocalFileStore, setFileStore, SupabaseFileStore } from "@/lib/storage";
import { startFakeSupabaseStorage, type FakeSupabaseStorage } from "../fake-supabase-storage/server";
import { makePdf } from "../fake-anthropic/server";
import { history, idle, newSession, params, postMessage, req, useHarness } from "./harness";

const h = useHarness();

async function upload(sessionId: string, name: string, bytes: Uint8Array, type: string): Promise<FileInfo> {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(bytes)], name, { type }));
  const res = await sessionFilesRoute.POST(new Request(`http://127.0.0.1:3000/api/session/${sessionId}/files`, { method: "POST", body: form }), params({ id: sessionId }));
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { file: FileInfo }).file;
}

async function bytesOf(id: string): Promise<Buffer | number> {
  const res = await fileRoute.GET(req("GET", `/api/files/${id}`), params({ id }));
  return res.status === 200 ? Buffer.from(await res.arrayBuffer()) : res.status;
}

async function send(sessionId: string, body: object): Promise<void> {
  const res = await postMessage(sessionId, body, { accept: "application/json" });
  expect(res.status, await res.clone().text()).toBe(201);
  await idle(h, sessionId);
}

const lastSent = () => JSON.stringify(h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.stream === true).at(-1)?.body);

describe("the embedded store", () => {
  it("a restarted server keeps every file, its bytes and the messages that carry it", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "tk-restart-"));
    const dataDir = path.join(root, "db");
    const filesDir = path.join(root, "files");
    const pdf = makePdf(["Restart survives this page."]);
    try {
      let db = await openEmbedded(dataDir);
      setDb(db);
      setFileStore(new LocalFileStore(filesDir));
      const s = await newSession();
      const f = await upload(s.id, "kept.pdf", pdf, "application/pdf");
      await send(s.id, { content: "keep this", attachments: [f.id] });
      await db.close();

      // A new process: a new database handle on the folder, a new store on the files folder.
      db = await openEmbedded(dataDir);
      setDb(db);
      setFileStore(new LocalFileStore(filesDir));
      expect(await bytesOf(f.id)).toEqual(pdf);
      expect((await history(s.id)).messages[0].content[0]).toMatchObject({ type: "document", source: { type: "threadkeeper_file", file_id: f.id } });
      await send(s.id, { content: "still there?" });
      expect(lastSent()).toContain(pdf.toString("base64"));
      await db.close();
    } finally {
      setDb(h.db);
      setFileStore(new LocalFileStore(h.filesDir));
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("Supabase Storage", () => {
  let storage: FakeSupabaseStorage;
  beforeAll(async () => {
    storage = await startFakeSupabaseStorage({ buckets: [DEFAULT_FILES_BUCKET] });
  });
  afterAll(async () => {
    setFileStore(new LocalFileStore(h.filesDir));
    await storage.close();
  });

  it("keeps uploads under the user's folder, serves them back, sends them to Claude and deletes them", async () => {
    setFileStore(new SupabaseFileStore({ url: storage.url, serviceKey: storage.serviceKey, bucket: DEFAULT_FILES_BUCKET }));
    const s = await newSession();
    const text = new TextEncoder().encode("Stored in Supabase Storage.");
    const f = await upload(s.id, "notes.txt", text, "text/plain");
    expect(storage.objects().map((o) => o.name)).toEqual([expect.stringMatching(new RegExp(`/${f.sha256}$`))]);
    expect(await bytesOf(f.id)).toEqual(Buffer.from(text));
    await send(s.id, { content: "read", attachments: [f.id] });
    expect(lastSent()).toContain("Stored in Supabase Storage.");
    const del = await fileRoute.DELETE(req("DELETE", `/api/files/${f.id}`), params({ id: f.id }));
    expect(del.status).toBe(204);
    expect(storage.objects()).toEqual([]);
  });
});

describe("forks", () => {
  it("a fork keeps the files its history carries when the source session is deleted", async () => {
    const s = await newSession();
    const f = await upload(s.id, "shared.txt", new TextEncoder().encode("Shared with the fork."), "text/plain");
    await send(s.id, { content: "see the file", attachments: [f.id] });
    const saved = await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id }), undefined);
    const { checkpoint } = (await saved.json()) as { checkpoint: CheckpointJson };
    const restored = await restoreRoute.POST(req("POST", `/api/checkpoint/${checkpoint.id}/restore`), params({ id: checkpoint.id }));
    const { session: fork } = (await restored.json()) as { session: SessionJson };
    expect((await sessionRoute.DELETE(req("DELETE", `/api/session/${s.id}`), params({ id: s.id }))).status).toBe(204);

    expect(await bytesOf(f.id)).toEqual(Buffer.from("Shared with the fork."));
    const listed = ((await (await sessionFilesRoute.GET(req("GET", `/api/session/${fork.id}/files`), params({ id: fork.id }))).json()) as { files: FileInfo[] }).files;
    expect(listed).toMatchObject([{ id: f.id, session_id: fork.id }]);
    await send(fork.id, { content: "and in the fork?" });
    expect(lastSent()).toContain("Shared with the fork.");
  });
});
