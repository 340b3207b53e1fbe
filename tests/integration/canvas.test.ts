// The canvas through the real tool-use loop: Claude (the fake server, streaming its tool_use
// input as input_json_delta fragments to the real SDK) calls the canvas tools, the server keeps
// the canvas, lists it in the next request's system prompt, counts it in the bar, and carries
// it across the user's changes, checkpoints, forks and compaction undo.
import { describe, expect, it } from "vitest";
import * as canvasRoute from "@/app/api/session/[id]/canvas/route";
import * as elementRoute from "@/app/api/session/[id]/canvas/[element_id]/route";
import * as choiceRoute from "@/app/api/session/[id]/canvas/[element_id]/choice/route";
import * as saveRoute from "@/app/api/checkpoint/save/route";
import * as restoreRoute from "@/app/api/checkpoint/[id]/restore/route";
import * as sessionIdRoute from "@/app/api/session/[id]/route";
import * as compactRoute from "@/app/api/context/compact/route";
import * as undoRoute from "@/app/api/context/compact/[compaction_id]/undo/route";
import * as recentRoute from "@/app/api/session/recent/route";
import * as settingsRoute from "@/app/api/context/settings/route";
import type { CheckpointJson, CompactionJson, SessionJson, SessionSummaryJson } from "@/lib/contract";
import { CANVAS_HEADING } from "@/lib/canvas/section";
import type { CanvasJson } from "@/lib/contract";
import type { ToolResultBlock } from "@/lib/context/types";
import { runCanvasCalls } from "@/lib/operations/canvas";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { SNAPSHOT_EVERY } from "@/lib/db/canvas";
import { contextStatus, history, newSession, ofType, params, postMessage, prose, readSse, req, sendJson, useHarness } from "./harness";

const h = useHarness();

async function canvasOf(id: string, query = ""): Promise<CanvasJson> {
  const res = await canvasRoute.GET(req("GET", `/api/session/${id}/canvas${query}`), params({ id }));
  expect(res.status).toBe(200);
  return (await res.json()) as CanvasJson;
}

const messagesCalls = () => h.fake.requests.filter((r) => r.path === "/v1/messages");
const systemOf = (call: { body: unknown }) => ((call.body as { system?: { text: string }[] }).system ?? []).map((b) => b.text).join("");
const lastSystem = () => systemOf(messagesCalls()[messagesCalls().length - 1]);
const resultsOf = (m: { content: { type: string }[] }) => m.content.filter((b): b is ToolResultBlock => b.type === "tool_result");

const WEATHER = { id: "weather", title: "Today's weather", body: "Sunny, **21 °C**", footer: "Lisbon" };

async function addCard(sessionId: string, input: object = WEATHER) {
  return sendJson(sessionId, `[[tool_use:canvas_add_card ${JSON.stringify(input)}]] show the weather`);
}

describe("canvas tools in the turn loop", () => {
  it("a streamed canvas_add_card puts the card on the canvas, streams a canvas event, and the next request lists it", async () => {
    const s = await newSession({ title: "Weather" });
    const res = await postMessage(s.id, { content: `[[tool_use:canvas_add_card ${JSON.stringify(WEATHER)}]] show the weather` });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    const [change] = ofType(events, "canvas");
    expect(change.events).toEqual([{ op: "add", element: { type: "card", ...WEATHER } }]);
    expect(change.effects).toEqual([]);
    // Emitted after the tool_result message that carries the change.
    const names = events.map((e) => e.event);
    expect(names.indexOf("canvas")).toBe(names.lastIndexOf("user_message") + 1);

    const canvas = await canvasOf(s.id);
    expect(canvas.elements).toEqual([{ type: "card", ...WEATHER }]);
    expect(canvas.version).toBe(change.version);
    expect(canvas.version).toBeGreaterThan(0);

    const page = await history(s.id);
    const [result] = resultsOf(page.messages[2]);
    expect(result.is_error).toBeUndefined();
    expect(result.content).toBe('Added card "Today\'s weather" (id "weather").');

    // The request after the tool round already saw the card, as its own system block after the rest.
    const calls = messagesCalls();
    expect(systemOf(calls[calls.length - 2])).not.toContain(CANVAS_HEADING);
    const system = (calls[calls.length - 1].body as { system: { text: string; cache_control?: unknown }[] }).system;
    const block = system[system.length - 1];
    expect(block.text).toContain(CANVAS_HEADING);
    expect(block.text).toContain('[card] id="weather" title="Today\'s weather": Sunny, **21 °C** · Lisbon');
    expect(block.cache_control).toBeUndefined();

    // And every later turn, after the creating turn is long gone from the messages.
    await sendJson(s.id, "[[reply:noted]] thanks");
    expect(lastSystem()).toContain('id="weather"');
  });

  it("bad input and an unknown id come back as error results Claude reads, and the turn completes", async () => {
    const s = await newSession({ title: "Errors" });
    h.fake.enqueue(
      { kind: "tool_use", name: "canvas_add_card", input: { id: "x", body: "no title" } },
      { kind: "tool_use", name: "canvas_remove_element", input: { id: "ghost" } },
      { kind: "tool_use", name: "canvas_show_chart", input: { id: "temps", chart_type: "bar", x_key: "day", y_keys: ["high"], data: [{ day: "Mon", high: 21 }] } },
      { kind: "reply", text: "Done, with a chart." },
    );
    const { res, body } = await sendJson(s.id, "chart it");
    expect(res.status).toBe(201);
    expect(body.assistant_message?.text).toBe("Done, with a chart.");
    const results = (await history(s.id)).messages.flatMap(resultsOf);
    expect(results.map((r) => r.is_error ?? false)).toEqual([true, true, false]);
    expect(results[0].content).toMatch(/^Invalid input for canvas_add_card: title: /);
    expect(results[1].content).toBe('No element with id "ghost" is on the canvas.');
    // Claude's next request carried the error as the tool's result.
    const calls = messagesCalls();
    expect(JSON.stringify(calls[1].body)).toContain("Invalid input for canvas_add_card");
    expect((await canvasOf(s.id)).elements.map((e) => e.id)).toEqual(["temps"]);
  });

  it("counts the canvas section in the bar's canvas category, the picker agrees, and a notification is shown, not kept", async () => {
    const s = await newSession({ title: "Counted" });
    await sendJson(s.id, "[[reply:ok]] hello");
    expect((await contextStatus(s.id)).breakdown.canvas).toBe(0);
    const before = await contextStatus(s.id);
    await addCard(s.id);
    const after = await contextStatus(s.id);
    expect(after.breakdown.canvas).toBeGreaterThan(20);
    const res = await recentRoute.GET(req("GET", "/api/session/recent?limit=50"), undefined);
    const row = ((await res.json()) as { sessions: SessionSummaryJson[] }).sessions.find((x) => x.id === s.id);
    expect(row?.current_tokens).toBe(after.current_tokens);
    expect(after.current_tokens).toBeGreaterThan(before.current_tokens);
    await settingsRoute.PUT(req("PUT", `/api/context/settings?session_id=${s.id}`, { canvas_budget: 0.0001 }), undefined).then((r) => expect(r.status).toBe(400));

    const sse = await readSse(await postMessage(s.id, { content: '[[tool_use:canvas_show_notification {"message":"Saved","level":"success"}]] go' }));
    expect(ofType(sse, "canvas")).toEqual([{ events: [], effects: [{ kind: "notification", message: "Saved", level: "success" }], version: (await canvasOf(s.id)).version }]);
    expect((await canvasOf(s.id)).elements).toHaveLength(1);

    // Turned off: not offered, and a call is refused like any unknown tool.
    const put = await settingsRoute.PUT(req("PUT", `/api/context/settings?session_id=${s.id}`, { canvas_tools: false }), undefined);
    expect(put.status).toBe(200);
    await addCard(s.id, { id: "other", title: "Other" });
    const calls = messagesCalls();
    expect(((calls[calls.length - 2].body as { tools?: { name: string }[] }).tools ?? []).some((t) => t.name.startsWith("canvas_"))).toBe(false);
    expect((await canvasOf(s.id)).elements.map((e) => e.id)).toEqual(["weather"]);
  });
});

describe("the user's changes", () => {
  it("DELETE removes an element and Claude's next request no longer lists it; clearing empties it; unknown ids are 404", async () => {
    const s = await newSession({ title: "User removes" });
    await addCard(s.id);
    await addCard(s.id, { id: "todo", title: "To do", body: "- buy milk" });
    const del = await elementRoute.DELETE(req("DELETE", `/api/session/${s.id}/canvas/weather`), params({ id: s.id, element_id: "weather" }));
    expect(del.status).toBe(200);
    const after = (await del.json()) as CanvasJson;
    expect(after.elements.map((e) => e.id)).toEqual(["todo"]);
    expect((await canvasOf(s.id)).version).toBe(after.version);

    await sendJson(s.id, "[[reply:ok]] what is on the canvas?");
    expect(lastSystem()).toContain('id="todo"');
    expect(lastSystem()).not.toContain('id="weather"');
    // Claude is told what the user did, once: the turn after, the note is gone.
    expect(lastSystem()).toContain('Since your last reply the user changed the canvas themselves: Removed "weather".');
    await sendJson(s.id, "[[reply:ok]] thanks");
    expect(lastSystem()).not.toContain("Since your last reply");

    const missing = await elementRoute.DELETE(req("DELETE", `/api/session/${s.id}/canvas/weather`), params({ id: s.id, element_id: "weather" }));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");

    const cleared = await canvasRoute.DELETE(req("DELETE", `/api/session/${s.id}/canvas`), params({ id: s.id }));
    expect(((await cleared.json()) as CanvasJson).elements).toEqual([]);
    await sendJson(s.id, "[[reply:ok]] and now?");
    // An emptied canvas is said to be empty (Claude's own earlier calls still show it adding cards)…
    expect(lastSystem()).toContain(`${CANVAS_HEADING}\nThe canvas is empty now. Since your last reply the user changed the canvas themselves: Cleared the canvas.`);
    // …and after that turn it takes no room at all.
    await sendJson(s.id, "[[reply:ok]] and then?");
    expect(lastSystem()).not.toContain(CANVAS_HEADING);
    expect((await contextStatus(s.id)).breakdown.canvas).toBe(0);
    // Each change the user made is audited in its own transaction; the refused removal is not.
    const audited = await h.db.transaction((tx) =>
      tx.query<{ action: string; metadata: { element_id?: string; elements?: number } }>(
        "select action, metadata from audit_log where target_id = $1 and action like 'canvas.%' order by occurred_at, id",
        [s.id],
      ),
    );
    expect(audited.map((a) => [a.action, a.metadata.element_id ?? a.metadata.elements])).toEqual([
      ["canvas.element_removed", "weather"],
      ["canvas.cleared", 1],
    ]);
  });

  it("records the answer to a confirmation, refusing one that is not an option", async () => {
    const s = await newSession({ title: "Confirm" });
    await sendJson(s.id, '[[tool_use:canvas_show_confirmation {"id":"book","title":"Book the table?","options":["Book","Skip"]}]] ask me');
    const choose = (choice: string) =>
      choiceRoute.POST(req("POST", `/api/session/${s.id}/canvas/book/choice`, { choice }), params({ id: s.id, element_id: "book" }));
    expect((await choose("Maybe")).status).toBe(422);
    const ok = await choose("Book");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as CanvasJson).elements[0]).toMatchObject({ id: "book", chosen: "Book" });
    await sendJson(s.id, "[[reply:ok]] Book");
    expect(lastSystem()).toContain('the user chose "Book"');
  });
});

describe("the canvas across checkpoints, forks and compaction", () => {
  it("a restore gets the canvas as it was at the checkpoint, and keeps it when the source is deleted", async () => {
    const s = await newSession({ title: "Trip" });
    await addCard(s.id);
    const saved = await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: "weather shown" }), undefined);
    const { checkpoint } = (await saved.json()) as { checkpoint: CheckpointJson };
    // Later changes in the source: another card, and the weather updated.
    await addCard(s.id, { id: "later", title: "Later" });
    await sendJson(s.id, '[[tool_use:canvas_update_card {"id":"weather","body":"Rain"}]] update it');
    expect((await canvasOf(s.id)).elements.map((e) => e.id)).toEqual(["weather", "later"]);

    const atCheckpoint = await canvasOf(s.id, `?checkpoint_id=${checkpoint.id}`);
    expect(atCheckpoint.elements).toEqual([{ type: "card", ...WEATHER }]);

    const restored = await restoreRoute.POST(req("POST", `/api/checkpoint/${checkpoint.id}/restore`), params({ id: checkpoint.id }));
    const { session: fork } = (await restored.json()) as { session: SessionJson };
    expect((await canvasOf(fork.id)).elements).toEqual([{ type: "card", ...WEATHER }]);
    expect((await contextStatus(fork.id)).breakdown.canvas).toBeGreaterThan(0);

    const del = await sessionIdRoute.DELETE(req("DELETE", `/api/session/${s.id}`), params({ id: s.id }));
    expect(del.status).toBe(204);
    expect((await canvasOf(fork.id)).elements).toEqual([{ type: "card", ...WEATHER }]);
    await sendJson(fork.id, "[[reply:ok]] still there?");
    expect(lastSystem()).toContain("Sunny");
    expect(lastSystem()).not.toContain('id="later"');
    // The fork changes on its own from there.
    await addCard(fork.id, { id: "fork-only", title: "Only in the fork" });
    expect((await canvasOf(fork.id)).elements.map((e) => e.id)).toEqual(["weather", "fork-only"]);
  });

  it("undoing a compaction leaves the canvas alone", async () => {
    const s = await newSession({ title: "Compact", settings: { output_reservation: 0.5, safety_buffer: 0.3, auto_compact: false } });
    await addCard(s.id);
    for (let i = 0; i < 4; i++) await sendJson(s.id, `[[reply:ok]] ${prose(3_000, i)}`);
    const compacted = await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined);
    expect(compacted.status).toBe(201);
    const { compaction } = (await compacted.json()) as { compaction: CompactionJson };
    const before = await canvasOf(s.id);
    expect(before.elements.map((e) => e.id)).toEqual(["weather"]);
    const undo = await undoRoute.POST(req("POST", `/api/context/compact/${compaction.id}/undo`), params({ compaction_id: compaction.id }));
    expect(undo.status).toBe(200);
    expect(await canvasOf(s.id)).toEqual(before);
    await sendJson(s.id, "[[reply:ok]] after the undo");
    expect(lastSystem()).toContain('id="weather"');
  });
});

describe("offline", () => {
  it("/demo canvas calls the canvas tools through the real loop without a key", async () => {
    delete process.env.ANTHROPIC_API_KEY;
    const s = await newSession({ title: "Demo" });
    const events = await readSse(await postMessage(s.id, { content: "/demo canvas" }));
    const [change] = ofType(events, "canvas");
    expect(change.events.map((e) => e.op)).toEqual(["add", "add", "add", "add"]);
    expect(change.effects).toEqual([{ kind: "notification", message: "Canvas demo ready", level: "success" }]);
    const canvas = await canvasOf(s.id);
    expect(canvas.elements.map((e) => [e.type, e.id])).toEqual([
      ["card", "demo-weather"],
      ["chart", "demo-week"],
      ["table", "demo-plan"],
      ["confirmation", "demo-confirm"],
    ]);
    const page = await history(s.id);
    expect(page.messages.flatMap(resultsOf).every((r) => !r.is_error)).toBe(true);
    const replies = ofType(events, "assistant_message");
    expect(replies[replies.length - 1].text).toContain('Added chart "This week"');
    expect(h.fake.requests).toHaveLength(0);
  });
});

describe("the stored snapshot", () => {
  it("lags the events by fewer than SNAPSHOT_EVERY changes, and a change another instance made is seen", async () => {
    const s = await newSession({ title: "Many changes" });
    const add = (i: number) =>
      withUser(LOCAL_USER_ID, async (tx) => {
        const round = await runCanvasCalls(tx, LOCAL_USER_ID, s.id, 5_000, [
          { type: "tool_use", id: `toolu_many_${i}`, name: "canvas_add_card", input: { id: `c${i}`, title: `Card ${i}` } },
        ]);
        return round.commit(1);
      });
    for (let i = 0; i < SNAPSHOT_EVERY + 4; i++) await add(i);
    const row = async () =>
      (await h.db.transaction((tx) => tx.query<{ canvas: { at: number; elements: unknown[] }; version: number }>(
        "select canvas, canvas_version::float8 as version from sessions where id = $1", [s.id])))[0];
    const stored = await row();
    // Written in full at the SNAPSHOT_EVERY-th change; the 4 after it are events only.
    expect(stored.canvas.elements).toHaveLength(SNAPSHOT_EVERY);
    expect(stored.canvas.at).toBeLessThan(stored.version);
    expect((await canvasOf(s.id)).elements).toHaveLength(SNAPSHOT_EVERY + 4);

    // Another instance removes c3: its event and the row's version, not this process's cache.
    await h.db.transaction(async (tx) => {
      const [e] = await tx.query<{ id: number }>(
        `insert into canvas_events (session_id, user_id, at_seq, payload, source) values ($1, $2, 1, '{"op":"remove","id":"c3"}', 'user') returning id::float8 as id`,
        [s.id, LOCAL_USER_ID],
      );
      await tx.query("update sessions set canvas_version = $2 where id = $1", [s.id, e.id]);
    });
    const seen = await canvasOf(s.id);
    expect(seen.elements.map((e) => e.id)).not.toContain("c3");
    expect(seen.elements).toHaveLength(SNAPSHOT_EVERY + 3);

    // A smaller budget (1 % of capacity) counts at once, before any request: older cards go by type and id.
    const tokens = async () =>
      (await h.db.transaction((tx) => tx.query<{ n: number }>("select canvas_tokens as n from sessions where id = $1", [s.id])))[0].n;
    for (let i = SNAPSHOT_EVERY + 4; i < 70; i++) await add(i);
    const roomy = await tokens();
    const put = await settingsRoute.PUT(
      req("PUT", `/api/context/settings?session_id=${s.id}`, { output_reservation: 0.5, safety_buffer: 0.3, canvas_budget: 0.01 }),
      undefined,
    );
    expect(put.status).toBe(200);
    const budget = Math.floor((await contextStatus(s.id)).capacity_tokens * 0.01);
    expect(roomy).toBeGreaterThan(budget);
    expect(await tokens()).toBeLessThanOrEqual(budget);
  });
});
