// "Archive these conversations into memories" after an import: every session the import stored
// becomes a summary memory (extractive here, offline) and is marked archived; asked again it
// carries on with what is left; an import that stored nothing has nothing to archive.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/import/route";
import * as importIdRoute from "@/app/api/import/[id]/route";
import * as archiveRoute from "@/app/api/import/[id]/archive/route";
import * as memoriesRoute from "@/app/api/memory/session/[session_id]/route";
import * as sessionsRoute from "@/app/api/session/route";
import type { ImportJson, SessionSummaryJson } from "@/lib/contract";
import { params, req, useHarness } from "./harness";

useHarness({ online: false });
const ORIGIN = "http://127.0.0.1:3000";
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../fixtures/import", name));

async function upload(name: string, body: Buffer): Promise<ImportJson> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(body)]), name);
  const res = await importRoute.POST(new Request(`${ORIGIN}/api/import`, { method: "POST", body: form, headers: { origin: ORIGIN } }), undefined as never);
  return ((await res.json()) as { import: ImportJson }).import;
}

async function job(id: string): Promise<ImportJson> {
  return ((await (await importIdRoute.GET(req("GET", `/api/import/${id}`), params({ id }))).json()) as { import: ImportJson }).import;
}

async function until(id: string, done: (j: ImportJson) => boolean): Promise<ImportJson> {
  for (let i = 0; i < 400; i++) {
    const j = await job(id);
    if (done(j)) return j;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`import ${id} did not get there`);
}

const archive = (id: string) => archiveRoute.POST(req("POST", `/api/import/${id}/archive`, {}), params({ id }));

describe("archiving an import into memories", () => {
  it("archives every session the import stored, once; again carries on with none left", async () => {
    const started = await upload("conversations.json", fixture("claude-conversations.json"));
    const done = await until(started.id, (j) => j.status !== "running");
    expect(done).toMatchObject({ status: "done", imported: 1, archive: null });

    const res = await archive(started.id);
    expect(res.status).toBe(202);
    expect(((await res.json()) as { import: ImportJson }).import.archive).toMatchObject({ total: 1 });
    const archived = await until(started.id, (j) => j.archive?.status !== "running");
    expect(archived.archive).toEqual({ status: "done", total: 1, archived: 1, failed: 0 });

    const all = ((await (await sessionsRoute.GET(req("GET", "/api/session?limit=100"), undefined as never)).json()) as { sessions: SessionSummaryJson[] }).sessions;
    const session = all.find((s) => s.title !== null && s.archived);
    expect(session).toBeDefined();
    const memories = (await (await memoriesRoute.GET(req("GET", `/api/memory/session/${session!.id}`), params({ session_id: session!.id }))).json()) as {
      memories: { source: string; summary: string }[];
    };
    expect(memories.memories.map((m) => m.source)).toEqual(["archive"]);
    expect(memories.memories[0].summary.length).toBeGreaterThan(0);

    // Asked again: nothing left to do, nothing archived twice.
    expect((await archive(started.id)).status).toBe(202);
    expect((await until(started.id, (j) => j.archive?.status !== "running")).archive).toEqual({ status: "done", total: 1, archived: 1, failed: 0 });
    const again = (await (await memoriesRoute.GET(req("GET", `/api/memory/session/${session!.id}`), params({ session_id: session!.id }))).json()) as { memories: unknown[] };
    expect(again.memories).toHaveLength(1);
  });

  it("an import that stored nothing has nothing to archive; an unknown import is 404", async () => {
    const first = await upload("conversations.json", fixture("chatgpt-conversations.json"));
    await until(first.id, (j) => j.status !== "running");
    const repeat = await upload("conversations.json", fixture("chatgpt-conversations.json"));
    expect(await until(repeat.id, (j) => j.status !== "running")).toMatchObject({ imported: 0, skipped: 1 });
    const res = await archive(repeat.id);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("nothing_to_archive");
    expect((await archive("00000000-0000-4000-8000-00000000abcd")).status).toBe(404);
  });
});
