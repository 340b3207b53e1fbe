// The recall tool through the real tool-use loop: Claude (the fake server) calls it, the
// server searches the user's history and hands back excerpts, and Claude answers with them.
import { describe, expect, it } from "vitest";
import * as settingsRoute from "@/app/api/context/settings/route";
import * as recentRoute from "@/app/api/session/recent/route";
import type { SessionSummaryJson } from "@/lib/contract";
import { recall } from "@/lib/turn/recall";
import { runToolUses } from "@/lib/turn/tool-calls";
import { parseRecall, RECALL_TOOL_NAME } from "@/lib/context/recall";
import { RECALL_TOOL } from "@/lib/context/tools";
import type { ToolResultBlock } from "@/lib/context/types";
import { LOCAL_USER_ID } from "@/lib/db";
import { contextStatus, history, newSession, req, sendJson, useHarness } from "./harness";

const h = useHarness();

const resultOf = (m: { content: { type: string }[] }) => m.content.find((b): b is ToolResultBlock => b.type === "tool_result");
const text = (r: ToolResultBlock | undefined) => (typeof r?.content === "string" ? r.content : "");

async function setRecall(sessionId: string, on: boolean) {
  // The canvas tools off too: what is measured here is recall's own definition.
  const res = await settingsRoute.PUT(req("PUT", `/api/context/settings?session_id=${sessionId}`, { recall_tool: on, canvas_tools: false }), undefined);
  expect(res.status).toBe(200);
}

describe("the recall tool", () => {
  it("is offered on every request, finds what was said in another session, and Claude answers with it", async () => {
    const trip = await newSession({ title: "Moving plans" });
    await sendJson(trip.id, "[[reply:Noted.]] We signed for the flat on Rua Augusta in Lisbon; the rent is 1,450 euros a month.");
    const s = await newSession({ title: "Today" });
    h.fake.enqueue(
      { kind: "tool_use", name: RECALL_TOOL_NAME, input: { query: "flat Lisbon rent" }, text: "Let me look." },
      { kind: "reply", text: "Your rent on Rua Augusta is 1,450 euros." },
    );
    const { res, body } = await sendJson(s.id, "How much is the rent for the new flat again?");
    expect(res.status).toBe(201);
    expect(body.assistant_message?.text).toBe("Your rent on Rua Augusta is 1,450 euros.");

    const calls = h.fake.requests.filter((r) => r.path === "/v1/messages");
    const first = calls[calls.length - 2].body as { tools?: { name: string }[] };
    expect(first.tools?.[0]?.name).toBe(RECALL_TOOL_NAME);

    const page = await history(s.id);
    expect(page.messages.map((m) => [m.role, m.turn_seq])).toEqual([
      ["user", 1],
      ["assistant", 1],
      ["user", 1],
      ["assistant", 1],
    ]);
    const result = resultOf(page.messages[2]);
    expect(result?.is_error).toBeFalsy();
    const excerpts = parseRecall(text(result));
    expect(excerpts[0]).toMatchObject({ sessionId: trip.id, sessionTitle: "Moving plans", seq: 1, role: "user" });
    expect(excerpts[0].text).toContain("Rua Augusta");
    // Claude's second request carried the excerpt as the tool's result.
    const second = JSON.stringify(calls[calls.length - 1].body);
    expect(second).toContain("Rua Augusta");
    // The next recall finds the original and Claude's answer, never the copy in the tool result.
    const again = parseRecall(await recall({ query: "Rua Augusta rent" }, { userId: LOCAL_USER_ID, sessionId: trip.id, windowStartTurn: 99 }));
    expect(again.map((e) => [e.sessionId, e.seq])).toEqual(expect.arrayContaining([[trip.id, 1], [s.id, 4]]));
    expect(again.some((e) => e.sessionId === s.id && e.seq === 3)).toBe(false);
  });

  it("counts its definition in the bar's tools category, the same figure in the picker, and is gone when turned off", async () => {
    const s = await newSession({ title: "Tools count" });
    await setRecall(s.id, true);
    await sendJson(s.id, "[[reply:ok]] hello");
    const on = await contextStatus(s.id);
    expect(on.breakdown.tools).toBeGreaterThan(0);
    const picker = async () => {
      const res = await recentRoute.GET(req("GET", "/api/session/recent?limit=50"), undefined);
      const body = (await res.json()) as { sessions: SessionSummaryJson[] };
      return body.sessions.find((x) => x.id === s.id)?.current_tokens;
    };
    expect(await picker()).toBe(on.current_tokens);

    await setRecall(s.id, false);
    const off = await contextStatus(s.id);
    expect(off.breakdown.tools).toBe(0);
    expect(off.current_tokens).toBeLessThan(on.current_tokens);
    expect(await picker()).toBe(off.current_tokens);

    // Not offered, so a call to it is refused like any unknown tool.
    h.fake.enqueue({ kind: "tool_use", name: RECALL_TOOL_NAME, input: { query: "hello" } }, { kind: "reply", text: "fine" });
    await sendJson(s.id, "what did I say?");
    const calls = h.fake.requests.filter((r) => r.path === "/v1/messages");
    expect((calls[calls.length - 2].body as { tools?: unknown }).tools).toBeUndefined();
    const page = await history(s.id);
    const refused = resultOf(page.messages[page.messages.length - 2]);
    expect(refused).toMatchObject({ is_error: true, content: `Unknown tool: ${RECALL_TOOL_NAME}` });
  });

  it("in this session, returns only turns Claude no longer sees; bad input is an error result Claude can read", async () => {
    const s = await newSession({ title: "Long one" });
    await sendJson(s.id, "[[reply:ok]] The boat is called Saudade and moors at pier 7.");
    await sendJson(s.id, "[[reply:ok]] Later we repainted the Saudade blue at pier 7.");
    const ctx = { userId: LOCAL_USER_ID, sessionId: s.id };
    // Everything in view: nothing new to tell Claude.
    expect(await recall({ query: "Saudade pier", scope: "this_session" }, { ...ctx, windowStartTurn: 1 })).toMatch(/^No earlier messages match/);
    // Turn 1 slid out of view: only it comes back.
    const raw = await recall({ query: "Saudade pier", scope: "this_session" }, { ...ctx, windowStartTurn: 2 });
    const found = parseRecall(raw);
    expect(found.map((e) => [e.sessionTitle, e.seq])).toEqual([[null, 1]]);
    expect(found[0].text).toContain("moors at pier 7");

    const [bad] = await runToolUses(
      [{ type: "tool_use", id: "toolu_bad", name: RECALL_TOOL_NAME, input: { scope: "everywhere" } }],
      [RECALL_TOOL],
      { ...ctx, windowStartTurn: 1 },
    );
    expect(bad).toMatchObject({ type: "tool_result", tool_use_id: "toolu_bad", is_error: true });
    expect(text(bad)).toMatch(/^Invalid input: query: .*; scope: /);
  });

  it("works offline: /recall asks the tool, and the offline responder shows what it found", async () => {
    delete process.env.ANTHROPIC_API_KEY;
    const other = await newSession({ title: "Garden" });
    await sendJson(other.id, "The tomatoes go in the south bed next to the basil.");
    const s = await newSession({ title: "Offline recall" });
    const { body } = await sendJson(s.id, "/recall tomatoes basil");
    expect(body.assistant_message?.text).toContain("The tool answered:");
    const page = await history(s.id);
    expect(page.messages.map((m) => m.content.map((b) => b.type).join("+"))).toEqual(["text", "text+tool_use", "tool_result", "text"]);
    expect(parseRecall(text(resultOf(page.messages[2])))[0]).toMatchObject({ sessionId: other.id, sessionTitle: "Garden" });
  });
});
