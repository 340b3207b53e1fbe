// Forks read their source's history by reference: what they send, page, protect and keep
// when the source is deleted.
import { describe, expect, it } from "vitest";
import * as compactRoute from "@/app/api/context/compact/route";
import * as protectRoute from "@/app/api/context/protect/[message_id]/route";
import * as saveRoute from "@/app/api/checkpoint/save/route";
import * as restoreRoute from "@/app/api/checkpoint/[id]/restore/route";
import * as recentRoute from "@/app/api/session/recent/route";
import * as sessionRoute from "@/app/api/session/[id]/route";
import type { CheckpointJson, MessageJson, SessionJson, SessionSummaryJson } from "@/lib/contract";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { appendMessage, finishMessage } from "@/lib/db/messages";

import { contextStatus, history, idle, newSession, params, prose, req, sendJson, useHarness } from "./harness";

const h = useHarness();

async function ok<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

async function send(id: string, content: string): Promise<void> {
  const { res } = await sendJson(id, content);
  expect(res.status).toBe(201);
  await idle(h, id);
}

async function checkpointAndFork(sessionId: string): Promise<{ checkpoint: CheckpointJson; fork: SessionJson }> {
  const { checkpoint } = await ok<{ checkpoint: CheckpointJson }>(
    await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: sessionId }), undefined),
    201,
  );
  const { session } = await ok<{ session: SessionJson }>(
    await restoreRoute.POST(req("POST", `/api/checkpoint/${checkpoint.id}/restore`), params({ id: checkpoint.id })),
    201,
  );
  return { checkpoint, fork: session };
}

function protect(messageId: string, on: boolean, sessionId?: string): Promise<Response> {
  const r = req(on ? "POST" : "DELETE", `/api/context/protect/${messageId}${sessionId ? `?session_id=${sessionId}` : ""}`);
  return on ? protectRoute.POST(r, params({ message_id: messageId })) : protectRoute.DELETE(r, params({ message_id: messageId }));
}

const lastRequest = () =>
  h.fake.requests.filter((r) => r.path === "/v1/messages").at(-1)?.body as { system: unknown; messages: unknown[] };

async function allPages(id: string, limit: number): Promise<MessageJson[]> {
  const out: MessageJson[] = [];
  let page = await history(id, `?limit=${limit}`);
  out.unshift(...page.messages);
  while (page.has_more) {
    page = await history(id, `?limit=${limit}&before_seq=${page.messages[0].seq}`);
    out.unshift(...page.messages);
  }
  return out;
}

const deleteSession = (id: string) => sessionRoute.DELETE(req("DELETE", `/api/session/${id}`), params({ id }));

describe("forks by reference", () => {
  it("a fork of a compacted session sends exactly what its source sent at the checkpoint, and pages its whole history", async () => {
    const s = await newSession({ settings: { output_reservation: 0.5, safety_buffer: 0.3 } });
    for (let i = 0; i < 3; i++) await send(s.id, `[[reply:ok ${i}]] ${prose(300, i)}`);
    expect((await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined)).status).toBe(201);
    await send(s.id, "[[reply:after the summary]] one more");
    const sourceWindow = (await history(s.id)).window;
    expect(sourceWindow.cutoff_turn_seq).toBeGreaterThan(1);
    const { checkpoint, fork } = await checkpointAndFork(s.id);

    await send(s.id, "[[reply:same]] next step");
    const fromSource = lastRequest();
    await send(fork.id, "[[reply:same]] next step");
    const fromFork = lastRequest();
    expect(fromFork.system).toEqual(fromSource.system);
    expect(fromFork.messages).toEqual(fromSource.messages);

    // The fork shows the whole history, the source's own rows, under the fork's id.
    const source = await allPages(s.id, 500);
    const forkPages = await allPages(fork.id, 3);
    expect(forkPages.map((m) => m.seq)).toEqual([...Array(checkpoint.through_seq + 2).keys()].map((i) => i + 1));
    expect(forkPages.slice(0, checkpoint.through_seq).map((m) => m.id)).toEqual(
      source.slice(0, checkpoint.through_seq).map((m) => m.id),
    );
    expect(forkPages.every((m) => m.session_id === fork.id)).toBe(true);
    expect((await history(fork.id)).window).toEqual(sourceWindow);
  });

  it("protection is each session's own: protecting an inherited turn pins it in the fork only", async () => {
    const tight = { output_reservation: 0.5, safety_buffer: 0.3, auto_compact: false };
    const s = await newSession({ settings: tight });
    await send(s.id, "[[reply:ok]] Project brief.");
    for (let i = 0; i < 8; i++) await send(s.id, `[[reply:ok]] ${prose(12_000, i)}`);
    const { fork } = await checkpointAndFork(s.id);
    const before = await history(fork.id);
    expect(before.window.cutoff_turn_seq).toBeGreaterThan(3);
    const turn2 = before.messages.find((m) => m.turn_seq === 2 && m.role === "user")!;
    expect(turn2.in_window).toBe(false);

    const { message } = await ok<{ message: MessageJson }>(await protect(turn2.id, true, fork.id));
    expect(message).toMatchObject({ id: turn2.id, session_id: fork.id, protected: true, in_window: true });
    expect((await history(fork.id)).window.pinned_turn_seqs).toEqual([1, 2]);
    expect((await contextStatus(fork.id)).current_tokens).toBeGreaterThan((await contextStatus(s.id)).current_tokens);
    // The source did not change.
    const sourcePage = await history(s.id);
    expect(sourcePage.window.pinned_turn_seqs).toEqual([1]);
    expect(sourcePage.messages.find((m) => m.id === turn2.id)?.protected).toBe(false);

    // Protecting in the source after the fork leaves the fork alone.
    const turn3 = sourcePage.messages.find((m) => m.turn_seq === 3 && m.role === "user")!;
    expect((await protect(turn3.id, true)).status).toBe(200);
    expect((await history(fork.id)).messages.find((m) => m.id === turn3.id)?.protected).toBe(false);

    expect((await ok<{ message: MessageJson }>(await protect(turn2.id, false, fork.id))).message.protected).toBe(false);
    expect((await history(fork.id)).window.pinned_turn_seqs).toEqual([1]);
    // A session that does not hold the message cannot protect it.
    const unrelated = await newSession();
    expect((await protect(turn2.id, true, unrelated.id)).status).toBe(404);
  });

  it("deleting a source hands its history to every fork, forks of forks included", async () => {
    const s = await newSession();
    await send(s.id, "[[reply:noted]] the zanzibar deployment");
    await send(s.id, "[[reply:fine]] second");
    const { fork: f1 } = await checkpointAndFork(s.id);
    await send(f1.id, "[[reply:forked]] in the fork");
    const inherited = (await history(f1.id)).messages.find((m) => m.seq === 3)!;
    expect((await protect(inherited.id, true, f1.id)).status).toBe(200);
    const { fork: f2 } = await checkpointAndFork(f1.id);

    // Search finds a fork by what it inherited.
    const found = (
      await ok<{ sessions: SessionSummaryJson[] }>(await recentRoute.GET(req("GET", "/api/session/recent?q=zanzibar"), undefined))
    ).sessions.map((x) => x.id);
    expect(found).toEqual(expect.arrayContaining([s.id, f1.id, f2.id]));

    const texts = async (id: string) => (await history(id)).messages.map((m) => [m.seq, m.text, m.protected]);
    const f1Before = await texts(f1.id);
    const f2Before = await texts(f2.id);
    expect(f2Before).toEqual(f1Before);
    expect((await deleteSession(s.id)).status).toBe(204);
    expect(await texts(f1.id)).toEqual(f1Before);
    expect(await texts(f2.id)).toEqual(f2Before);
    expect((await deleteSession(f1.id)).status).toBe(204);
    expect(await texts(f2.id)).toEqual(f2Before);
    await send(f2.id, "[[reply:still here]] and on");
    expect((await history(f2.id)).messages.at(-1)).toMatchObject({ seq: 8, text: "still here" });
  });

  it("a reply still streaming at restore is copied into the fork as interrupted", async () => {
    const s = await newSession();
    await send(s.id, "[[reply:done]] first");
    const streaming = await withUser(LOCAL_USER_ID, async (tx) => {
      await appendMessage(tx, LOCAL_USER_ID, s.id, {
        role: "user",
        content: [{ type: "text", text: "second" }],
        text: "second",
        tokenCount: 2,
        status: "complete",
        startsTurn: true,
      });
      return appendMessage(tx, LOCAL_USER_ID, s.id, {
        role: "assistant",
        content: [{ type: "text", text: "partial" }],
        text: "partial",
        tokenCount: 0,
        status: "streaming",
        startsTurn: false,
      });
    });
    const { fork } = await checkpointAndFork(s.id);
    await withUser(LOCAL_USER_ID, (tx) =>
      finishMessage(tx, streaming.id, { content: [{ type: "text", text: "partial, then more" }], text: "partial, then more", tokenCount: 5, status: "complete" }),
    );
    expect((await history(fork.id)).messages.at(-1)).toMatchObject({ seq: 4, text: "partial", status: "interrupted" });
    expect((await history(s.id)).messages.at(-1)).toMatchObject({ seq: 4, text: "partial, then more", status: "complete" });
  });
});
