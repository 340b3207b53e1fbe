// History search and the recall tool find words inside the files a conversation carries: an
// upload sent on a message, found through the routes as a hit that names the file and its page
// under the message that carries it, within the search's scope, never another user's.
import { describe, expect, it } from "vitest";
import * as searchRoute from "@/app/api/search/route";
import * as sessionFilesRoute from "@/app/api/session/[id]/files/route";
import type { FileInfo, HistoryHitJson } from "@/lib/contract";
import { parseRecall, RECALL_TOOL_NAME } from "@/lib/context/recall";
import type { ToolResultBlock } from "@/lib/context/types";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { inheritUses } from "@/lib/db/files";
import { inheritHistory } from "@/lib/db/forks";
import { openFile } from "@/lib/operations/file-open";
import { createSession } from "@/lib/operations/sessions";
import { searchHistory } from "@/lib/search/history";
import { recall } from "@/lib/turn/recall";
import { makePdf } from "../fake-anthropic/server";
import { history, idle, newSession, params, postMessage, req, sendJson, useHarness } from "./harness";

const h = useHarness();
const OTHER = "00000000-0000-4000-8000-0000000000c3";

async function uploaded(sessionId: string, name: string, bytes: Uint8Array, type: string): Promise<FileInfo> {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(bytes)], name, { type }));
  const res = await sessionFilesRoute.POST(new Request(`http://127.0.0.1:3000/api/session/${sessionId}/files`, { method: "POST", body: form }), params({ id: sessionId }));
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { file: FileInfo }).file;
}

async function send(sessionId: string, content: string, attachments: string[] = []): Promise<void> {
  const res = await postMessage(sessionId, attachments.length ? { content, attachments } : { content }, { accept: "application/json" });
  expect(res.status, await res.clone().text()).toBe(201);
  await idle(h, sessionId);
}

async function search(query: string): Promise<HistoryHitJson[]> {
  const res = await searchRoute.GET(req("GET", `/api/search?${query}`), undefined);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { hits: HistoryHitJson[] }).hits;
}

const lease = () =>
  makePdf([
    "Lease agreement between the parties. The flat is on the second floor.",
    "Clause 7: the tenant keeps a pet axolotl named Quetzal in the kitchen aquarium.",
    "Signatures and the inventory of the furniture.",
  ]);

describe("files in history search", () => {
  it("finds a word only a sent PDF holds, naming the file and page under the message that carries it", async () => {
    const s = await newSession({ title: "Flat paperwork" });
    await send(s.id, "Hello, some paperwork follows.");
    const doc = await uploaded(s.id, "lease.pdf", lease(), "application/pdf");
    await send(s.id, "Here is the lease.", [doc.id]);
    const carrier = (await history(s.id)).messages.find((m) => m.text.includes("Here is the lease"))!;

    const hits = await search("q=axolotl");
    const hit = hits.find((x) => x.file?.id === doc.id);
    expect(hit).toMatchObject({
      session_id: s.id,
      session_title: "Flat paperwork",
      message_id: carrier.id,
      seq: carrier.seq,
      turn_seq: carrier.turn_seq,
      role: "user",
      file: { id: doc.id, name: "lease.pdf", page: 2 },
    });
    expect(hit!.snippet).toContain("pet axolotl named Quetzal");
    expect(hit!.text).toContain("axolotl");
    expect(hit!.score).toBeGreaterThan(0);
    // One hit per file, at its best page; no message said the word.
    expect(hits.filter((x) => x.file?.id === doc.id)).toHaveLength(1);
    expect(hits.filter((x) => !x.file && x.snippet.includes("axolotl"))).toEqual([]);

    // open_file's search shows the same page around the same words.
    const opened = await openFile(LOCAL_USER_ID, s.id, { file_id: doc.id, search: "axolotl" });
    expect(opened).toMatch(/--- page 2 ---\n.*pet axolotl named Quetzal/);

    // Scope: that session finds it, another session does not.
    expect((await search(`q=axolotl&session_id=${s.id}`)).some((x) => x.file?.id === doc.id)).toBe(true);
    const elsewhere = await newSession();
    expect((await search(`q=axolotl&session_id=${elsewhere.id}`)).some((x) => x.file)).toBe(false);
    // Dates are the carrying message's.
    expect((await search("q=axolotl&to=2020-01-01T00:00:00Z")).some((x) => x.file)).toBe(false);
  });

  it("leaves out an upload never sent, finds a fork's inherited file under the fork, and never shows another user's", async () => {
    const s = await newSession({ title: "Unsent" });
    const unsent = await uploaded(s.id, "draft.txt", new TextEncoder().encode("The pangolin budget is 40 euros."), "text/plain");
    expect((await search("q=pangolin")).some((x) => x.file?.id === unsent.id)).toBe(false);

    await send(s.id, "see the draft", [unsent.id]);
    const [use] = (await history(s.id)).messages.filter((m) => m.text.includes("see the draft"));
    const fork = await createSession(LOCAL_USER_ID, { title: "Fork" });
    await withUser(LOCAL_USER_ID, async (tx) => {
      await inheritHistory(tx, LOCAL_USER_ID, fork.id, s.id, use.seq + 1);
      await inheritUses(tx, fork.id, s.id, use.seq + 1);
    });
    const inFork = (await search(`q=pangolin&session_id=${fork.id}`)).filter((x) => x.file);
    expect(inFork).toMatchObject([{ session_id: fork.id, seq: use.seq, message_id: use.id, file: { id: unsent.id, page: 1 } }]);
    // Across the history it is named under the session it was uploaded to.
    expect((await search("q=pangolin")).filter((x) => x.file).map((x) => x.session_id)).toEqual([s.id]);

    await h.db.transaction((tx) => tx.query(`insert into auth.users (id, email) values ($1, 'c@example.com') on conflict (id) do nothing`, [OTHER]));
    const theirs = await withUser(OTHER, (tx) => searchHistory(tx, OTHER, { q: "pangolin budget", limit: 10 }));
    expect(theirs).toEqual([]);
  });

  it("redacts a secret a text file holds before showing its words", async () => {
    const s = await newSession();
    const key = `sk-ant-api03-${"A1b2C3d4".repeat(12)}`;
    const f = await uploaded(s.id, "env.txt", new TextEncoder().encode(`The wombat deploy key is ${key} for staging.`), "text/plain");
    await send(s.id, "config attached", [f.id]);
    const [hit] = (await search("q=wombat")).filter((x) => x.file?.id === f.id);
    expect(hit.snippet).toContain("wombat");
    expect(JSON.stringify(hit)).not.toContain(key);
  });
});

describe("files in the recall tool", () => {
  it("hands Claude a file's page with its name and id, and leaves out a file whose turn is still in view", async () => {
    const s = await newSession({ title: "Lease talk" });
    const doc = await uploaded(s.id, "lease.pdf", lease(), "application/pdf");
    await send(s.id, "The lease, for later.", [doc.id]);
    const here = await newSession({ title: "Today" });
    h.fake.enqueue(
      { kind: "tool_use", name: RECALL_TOOL_NAME, input: { query: "axolotl" }, text: "Let me look." },
      { kind: "reply", text: "The lease allows Quetzal the axolotl." },
    );
    const { res } = await sendJson(here.id, "Is my pet allowed in the flat?");
    expect(res.status).toBe(201);
    const page = await history(here.id);
    const result = page.messages.flatMap((m) => m.content).find((b): b is ToolResultBlock => b.type === "tool_result");
    const text = typeof result?.content === "string" ? result.content : "";
    expect(text).toContain(`"lease.pdf" page 2 (file_id ${doc.id})`);
    expect(text).toContain("pet axolotl named Quetzal");
    expect(text).toMatch(/open_file/);
    const [excerpt] = parseRecall(text).filter((e) => e.file?.id === doc.id);
    expect(excerpt).toMatchObject({ sessionId: s.id, sessionTitle: "Lease talk", role: "user", file: { id: doc.id, name: "lease.pdf", page: 2 } });
    expect(excerpt.text).toContain("axolotl");

    // In its own session, while the file's turn is in view, Claude has the file already.
    const ctx = { userId: LOCAL_USER_ID, sessionId: s.id };
    expect(await recall({ query: "axolotl", scope: "this_session" }, { ...ctx, windowStartTurn: 1 })).toMatch(/^No earlier messages match/);
    const out = await recall({ query: "axolotl", scope: "this_session" }, { ...ctx, windowStartTurn: 2 });
    expect(parseRecall(out)[0]).toMatchObject({ sessionTitle: null, file: { id: doc.id, page: 2 } });
  });
});
