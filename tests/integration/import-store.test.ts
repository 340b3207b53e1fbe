// Imported conversations stored as sessions: whole, with their versions, original times and
// models, found by history search under their original dates, and never stored twice.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as searchRoute from "@/app/api/search/route";
import type { MessagesPageJson } from "@/lib/contract";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { getImport, insertImport } from "@/lib/db/imports";
import { chatGptConversation } from "@/lib/import/chatgpt";
import { claudeCodeSession } from "@/lib/import/claude-code";
import { threadkeeperSession } from "@/lib/import/threadkeeper";
import { getSession } from "@/lib/db/sessions";
import { compactionHistory } from "@/lib/operations/compaction-log";
import { storeConversation } from "@/lib/operations/import-store";
import { history, req, useHarness } from "./harness";

useHarness();
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../fixtures/import", name), "utf8");
const newImport = () => withUser(LOCAL_USER_ID, (tx) => insertImport(tx, LOCAL_USER_ID, { fileName: "conversations.json", bytes: 1000 }));

describe("storing an imported conversation", () => {
  it("a ChatGPT conversation: its branch as an earlier version, original times, searchable by its date; a second import skips it", async () => {
    const [raw] = JSON.parse(fixture("chatgpt-conversations.json")) as never[];
    const conv = chatGptConversation(raw);
    const first = await newImport();
    const stored = await storeConversation(LOCAL_USER_ID, first.id, conv, 600);
    expect(stored.outcome).toBe("imported");

    const page: MessagesPageJson = await history(stored.sessionId);
    expect(page.messages).toHaveLength(6);
    expect(page.messages[4]).toMatchObject({ turn_seq: 3, supersedes_turn: 2, role: "user" });
    expect(page.messages[0].created_at).toBe("2026-01-01T00:00:01.000Z");

    const res = await searchRoute.GET(req("GET", "/api/search?q=hydration%20flour&to=2026-01-02"), undefined as never);
    const { hits } = (await res.json()) as { hits: { session_id: string }[] };
    expect(hits.some((h) => h.session_id === stored.sessionId)).toBe(true);

    const again = await newImport();
    expect(await storeConversation(LOCAL_USER_ID, again.id, conv, 600)).toEqual({ outcome: "skipped", sessionId: stored.sessionId });
    const [a, b] = await withUser(LOCAL_USER_ID, async (tx) => [await getImport(tx, LOCAL_USER_ID, first.id), await getImport(tx, LOCAL_USER_ID, again.id)]);
    expect([a?.imported, a?.skipped, a?.format, a?.bytes_read]).toEqual([1, 0, "chatgpt", 600]);
    expect([b?.imported, b?.skipped]).toEqual([0, 1]);
  });

  it("a Claude Code session keeps its tool calls and their results paired, and its compact boundary as a compaction", async () => {
    const lines = fixture("claude-code-session.jsonl").trim().split("\n").map((l) => JSON.parse(l) as unknown);
    const imp = await newImport();
    const stored = await storeConversation(LOCAL_USER_ID, imp.id, claudeCodeSession(lines, "s.jsonl"), 100);
    const page = await history(stored.sessionId);
    expect(page.messages.map((m) => m.content.map((b) => b.type).join(","))).toEqual(["text", "thinking,tool_use", "tool_result", "text", "text", "text"]);
    expect(page.messages[1].turn_seq).toBe(page.messages[2].turn_seq);
    // The summary is no message of the log: it is the compaction's, covering the turn before it.
    expect(page.messages.some((m) => m.text.includes("being continued"))).toBe(false);
    const [c, ...more] = await compactionHistory(LOCAL_USER_ID, stored.sessionId);
    expect(more).toEqual([]);
    expect(c).toMatchObject({
      status: "applied",
      trigger: "manual",
      from_turn: 1,
      through_turn: 1,
      at_seq: 4,
      pre_tokens: 167393,
      messages_condensed: 4,
      summary: "This session is being continued from a previous conversation. Summary: the parser now returns numbers.",
      created_at: "2026-11-01T11:00:01.000Z",
    });
    // Claude's view begins after it, with the summary standing in, as after /compact.
    expect(page.window.cutoff_turn_seq).toBe(2);
    const session = await withUser(LOCAL_USER_ID, (tx) => getSession(tx, LOCAL_USER_ID, stored.sessionId));
    expect([session.summary_id, session.summary_through_turn, session.window_start_turn]).toEqual([c.id, 1, 2]);
    expect(page.messages.map((m) => m.in_window)).toEqual([true, true, true, true, true, true]);

    // Its working folder is its project; another session from the same folder joins the same one.
    const sibling = claudeCodeSession(lines.map((l) => ({ ...(l as object), sessionId: "5e55c0de-0000-4000-8000-0000000000cd" })), "t.jsonl");
    const second = await storeConversation(LOCAL_USER_ID, imp.id, sibling, 200);
    const projectOf = (id: string) =>
      withUser(LOCAL_USER_ID, async (tx) => (await tx.query<{ id: string; name: string }>(`select p.id, p.name from sessions s join projects p on p.id = s.project_id where s.id = $1`, [id]))[0]);
    expect(await projectOf(stored.sessionId)).toMatchObject({ name: "app" });
    expect(await projectOf(second.sessionId)).toEqual(await projectOf(stored.sessionId));
  });

  it("a transcript naming a stored file that is not this account's gets a line, never the file", async () => {
    const stranger = "0badf11e-0000-4000-8000-000000000001";
    const lines = [
      { type: "user", uuid: "u1", parentUuid: null, sessionId: "5e55c0de-0000-4000-8000-0000000000dd", timestamp: "2026-11-01T10:00:00.000Z",
        message: { role: "user", content: [{ type: "image", source: { type: "threadkeeper_file", file_id: stranger, media_type: "image/png" } }, { type: "text", text: "what is this?" }] } },
      { type: "assistant", uuid: "a1", parentUuid: "u1", sessionId: "5e55c0de-0000-4000-8000-0000000000dd", timestamp: "2026-11-01T10:00:01.000Z",
        message: { id: "m1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "A diagram." }] } },
    ];
    const conv = claudeCodeSession(lines, "s.jsonl");
    expect(JSON.stringify(conv.messages[0].content)).toContain(stranger);
    const stored = await storeConversation(LOCAL_USER_ID, (await newImport()).id, conv, 100);
    const [first] = (await history(stored.sessionId)).messages;
    expect(JSON.stringify(first.content)).not.toContain(stranger);
    expect(first.content[0]).toEqual({ type: "text", text: "[A file that was not imported]" });
  });

  it("a session export from before its later fields, of a model this server does not know: its messages, under the default model", async () => {
    const id = "5e55c0de-0000-4000-8000-0000000000ee";
    const T = "2026-02-01T09:00:00.000Z";
    const msg = (seq: number, role: "user" | "assistant", text: string) => ({
      id: `00000000-0000-4000-8000-${String(seq).padStart(12, "0")}`, session_id: id, seq, turn_seq: 1, role, content: [{ type: "text", text }], text,
      token_count: 5, protected: false, status: "complete", in_window: true, supersedes_turn: null, restarts_turn: false, created_at: T,
    });
    const doc = {
      format: "threadkeeper-export", version: 1, exported_at: T, system_prompt: "Be brief.",
      session: { id, title: "Old export", model: "claude-nonesuch-1", settings: {}, created_at: T, updated_at: T, last_message_at: T, message_count: 2,
        project_id: null, parent_session_id: null, forked_from_checkpoint_id: null, title_source: "user", pinned: false, archived: false },
      messages: [msg(1, "user", "Plan the beds"), msg(2, "assistant", "Four beds.")],
      compactions: [], checkpoints: [],
    };
    const stored = await storeConversation(LOCAL_USER_ID, (await newImport()).id, threadkeeperSession(doc), 100);
    expect(stored.outcome).toBe("imported");
    const session = await withUser(LOCAL_USER_ID, (tx) => getSession(tx, LOCAL_USER_ID, stored.sessionId));
    expect([session.title, session.system_prompt, session.message_count, session.created_at.toISOString()]).toEqual(["Old export", "Be brief.", 2, T]);
    expect(session.model).not.toBe("claude-nonesuch-1");
    expect((await history(stored.sessionId)).messages.map((m) => [m.text, m.created_at])).toEqual([["Plan the beds", T], ["Four beds.", T]]);
  });

  it("a Claude Code session compacted twice: the first superseded by the second, which covers the turns since", async () => {
    const sid = "5e55c0de-0000-4000-8000-0000000000cc";
    const base = fixture("claude-code-session.jsonl").trim().split("\n").map((l) => JSON.parse(l) as unknown);
    const line = (o: object) => ({ sessionId: sid, isSidechain: false, ...o });
    const more = [
      line({ type: "system", subtype: "compact_boundary", uuid: "b2", parentUuid: null, logicalParentUuid: "a4", timestamp: "2026-11-01T12:00:00.000Z", compactMetadata: { trigger: "auto", preTokens: 150000 } }),
      line({ type: "user", uuid: "cs2", parentUuid: "b2", isCompactSummary: true, timestamp: "2026-11-01T12:00:01.000Z", message: { role: "user", content: "Summary two: negative numbers are tested." } }),
      line({ type: "user", uuid: "u5", parentUuid: "cs2", timestamp: "2026-11-01T12:01:00.000Z", message: { role: "user", content: "and zero?" } }),
      line({ type: "assistant", uuid: "a5", parentUuid: "u5", timestamp: "2026-11-01T12:01:05.000Z", message: { id: "msg_05", role: "assistant", model: "claude-opus-4-6", content: [{ type: "text", text: "Zero too." }] } }),
    ];
    const conv = claudeCodeSession([...base, ...more].map((l) => ({ ...(l as object), sessionId: `${sid.slice(0, -2)}c2` })), "s.jsonl");
    const stored = await storeConversation(LOCAL_USER_ID, (await newImport()).id, conv, 100);
    const list = await compactionHistory(LOCAL_USER_ID, stored.sessionId);
    expect(list.map((c) => [c.status, c.trigger, c.from_turn, c.through_turn, c.summary])).toEqual([
      ["superseded", "manual", 1, 1, "This session is being continued from a previous conversation. Summary: the parser now returns numbers."],
      ["applied", "auto", 2, 2, "Summary two: negative numbers are tested."],
    ]);
    const session = await withUser(LOCAL_USER_ID, (tx) => getSession(tx, LOCAL_USER_ID, stored.sessionId));
    expect([session.summary_id, session.summary_through_turn, session.window_start_turn]).toEqual([list[1].id, 2, 3]);
  });
});
