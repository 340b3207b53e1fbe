// Everything exported as a ZIP, then imported back: the same conversations, every version,
// their times and order; memories, files and Markdown are in the ZIP beside them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import * as exportRoute from "@/app/api/export/route";
import * as importRoute from "@/app/api/import/route";
import * as importIdRoute from "@/app/api/import/[id]/route";
import * as sessionRoute from "@/app/api/session/[id]/route";
import type { ImportJson, MessageJson } from "@/lib/contract";
import { history, idle, newSession, params, postMessage, req, sendJson, useHarness } from "./harness";

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
