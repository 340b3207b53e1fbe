import { describe, expect, it } from "vitest";
import * as saveRoute from "@/app/api/memory/session/route";
import * as sessionMemRoute from "@/app/api/memory/session/[session_id]/route";
import * as projectMemRoute from "@/app/api/memory/project/[project_id]/route";
import * as searchRoute from "@/app/api/memory/search/route";
import * as memoryRoute from "@/app/api/memory/[memory_id]/route";
import * as archiveRoute from "@/app/api/session/[id]/archive/route";
import * as loadedRoute from "@/app/api/session/[id]/memories/[memory_id]/route";
import * as compactRoute from "@/app/api/context/compact/route";
import * as projectsRoute from "@/app/api/projects/route";
import type { LoadedMemoryJson, MemoryHitJson, MemoryJson, ProjectJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { deleteExpired } from "@/lib/db/memories";
import { reembedAll } from "@/lib/operations/reembed";
import { contextStatus, idle, newSession, ofType, params, postMessage, prose, readSse, req, sendJson, useHarness } from "./harness";

const h = useHarness();

async function body<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

async function remember(summary: string, extra: object = {}): Promise<MemoryJson> {
  return (await body<{ memory: MemoryJson }>(await saveRoute.POST(req("POST", "/api/memory/session", { summary, ...extra }), undefined), 201)).memory;
}

async function search(query: string, extra: object = {}): Promise<MemoryHitJson[]> {
  return (await body<{ memories: MemoryHitJson[] }>(await searchRoute.POST(req("POST", "/api/memory/search", { query, ...extra }), undefined))).memories;
}

/** The last chat request, its system blocks joined into the text Claude reads. */
const lastMessagesCall = () => {
  const body = h.fake.requests.filter((r) => r.path === "/v1/messages" && (r.body as { stream?: boolean }).stream).at(-1)?.body as {
    system: { text: string }[];
  };
  return { system: body.system.map((b) => b.text).join("") };
};

describe("memories", () => {
  it("are saved at every compaction, one per session following its latest summary", async () => {
    const s = await newSession({ settings: { output_reservation: 0.5, safety_buffer: 0.3 } });
    for (let i = 0; i < 3; i++) await sendJson(s.id, `[[reply:ok]] We decided to use pgvector for search. src/search${i}.ts ${prose(300, i)}`);
    await idle(h, s.id);
    await body(await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined), 201);
    const first = await body<{ memories: MemoryJson[] }>(await sessionMemRoute.GET(req("GET", `/api/memory/session/${s.id}`), params({ session_id: s.id })));
    expect(first.memories).toHaveLength(1);
    expect(first.memories[0]).toMatchObject({ source: "compaction", session_id: s.id });
    expect(first.memories[0].summary).toContain("src/search1.ts"); // turn 1 is protected, never condensed
    expect(first.memories[0].key_decisions.join(" ")).toContain("pgvector");
  });

  it("load into a new session's first request within the budget, shown and droppable", async () => {
    const relevant = await remember("We decided to use PGlite with pgvector for the embedded database; migrations live in supabase/migrations.", {
      tags: ["database"],
    });
    await remember("The marketing site uses a pastel colour palette and rounded buttons.");
    const s = await newSession();
    const events = await readSse(await postMessage(s.id, { content: "[[reply:ok]] Which embedded database did we pick, and where are the migrations?" }));
    const [loaded] = ofType(events, "memories");
    expect(loaded.loaded.map((l) => l.memory.id)).toContain(relevant.id);
    expect(loaded.loaded[0].memory.id).toBe(relevant.id);
    expect(lastMessagesCall().system).toContain("<memories>");
    expect(lastMessagesCall().system).toContain("supabase/migrations");
    const st = await contextStatus(s.id);
    expect(st.breakdown.memory).toBeGreaterThan(0);

    // Only the first message loads memories.
    const again = await readSse(await postMessage(s.id, { content: "[[reply:ok]] thanks" }));
    expect(ofType(again, "memories")).toEqual([]);

    const dropped = await body<{ loaded: LoadedMemoryJson[] }>(
      await loadedRoute.DELETE(req("DELETE", `/api/session/${s.id}/memories/${relevant.id}`), params({ id: s.id, memory_id: relevant.id })),
    );
    expect(dropped.loaded.find((l) => l.memory.id === relevant.id)?.dropped).toBe(true);
    await sendJson(s.id, "[[reply:ok]] and now?");
    expect(lastMessagesCall().system).not.toContain("supabase/migrations");
  });

  it("load only what shares words with the first message: a greeting loads nothing, a near repeat loads once", async () => {
    const first = await remember("The walrus telemetry dashboard reads from the ClickHouse cluster in Oslo.");
    const repeat = await remember("The walrus telemetry dashboard reads from the ClickHouse cluster in Oslo!");
    const loose = await remember("The marketing dashboard uses a pastel palette.");
    const greeted = await newSession();
    const hello = await readSse(await postMessage(greeted.id, { content: "Hi there! [[reply:Hello.]]" }));
    expect(ofType(hello, "memories")).toEqual([]);
    expect(lastMessagesCall().system).not.toContain("<memories>");

    const s = await newSession();
    const events = await readSse(await postMessage(s.id, { content: "[[reply:ok]] Where does the walrus telemetry dashboard read its data from?" }));
    const ids = ofType(events, "memories")[0].loaded.map((l) => l.memory.id);
    expect(ids.filter((id) => id === first.id || id === repeat.id)).toHaveLength(1);
    // It shares one word with the question ("dashboard"), which has several.
    expect(ids).not.toContain(loose.id);
  });

  it("load for a very long first message, searched by its opening and its end", async () => {
    const relevant = await remember("The nightly export job writes its reports to the vault bucket in Frankfurt.");
    const s = await newSession();
    // A pasted log of 11,000 words and the question after it: every word of it as a query
    // failed in PGlite ("bad buffer ID") and the turn went on without memories.
    const content = `[[reply:ok]] Here is the log:\n${prose(11_000, 3)}\nWhere does the nightly export job write its reports?`;
    const events = await readSse(await postMessage(s.id, { content }));
    expect(ofType(events, "notice").map((n) => n.kind)).not.toContain("memory_unavailable");
    expect(ofType(events, "memories")[0].loaded.map((l) => l.memory.id)).toContain(relevant.id);
  });

  it("hybrid search ranks an exact keyword and a paraphrase sensibly", async () => {
    const upload = await remember("Fixed the ECONNRESET error in uploadWorker by retrying with exponential backoff.");
    const styling = await remember("Chose Tailwind v4 for styling the dashboard; tailwind.config.ts is read through @config.");
    await remember("Migrated sign-in to Supabase magic links; sessions refresh in middleware.ts.");
    expect((await search("ECONNRESET"))[0].id).toBe(upload.id);
    expect((await search("upload worker connection resets, retries and backoff"))[0].id).toBe(upload.id);
    expect((await search("which styling framework for the dashboard"))[0].id).toBe(styling.id);
    const hit = (await search("ECONNRESET"))[0];
    expect(hit.text_rank).toBe(1);
    expect(hit.relevance).toBeGreaterThan(0);
  });

  it("pins, expires, cleans up and deletes", async () => {
    const keep = await remember("Quarterly zebra migration notes that must survive.");
    const gone = await remember("Quarterly zebra migration notes that may expire.");
    await body(await memoryRoute.PATCH(req("PATCH", `/api/memory/${keep.id}`, { pinned: true }), params({ memory_id: keep.id })));
    await h.db.transaction((tx) => tx.query("update session_memories set expires_at = now() - interval '1 day' where id = any($1::uuid[])", [[keep.id, gone.id]]));
    const ids = (await search("zebra migration")).map((m) => m.id);
    expect(ids).toContain(keep.id);
    expect(ids).not.toContain(gone.id);
    expect((await memoryRoute.GET(req("GET", `/api/memory/${gone.id}`), params({ memory_id: gone.id }))).status).toBe(404);
    await h.db.transaction((tx) => deleteExpired(tx));
    const left = await h.db.transaction((tx) => tx.query("select id from session_memories where id = any($1::uuid[])", [[keep.id, gone.id]]));
    expect(left).toEqual([{ id: keep.id }]);
    expect((await memoryRoute.DELETE(req("DELETE", `/api/memory/${keep.id}`), params({ memory_id: keep.id }))).status).toBe(204);
    expect((await search("zebra migration")).map((m) => m.id)).not.toContain(keep.id);
  });

  it("filters by project and tags; another user's memories are never returned", async () => {
    const { project } = await body<{ project: ProjectJson }>(await projectsRoute.POST(req("POST", "/api/projects", { name: "Orca" }), undefined), 201);
    const inProject = await remember("Orca uses gRPC streaming between the ingest and the indexer.", { project_id: project.id, tags: ["orca"] });
    await remember("Another gRPC streaming note outside the project.");
    expect((await search("gRPC streaming", { project_id: project.id })).map((m) => m.id)).toEqual([inProject.id]);
    expect((await search("gRPC streaming", { tags: ["orca"] })).map((m) => m.id)).toEqual([inProject.id]);
    const listed = await body<{ memories: MemoryJson[] }>(await projectMemRoute.GET(req("GET", `/api/memory/project/${project.id}`), params({ project_id: project.id })));
    expect(listed.memories.map((m) => m.id)).toEqual([inProject.id]);

    const other = "00000000-0000-4000-8000-0000000000e5";
    const theirs = await withUser(other, async (tx) => {
      await tx.query("reset role");
      await tx.query("insert into auth.users (id) values ($1) on conflict do nothing", [other]);
      await tx.query("set local role authenticated");
      const [row] = await tx.query<{ id: string }>(
        "insert into session_memories (user_id, source, summary, embedding_model) values ($1, 'manual', 'Secret walrus plans for gRPC streaming', 'local-lexical-v1') returning id",
        [other],
      );
      return row.id;
    });
    expect((await search("walrus gRPC streaming")).map((m) => m.id)).not.toContain(theirs);
    expect((await memoryRoute.GET(req("GET", `/api/memory/${theirs}`), params({ memory_id: theirs }))).status).toBe(404);
    expect((await memoryRoute.DELETE(req("DELETE", `/api/memory/${theirs}`), params({ memory_id: theirs }))).status).toBe(404);
  });

  it("archives a session into a verified summary of it; validates input", async () => {
    const s = await newSession();
    await sendJson(
      s.id,
      "[[reply:Use the ledger table with a partial index.]] How do we index the narwhal ledger? We decided to keep it in src/ledger/index.ts.",
    );
    await idle(h, s.id);
    const before = h.fake.requests.length;
    const { memory } = await body<{ memory: MemoryJson }>(await archiveRoute.POST(req("POST", `/api/session/${s.id}/archive`), params({ id: s.id })), 201);
    expect(memory.source).toBe("archive");
    // The summarizer was given the turns (not a title request), and its summary was verified:
    // the fake's reply lacks the file path, so it is appended under "Preserved details".
    const summarizerCalls = h.fake.requests
      .slice(before)
      .filter((r) => r.path === "/v1/messages" && !JSON.stringify(r.body).includes("Title this conversation"));
    expect(summarizerCalls).toHaveLength(1);
    expect(JSON.stringify(summarizerCalls[0].body)).toContain("narwhal ledger");
    // Billed like a compaction's summary: recorded with its cost.
    const billed = await h.db.transaction((tx) =>
      tx.query<{ model: string; input_tokens: number; cost_usd: number }>(
        "select model, input_tokens, cost_usd from llm_calls where session_id = $1 and kind = 'summary'",
        [s.id],
      ),
    );
    expect(billed).toHaveLength(1);
    expect(billed[0].input_tokens).toBeGreaterThan(0);
    expect(billed[0].cost_usd).toBeGreaterThan(0);
    expect(memory.summary).toContain("Use the ledger table with a partial index.");
    expect(memory.summary).toMatch(/Preserved details[\s\S]*src\/ledger\/index\.ts/);
    expect(memory.summary).not.toMatch(/^User: /m);
    expect(memory.code_references).toContain("src/ledger/index.ts");
    expect((await search("narwhal ledger"))[0].id).toBe(memory.id);
    const never = await newSession();
    expect((await archiveRoute.POST(req("POST", `/api/session/${never.id}/archive`), params({ id: never.id }))).status).toBe(409);
    for (const bad of [{}, { query: "" }, { query: "x", limit: 0 }, { query: "x", extra: 1 }]) {
      expect((await searchRoute.POST(req("POST", "/api/memory/search", bad), undefined)).status).toBe(400);
    }
    expect((await saveRoute.POST(req("POST", "/api/memory/session", { summary: "" }), undefined)).status).toBe(400);
  });

  it("finds an archive by what was discussed in it, not only by its summary's words, and a question by some of its words", async () => {
    const s = await newSession();
    // The fake summarizer echoes its instructions, so "quokka" and "Rottnest" reach the archive
    // only as words of its turns.
    await sendJson(s.id, "[[reply:Noted.]] On the ferry we counted eleven quokkas near the Rottnest lighthouse.");
    await idle(h, s.id);
    const { memory } = await body<{ memory: MemoryJson }>(await archiveRoute.POST(req("POST", `/api/session/${s.id}/archive`), params({ id: s.id })), 201);
    await remember("We picked a lighthouse-themed palette for the landing page.");
    await remember("The ferry timetable changes in October.");
    expect(memory.summary).not.toContain("quokka");
    const hits = await search("How many quokkas did we count near the lighthouse?");
    expect(hits[0].id).toBe(memory.id);
    expect(hits[0].text_rank).toBe(1);
    // Every word of the question need not be there: "count" and "many" are not, "Rottnest" is.
    expect((await search("what do I remember of Rottnest"))[0].id).toBe(memory.id);
  });

  it("re-embeds rows of an old model so search finds them again", async () => {
    const m = await remember("Platypus deployment checklist for the staging cluster.");
    await h.db.transaction((tx) => tx.query("update session_memories set embedding_model = 'old-model', embedding = null where id = $1", [m.id]));
    expect((await search("platypus deployment")).find((x) => x.id === m.id)?.vector_rank ?? null).toBeNull();
    expect(await reembedAll(h.db, () => {})).toBeGreaterThanOrEqual(1);
    const hit = (await search("platypus deployment")).find((x) => x.id === m.id);
    expect(hit?.vector_rank).toBe(1);
  });
});
