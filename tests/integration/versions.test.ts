// Stop, edit and regenerate: nothing is deleted. A stopped reply is kept, marked interrupted;
// an edit is a new turn that replaces the last one; a regenerated reply replaces the turn's
// earlier replies. What is replaced stays in the history and leaves what Claude is sent.
import { describe, expect, it } from "vitest";
import * as stopRoute from "@/app/api/session/[id]/stop/route";
import type { MessageJson } from "@/lib/contract";
import { history, idle, newSession, ofType, params, postMessage, readSse, req, sendJson, useHarness } from "./harness";

const h = useHarness();

const stop = (id: string) => stopRoute.POST(req("POST", `/api/session/${id}/stop`), params({ id }));
type Sent = { messages: { role: string; content: { text?: string }[] }[] };
const lastChatRequest = () => h.fake.requests.filter((r) => r.path === "/v1/messages" && r.body?.stream).at(-1)?.body as Sent;
const texts = (body: Sent) => body.messages.map((m) => m.content.map((b) => b.text ?? "").join(""));

async function sendBody(id: string, body: object) {
  const res = await postMessage(id, body, { accept: "application/json" });
  return { res, body: (await res.json()) as { assistant_message: MessageJson | null; user_message: MessageJson; error?: { code: string } } };
}

describe("regenerate", () => {
  it("answers the last message anew; the earlier reply stays in the history and leaves the request", async () => {
    const s = await newSession();
    // One reply queued at a time: the title call after the first turn takes from the same queue.
    h.fake.enqueue({ kind: "reply", text: "First answer." });
    await sendJson(s.id, "Explain caching.");
    await idle(h, s.id);
    h.fake.enqueue({ kind: "reply", text: "Second answer." });
    const { res, body } = await sendBody(s.id, { regenerate: true });
    expect(res.status).toBe(201);
    expect(body.assistant_message).toMatchObject({ text: "Second answer.", restarts_turn: true, turn_seq: 1 });
    expect(texts(lastChatRequest())).toEqual(["Explain caching."]);
    await idle(h, s.id);

    h.fake.enqueue({ kind: "reply", text: "Next." });
    await sendJson(s.id, "And then?");
    expect(texts(lastChatRequest())).toEqual(["Explain caching.", "Second answer.", "And then?"]);
    const page = await history(s.id);
    expect(page.messages.map((m) => [m.role, m.text, m.restarts_turn])).toEqual([
      ["user", "Explain caching.", false],
      ["assistant", "First answer.", false],
      ["assistant", "Second answer.", true],
      ["user", "And then?", false],
      ["assistant", "Next.", false],
    ]);
  });

  it("needs a reply to replace", async () => {
    const s = await newSession();
    const { res } = await sendBody(s.id, { regenerate: true });
    expect(res.status).toBe(409);
  });
});

describe("edit and resend", () => {
  it("replaces the last turn with the edited message; the original stays as an earlier version", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "reply", text: "Setup done." });
    await sendJson(s.id, "Set up the project.");
    await idle(h, s.id);
    h.fake.enqueue({ kind: "reply", text: "About cats." });
    const { body: cats } = await sendBody(s.id, { content: "Tell me about cats." });
    await idle(h, s.id);
    h.fake.enqueue({ kind: "reply", text: "About dogs." });

    const { res, body } = await sendBody(s.id, { content: "Tell me about dogs.", edit_of: cats.user_message.id });
    expect(res.status).toBe(201);
    expect(body.user_message).toMatchObject({ turn_seq: 3, supersedes_turn: 2 });
    expect(texts(lastChatRequest())).toEqual(["Set up the project.", "Setup done.", "Tell me about dogs."]);
    expect((await history(s.id)).messages.map((m) => m.text)).toEqual([
      "Set up the project.",
      "Setup done.",
      "Tell me about cats.",
      "About cats.",
      "Tell me about dogs.",
      "About dogs.",
    ]);
  });

  it("only the last message sent can be edited, and an edit needs content", async () => {
    const s = await newSession();
    const { body: first } = await sendBody(s.id, { content: "One" });
    await idle(h, s.id);
    await sendBody(s.id, { content: "Two" });
    await idle(h, s.id);
    const old = await sendBody(s.id, { content: "Uno", edit_of: first.user_message.id });
    expect(old.res.status).toBe(409);
    expect(((await history(s.id)).messages).length).toBe(4);
    const bare = await postMessage(s.id, { edit_of: first.user_message.id });
    expect(bare.status).toBe(400);
  });
});

describe("stop", () => {
  it("stops the reply being written: the partial text is kept, marked interrupted, without an error", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "slow", text: "one two three four five six seven eight nine ten eleven twelve", delayMs: 6_000 });
    const running = postMessage(s.id, { content: "Write slowly." }).then(readSse);
    // Wait until the reply streams, then stop it.
    for (let i = 0; i < 100; i++) {
      const page = await history(s.id);
      if (page.messages.some((m) => m.role === "assistant" && m.text !== "")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await stop(s.id);
    expect(res.status).toBe(202);
    const events = await running;
    const [kept] = ofType(events, "assistant_message");
    expect(kept.status).toBe("interrupted");
    expect(kept.text.length).toBeGreaterThan(0);
    expect(kept.text).not.toContain("twelve");
    expect(ofType(events, "error")).toEqual([]);
    expect(events.at(-1)?.event).toBe("done");
    // The next message goes on normally, and retry could answer the stopped one.
    await idle(h, s.id);
    expect((await sendJson(s.id, "Never mind.")).res.status).toBe(201);
  });

  it("a stop asked for on another instance (written on the session row) is seen within a second or two", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "slow", text: "alpha beta gamma delta epsilon zeta eta theta iota kappa", delayMs: 8_000 });
    const started = Date.now();
    const running = postMessage(s.id, { content: "Slowly again." }).then(readSse);
    await new Promise((r) => setTimeout(r, 500));
    await h.db.transaction((tx) => tx.query("update sessions set stop_requested_at = now() where id = $1", [s.id]));
    const events = await running;
    expect(ofType(events, "assistant_message")[0].status).toBe("interrupted");
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("answers 409 when nothing is being written", async () => {
    const s = await newSession();
    const res = await stop(s.id);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("nothing_to_stop");
  });
});
