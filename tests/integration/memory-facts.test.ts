import { describe, expect, it } from "vitest";
import * as sessionMemRoute from "@/app/api/memory/session/[session_id]/route";
import * as searchRoute from "@/app/api/memory/search/route";
import * as memoryRoute from "@/app/api/memory/[memory_id]/route";
import * as archiveRoute from "@/app/api/session/[id]/archive/route";
import * as compactRoute from "@/app/api/context/compact/route";
import type { LoadedMemoryJson, MemoryHitJson, MemoryJson } from "@/lib/contract";
import { rememberFacts } from "@/lib/operations/facts";
import { searchMemories } from "@/lib/operations/memory";
import { withUser } from "@/lib/db";
import { idle, newSession, ofType, params, postMessage, prose, readSse, req, sendJson, useHarness } from "./harness";

// Offline: facts come from deterministic extraction, the summary from the extractive path.
const h = useHarness({ online: false });

async function body<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

async function ofSession(id: string) {
  return body<{ memories: MemoryJson[]; loaded: LoadedMemoryJson[]; facts: MemoryJson[] }>(
    await sessionMemRoute.GET(req("GET", `/api/memory/session/${id}`), params({ session_id: id })),
  );
}

async function search(query: string, kind?: "summary" | "fact"): Promise<MemoryHitJson[]> {
  return (await body<{ memories: MemoryHitJson[] }>(await searchRoute.POST(req("POST", "/api/memory/search", { query, kind }), undefined))).memories;
}

async function archive(id: string): Promise<MemoryJson> {
  return (await body<{ memory: MemoryJson }>(await archiveRoute.POST(req("POST", `/api/session/${id}/archive`), params({ id })), 201)).memory;
}

describe("fact memories", () => {
  // Four sends and a compaction: slow on a loaded 2-core machine, hence the longer limit.
  it("a compaction stores the condensed turns' facts with provenance, apart from the summary", { timeout: 30_000 }, async () => {
    const s = await newSession({ settings: { output_reservation: 0.5, safety_buffer: 0.3 } });
    // Filler as its own sentences, so a fact's sentence ends where it should.
    const filler = (i: number) => `Filler: ${prose(80, i)}.`;
    await sendJson(s.id, `Hello! ${filler(1)}`);
    await sendJson(s.id, `My brother Tomasz lives in Gdansk and my budget is $4,500. Also my API key is sk-ant-api03-${"x".repeat(40)} for later. ${filler(2)}`);
    await sendJson(s.id, `I'm flying to Gdansk on March 3rd to see him. ${filler(3)}`);
    await sendJson(s.id, `More filler. ${filler(4)}`);
    await idle(h, s.id);
    await body(await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined), 201);

    const { memories, facts } = await ofSession(s.id);
    expect(memories.map((m) => m.kind)).toEqual(["summary"]); // the panel's list is not flooded
    const tomasz = facts.find((f) => f.summary.includes("Tomasz lives in Gdansk") && f.fact?.attribute === "lives_in");
    expect(tomasz).toMatchObject({ kind: "fact", source: "compaction", session_id: s.id });
    expect(tomasz?.fact).toMatchObject({ subject: "tomasz", attribute: "lives_in", value: "gdansk", seen_count: 1, valid_until: null, superseded_by: null });
    // Provenance: the user message of turn 2 (seq 3: turn 1 is user 1 + reply 2).
    expect(tomasz?.fact?.from_seq).toBe(3);
    expect(tomasz?.fact?.through_seq).toBe(3);
    expect(Date.parse(tomasz?.fact?.valid_from ?? "")).toBeGreaterThan(Date.now() - 60_000);
    expect(tomasz?.tags).toEqual(expect.arrayContaining(["fact", "person", "place"]));
    expect(facts.some((f) => f.fact?.attribute === "budget" && f.fact.value === "$4,500")).toBe(true);
    // The year a plan's "March 3rd" means is written out, counted from when it was said.
    const march = new Date();
    const year = march.getMonth() > 2 || (march.getMonth() === 2 && march.getDate() > 3) ? march.getFullYear() + 1 : march.getFullYear();
    expect(facts.find((f) => f.summary.includes("March 3rd"))?.summary).toBe(`I'm flying to Gdansk on March 3rd (3 March ${year}) to see him.`);
    // Redacted like everything else that travels into other sessions' prompts.
    expect(JSON.stringify(facts)).not.toContain("sk-ant-api03-xxxx");
  });

  it("a repeated fact updates the stored one; a contradicting one supersedes it, which stays, marked", async () => {
    const a = await newSession();
    await sendJson(a.id, "My favourite tea is genmaicha, and I live in Porto near the river.");
    await idle(h, a.id);
    await archive(a.id);
    const first = (await ofSession(a.id)).facts;
    const porto = first.find((f) => f.fact?.attribute === "lives_in" && f.fact.subject === "user");
    expect(porto?.fact?.value).toBe("porto");

    // Said again in another session: counted, not duplicated.
    const b = await newSession();
    await sendJson(b.id, "Just so you know, I live in Porto near the river.");
    await idle(h, b.id);
    await archive(b.id);
    expect((await ofSession(b.id)).facts.filter((f) => f.fact?.attribute === "lives_in")).toEqual([]);
    const again = await body<{ memory: MemoryJson }>(await memoryRoute.GET(req("GET", `/api/memory/${porto?.id}`), params({ memory_id: porto?.id ?? "" })));
    expect(again.memory.fact?.seen_count).toBe(2);
    expect(again.memory.fact?.superseded_by).toBeNull();

    // Archiving the same session again is not a new sighting.
    await archive(b.id);
    const same = await body<{ memory: MemoryJson }>(await memoryRoute.GET(req("GET", `/api/memory/${porto?.id}`), params({ memory_id: porto?.id ?? "" })));
    expect(same.memory.fact?.seen_count).toBe(2);

    // Contradicted: the newer fact is current, the older one kept with a pointer and an end.
    const c = await newSession();
    await sendJson(c.id, "Big news: I moved to Lisbon last month for the new job.");
    await idle(h, c.id);
    await archive(c.id);
    const lisbon = (await ofSession(c.id)).facts.find((f) => f.fact?.attribute === "lives_in");
    expect(lisbon?.fact).toMatchObject({ subject: "user", value: "lisbon", superseded_by: null });
    const old = (await ofSession(a.id)).facts.find((f) => f.id === porto?.id);
    expect(old?.fact?.superseded_by).toBe(lisbon?.id);
    expect(old?.fact?.valid_until).toBe(lisbon?.fact?.valid_from);

    // Search finds the current fact, not the superseded one.
    const hits = await search("where does the user live Lisbon Porto river");
    expect(hits.map((m) => m.id)).toContain(lisbon?.id);
    expect(hits.map((m) => m.id)).not.toContain(porto?.id);

    // Deleting the newer fact makes the older one current again.
    expect((await memoryRoute.DELETE(req("DELETE", `/api/memory/${lisbon?.id}`), params({ memory_id: lisbon?.id ?? "" }))).status).toBe(204);
    const restored = (await ofSession(a.id)).facts.find((f) => f.id === porto?.id);
    expect(restored?.fact).toMatchObject({ superseded_by: null, valid_until: null });
  });

  it("memory search and the first-message load return facts; another user never sees them", async () => {
    const s = await newSession();
    await sendJson(s.id, "My daughter Zuzanna is allergic to peanuts, so no peanut butter at the party on Saturday.");
    await idle(h, s.id);
    await archive(s.id);
    const hits = await search("Zuzanna peanuts allergy");
    const fact = hits.find((m) => m.kind === "fact");
    expect(fact?.summary).toContain("Zuzanna is allergic to peanuts");
    // The panel's Facts filter: only facts, or only summaries (the archive's own summary names Zuzanna too).
    expect(hits.some((m) => m.kind === "summary" && m.session_id === s.id)).toBe(true);
    const facts = await search("Zuzanna peanuts allergy", "fact");
    expect(facts.map((m) => m.id)).toContain(fact?.id);
    expect(facts.every((m) => m.kind === "fact")).toBe(true);
    const summaries = await search("Zuzanna peanuts allergy", "summary");
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((m) => m.kind === "summary")).toBe(true);

    const next = await newSession();
    const events = await readSse(await postMessage(next.id, { content: "What should I bake for Zuzanna's party given her peanut allergy?" }));
    const [loaded] = ofType(events, "memories");
    expect(loaded.loaded.map((l) => l.memory.id)).toContain(fact?.id);
    const [row] = await h.db.transaction((tx) => tx.query<{ memory_text: string }>("select memory_text from sessions where id = $1", [next.id]));
    expect(row.memory_text).toMatch(/Fact said on \d{4}-\d\d-\d\d: My daughter Zuzanna is allergic to peanuts/);

    const other = "00000000-0000-4000-8000-0000000000f7";
    await withUser(other, async (tx) => {
      await tx.query("reset role");
      await tx.query("insert into auth.users (id) values ($1) on conflict do nothing", [other]);
    });
    expect((await searchMemories(other, "Zuzanna peanuts allergy", {}, 10)).map((m) => m.id)).not.toContain(fact?.id);
    // Consolidation looks at the caller's own facts only: the same sentence from another user is theirs, new.
    const theirs = await withUser(other, async (tx) => {
      await tx.query("reset role");
      const [row] = await tx.query<{ id: string }>("insert into sessions (user_id, title, model) values ($1, 'x', 'claude-haiku-4-5') returning id", [other]);
      await tx.query(
        `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, token_count, status)
         values ($1, $2, 1, 1, 'user', '[]'::jsonb, 'x', 1, 'complete')`,
        [row.id, other],
      );
      return row.id;
    });
    const counts = await rememberFacts(other, { id: theirs, project_id: null }, [
      { turnSeq: 1, messages: [{ role: "user", seq: 1, text: "My daughter Zuzanna is allergic to peanuts, so no peanut butter at the party on Saturday." }] },
    ], "archive");
    expect(counts).toEqual({ inserted: 1, repeated: 0, superseded: 0 });
    const mine = await body<{ memory: MemoryJson }>(await memoryRoute.GET(req("GET", `/api/memory/${fact?.id}`), params({ memory_id: fact?.id ?? "" })));
    expect(mine.memory.fact?.seen_count).toBe(1);
  });
});
