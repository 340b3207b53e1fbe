// Stop, edit and regenerate: nothing is deleted. A stopped reply is kept, marked interrupted;
// an edit of any message is a new turn that replaces it and the turns after it; a regenerated reply replaces the turn's
// earlier replies. What is replaced stays in the history and leaves what Claude is sent.
import { describe, expect, it } from "vitest";
import * as stopRoute from "@/app/api/session/[id]/stop/route";
import type { MessageJson } from "@/lib/contract";
import { history, idle, newSession, ofType, params, postMessage, prose, readSse, req, sendJson, useHarness } from "./harness";

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

  it("edits an earlier message: a new version from there, the later turns kept in the old one, Claude sent the new branch", async () => {
    const s = await newSession();
    const { body: first } = await sendBody(s.id, { content: "[[reply:A1]] Plan the trip." });
    await idle(h, s.id);
    const { body: second } = await sendBody(s.id, { content: "[[reply:B1]] Book Lisbon." });
    await idle(h, s.id);
    await sendBody(s.id, { content: "[[reply:C1]] Add a museum day." });
    await idle(h, s.id);

    const { res, body } = await sendBody(s.id, { content: "[[reply:B2]] Book Porto.", edit_of: second.user_message.id });
    expect(res.status).toBe(201);
    expect(body.user_message).toMatchObject({ turn_seq: 4, supersedes_turn: 2 });
    expect(body.assistant_message?.text).toBe("B2");
    expect(texts(lastChatRequest())).toEqual(["[[reply:A1]] Plan the trip.", "A1", "[[reply:B2]] Book Porto."]);
    await idle(h, s.id);

    // The next turn follows the new branch; the old one (Lisbon, the museum day) stays in the history.
    await sendBody(s.id, { content: "[[reply:D]] And a beach day." });
    expect(texts(lastChatRequest())).toEqual(["[[reply:A1]] Plan the trip.", "A1", "[[reply:B2]] Book Porto.", "B2", "[[reply:D]] And a beach day."]);
    expect((await history(s.id)).messages.map((m) => m.text.replace(/^\[\[reply:\w+\]\] /, ""))).toEqual([
      "Plan the trip.", "A1", "Book Lisbon.", "B1", "Add a museum day.", "C1", "Book Porto.", "B2", "And a beach day.", "D",
    ]);
    await idle(h, s.id);

    // The first message too.
    const again = await sendBody(s.id, { content: "[[reply:A2]] Plan a hike.", edit_of: first.user_message.id });
    expect(again.body.user_message).toMatchObject({ supersedes_turn: 1 });
    expect(texts(lastChatRequest())).toEqual(["[[reply:A2]] Plan a hike."]);
  });

  it("regenerates an earlier reply: the same message asked again as a new version", async () => {
    const s = await newSession();
    await sendBody(s.id, { content: "[[reply:A1]] One." });
    await idle(h, s.id);
    const { body: two } = await sendBody(s.id, { content: "Two." });
    await idle(h, s.id);
    await sendBody(s.id, { content: "[[reply:C1]] Three." });
    await idle(h, s.id);
    h.fake.enqueue({ kind: "reply", text: "Two, again." });
    const { res, body } = await sendBody(s.id, { regenerate: true, reply_id: two.assistant_message!.id });
    expect(res.status).toBe(201);
    expect(body.user_message).toMatchObject({ text: "Two.", turn_seq: 4, supersedes_turn: 2 });
    expect(body.assistant_message?.text).toBe("Two, again.");
    expect(texts(lastChatRequest())).toEqual(["[[reply:A1]] One.", "A1", "Two."]);
    await idle(h, s.id);

    // The last reply named by id is an ordinary regeneration within its turn.
    h.fake.enqueue({ kind: "reply", text: "Two, a third time." });
    const last = await sendBody(s.id, { regenerate: true, reply_id: body.assistant_message!.id });
    expect(last.body.assistant_message).toMatchObject({ text: "Two, a third time.", restarts_turn: true, turn_seq: 4 });
  });

  it("refuses an earlier version's message, a reply named as an edit, a summarised turn, and malformed bodies; nothing is stored", async () => {
    const s = await newSession({ settings: { output_reservation: 0.5, safety_buffer: 0.3 } });
    const { body: first } = await sendBody(s.id, { content: `[[reply:ok]] ${prose(300, 1)}` });
    await idle(h, s.id);
    const { body: second } = await sendBody(s.id, { content: `[[reply:ok]] ${prose(300, 2)}` });
    await idle(h, s.id);
    await sendBody(s.id, { content: "[[reply:ok]] Edited.", edit_of: second.user_message.id });
    await idle(h, s.id);
    const count = (await history(s.id)).messages.length;

    const replaced = await sendBody(s.id, { content: "Again.", edit_of: second.user_message.id });
    expect([replaced.res.status, replaced.body.error?.code]).toEqual([409, "not_current_version"]);
    const oldReply = await sendBody(s.id, { regenerate: true, reply_id: second.assistant_message!.id });
    expect([oldReply.res.status, oldReply.body.error?.code]).toEqual([409, "not_current_version"]);
    const reply = await sendBody(s.id, { content: "Mine now.", edit_of: first.assistant_message!.id });
    expect(reply.res.status).toBe(404);
    const userAsReply = await sendBody(s.id, { regenerate: true, reply_id: first.user_message.id });
    expect(userAsReply.res.status).toBe(404);
    expect((await postMessage(s.id, { edit_of: first.user_message.id })).status).toBe(400);
    expect((await postMessage(s.id, { content: "x", reply_id: first.assistant_message!.id })).status).toBe(400);
    expect((await history(s.id)).messages.length).toBe(count);

    for (let i = 3; i < 6; i++) await sendBody(s.id, { content: `[[reply:ok]] ${prose(300, i)}` });
    await idle(h, s.id);
    const compacted = await (await import("@/app/api/context/compact/route")).POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined);
    expect(compacted.status).toBe(201);
    const summarised = await sendBody(s.id, { content: "Rewrite.", edit_of: first.user_message.id });
    expect([summarised.res.status, summarised.body.error?.code]).toEqual([409, "edit_summarized"]);
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
