import { describe, expect, it } from "vitest";
import * as saveRoute from "@/app/api/checkpoint/save/route";
import * as listRoute from "@/app/api/checkpoint/session/[session_id]/route";
import * as oneRoute from "@/app/api/checkpoint/[id]/route";
import * as restoreRoute from "@/app/api/checkpoint/[id]/restore/route";
import * as recentCpRoute from "@/app/api/checkpoint/recent/route";
import * as recentRoute from "@/app/api/session/recent/route";
import * as sessionRoute from "@/app/api/session/[id]/route";
import * as resumeRoute from "@/app/api/session/[id]/resume/route";
import * as recoverRoute from "@/app/api/session/recover/route";
import * as projectsRoute from "@/app/api/projects/route";
import * as projectRoute from "@/app/api/projects/[id]/route";
import type { CheckpointJson, ContextStatusJson, MessageJson, ProjectJson, RecoveryJson, SessionJson, SessionSummaryJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { sweepStaleStreams } from "@/lib/db/maintenance";
import { contextStatus, history, idle, newSession, params, postMessage, prose, readSse, ofType, req, sendJson, useHarness } from "./harness";

const h = useHarness();

async function body<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const save = (session_id: string, label?: string) =>
  saveRoute.POST(req("POST", "/api/checkpoint/save", label ? { session_id, label } : { session_id }), undefined);
const list = async (id: string) =>
  (await body<{ checkpoints: CheckpointJson[] }>(await listRoute.GET(req("GET", `/api/checkpoint/session/${id}`), params({ session_id: id })))).checkpoints;
const picker = async (query = "") =>
  (await body<{ sessions: SessionSummaryJson[] }>(await recentRoute.GET(req("GET", `/api/session/recent${query}`), undefined))).sessions;

describe("automatic checkpoints", () => {
  it("saves at most one per turn, tagged with every reason, and none for small talk", async () => {
    const s = await newSession();
    await sendJson(s.id, "[[reply:Sure, happy to help.]] hi");
    await idle(h, s.id);
    expect(await list(s.id)).toHaveLength(0);
    await sendJson(s.id, "[[reply:We decided to use PGlite. Edit src/db/index.ts:\n```ts\nexport const x = 1;\n```]] plan?");
    await idle(h, s.id);
    const [cp] = await list(s.id);
    expect(cp.trigger).toBe("auto");
    expect(cp.auto_tags.sort()).toEqual(["code", "decision", "file"]);
    expect(cp.through_seq).toBe(4);
    expect(cp.preview.at(-1)?.role).toBe("assistant");
  });

  it("tags an error followed by success, and every N messages", async () => {
    const s = await newSession();
    await sendJson(s.id, "[[reply:The build failed with TypeError: x is undefined]] build");
    await sendJson(s.id, "[[reply:Fixed: the tests pass now.]] retry");
    await idle(h, s.id);
    const tags = (await list(s.id)).flatMap((c) => c.auto_tags);
    expect(tags).toContain("error_fix");
    for (let i = 0; i < 5; i++) await sendJson(s.id, `[[reply:ok ${i}]] chat ${i}`);
    await idle(h, s.id);
    expect((await list(s.id)).some((c) => c.auto_tags.includes("periodic"))).toBe(true);
  });

  it("is taken right before a compaction", async () => {
    const s = await newSession({ settings: { output_reservation: 0.5, safety_buffer: 0.3 } });
    for (let i = 0; i < 3; i++) await sendJson(s.id, `[[reply:ok]] ${prose(300, i)}`);
    await idle(h, s.id);
    const res = await (await import("@/app/api/context/compact/route")).POST(
      req("POST", "/api/context/compact", { session_id: s.id, force: true }),
      undefined,
    );
    expect(res.status).toBe(201);
    expect((await list(s.id)).some((c) => c.trigger === "pre_compaction" && c.auto_tags.includes("pre_compaction"))).toBe(true);
  });
});

describe("manual checkpoints and restore", () => {
  it("saves with a label, lists, restores into a fork with exactly the checkpoint's context, and deletes", async () => {
    const s = await newSession();
    await sendJson(s.id, "[[reply:first answer]] first question");
    await sendJson(s.id, "[[reply:second answer]] second question");
    await idle(h, s.id);
    const { checkpoint } = await body<{ checkpoint: CheckpointJson }>(await save(s.id, "completed auth feature"), 201);
    expect(checkpoint).toMatchObject({ label: "completed auth feature", trigger: "manual", through_seq: 4 });
    await sendJson(s.id, "[[reply:after the checkpoint]] third question");
    await idle(h, s.id);
    const before = await contextStatus(s.id);

    const restored = await body<{ session: SessionJson; checkpoint: CheckpointJson }>(
      await restoreRoute.POST(req("POST", `/api/checkpoint/${checkpoint.id}/restore`), params({ id: checkpoint.id })),
      201,
    );
    const fork = restored.session;
    expect(fork).toMatchObject({ parent_session_id: s.id, forked_from_checkpoint_id: checkpoint.id });
    const forkPage = await history(fork.id);
    expect(forkPage.messages.map((m) => m.text)).toEqual(["[[reply:first answer]] first question", "first answer", "[[reply:second answer]] second question", "second answer"]);
    expect((await contextStatus(fork.id)).current_tokens).toBeLessThan(before.current_tokens);
    // The original is untouched and shows the fork.
    expect((await history(s.id)).messages).toHaveLength(6);
    const detail = await body<{ forks: { id: string }[]; checkpoints: CheckpointJson[] }>(
      await sessionRoute.GET(req("GET", `/api/session/${s.id}`), params({ id: s.id })),
    );
    expect(detail.forks.map((f) => f.id)).toEqual([fork.id]);
    // The fork continues on its own.
    const { res } = await sendJson(fork.id, "[[reply:fork reply]] fork question");
    expect(res.status).toBe(201);
    expect((await history(fork.id)).messages.at(-1)).toMatchObject({ seq: 6, text: "fork reply" });

    const cpDetail = await body<{ checkpoint: CheckpointJson; messages: MessageJson[] }>(
      await oneRoute.GET(req("GET", `/api/checkpoint/${checkpoint.id}`), params({ id: checkpoint.id })),
    );
    expect(cpDetail.messages.at(-1)?.seq).toBe(4);
    const recent = await body<{ checkpoints: (CheckpointJson & { session_title: string })[] }>(
      await recentCpRoute.GET(req("GET", "/api/checkpoint/recent"), undefined),
    );
    expect(recent.checkpoints.some((c) => c.id === checkpoint.id)).toBe(true);
    expect((await oneRoute.DELETE(req("DELETE", `/api/checkpoint/${checkpoint.id}`), params({ id: checkpoint.id }))).status).toBe(204);
    expect((await oneRoute.GET(req("GET", `/api/checkpoint/${checkpoint.id}`), params({ id: checkpoint.id }))).status).toBe(404);
  });

  it("keeps the newest N, removing automatic ones before manual ones", async () => {
    process.env.THREADKEEPER_CHECKPOINT_KEEP = "3";
    try {
      const s = await newSession();
      await sendJson(s.id, "[[reply:ok]] hello");
      await idle(h, s.id);
      const manual = await body<{ checkpoint: CheckpointJson }>(await save(s.id, "keep me"), 201);
      for (let i = 0; i < 4; i++) {
        await sendJson(s.id, `[[reply:Edit src/file${i}.ts now]] step ${i}`);
        await idle(h, s.id);
      }
      const kept = await list(s.id);
      expect(kept).toHaveLength(3);
      expect(kept.map((c) => c.id)).toContain(manual.checkpoint.id);
    } finally {
      delete process.env.THREADKEEPER_CHECKPOINT_KEEP;
    }
  });

  it("answers 404 for another user's checkpoint or session, and validates input", async () => {
    const other = "00000000-0000-4000-8000-0000000000d4";
    const theirs = await withUser(other, async (tx) => {
      await tx.query("reset role");
      await tx.query("insert into auth.users (id) values ($1) on conflict do nothing", [other]);
      await tx.query("set local role authenticated");
      const [row] = await tx.query<{ id: string }>("insert into sessions (user_id, model) values ($1, 'claude-haiku-4-5') returning id", [other]);
      const [cp] = await tx.query<{ id: string }>(
        `insert into session_checkpoints (session_id, user_id, trigger, through_seq, through_turn, window_start_turn, token_count)
         values ($1, $2, 'manual', 0, 0, 1, 0) returning id`,
        [row.id, other],
      );
      return { session: row.id, checkpoint: cp.id };
    });
    expect((await restoreRoute.POST(req("POST", `/api/checkpoint/${theirs.checkpoint}/restore`), params({ id: theirs.checkpoint }))).status).toBe(404);
    expect((await oneRoute.DELETE(req("DELETE", `/api/checkpoint/${theirs.checkpoint}`), params({ id: theirs.checkpoint }))).status).toBe(404);
    expect((await sessionRoute.DELETE(req("DELETE", `/api/session/${theirs.session}`), params({ id: theirs.session }))).status).toBe(404);
    expect((await save(theirs.session)).status).toBe(404);
    expect((await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: "x" }), undefined)).status).toBe(400);
    expect((await picker()).some((x) => x.id === theirs.session)).toBe(false);
  });
});

describe("session picker, projects and delete", () => {
  it("lists by recency with previews, counts and tokens; searches by keyword; filters by project", async () => {
    const a = await newSession();
    await sendJson(a.id, "[[reply:Use a partial index on the ledger.]] How should we index the ledger table?");
    const b = await newSession();
    await sendJson(b.id, "[[reply:Try exponential backoff.]] The uploader keeps timing out");
    await idle(h, a.id);
    await idle(h, b.id);
    const rows = await picker();
    expect(rows[0].id).toBe(b.id);
    expect(rows[0]).toMatchObject({ last_message_preview: "Try exponential backoff." });
    expect(rows[0].current_tokens).toBeGreaterThan(0);
    expect(rows[0].title).not.toBe("New session");

    const found = await picker("?q=uploader");
    expect(found.map((x) => x.id), JSON.stringify(found.map((x) => [x.title, x.last_message_preview]))).toEqual([b.id]);
    expect((await picker("?q=ledger")).map((x) => x.id)).toEqual([a.id]);

    const { project } = await body<{ project: ProjectJson }>(await projectsRoute.POST(req("POST", "/api/projects", { name: "Empire" }), undefined), 201);
    expect((await projectsRoute.POST(req("POST", "/api/projects", { name: "Empire" }), undefined)).status).toBe(409);
    await body(await sessionRoute.PATCH(req("PATCH", `/api/session/${a.id}`, { project_id: project.id }), params({ id: a.id })));
    const inProject = await picker(`?project_id=${project.id}`);
    expect(inProject.map((x) => x.id)).toEqual([a.id]);
    expect(inProject[0].project_name).toBe("Empire");
    const renamed = await body<{ project: ProjectJson }>(
      await projectRoute.PATCH(req("PATCH", `/api/projects/${project.id}`, { name: "Empire 2" }), params({ id: project.id })),
    );
    expect(renamed.project).toMatchObject({ name: "Empire 2", session_count: 1 });
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await picker(`?from=${encodeURIComponent(future)}`)).toEqual([]);

    await save(a.id, "before delete");
    expect((await sessionRoute.DELETE(req("DELETE", `/api/session/${a.id}`), params({ id: a.id }))).status).toBe(204);
    expect((await picker()).some((x) => x.id === a.id)).toBe(false);
    const left = await h.db.transaction((tx) => tx.query("select 1 from session_checkpoints where session_id = $1", [a.id]));
    expect(left).toEqual([]);
  });
});

describe("crash recovery", () => {
  it("offers the cut-off session with its latest checkpoint; resume answers the cut-off message again", async () => {
    const s = await newSession();
    await sendJson(s.id, "[[reply:ok]] start");
    await idle(h, s.id);
    await save(s.id, "completed auth feature");
    // A reply that was streaming when the server died: saved partial text, expired lease.
    await h.db.transaction(async (tx) => {
      await tx.query(
        `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, status)
         select id, user_id, next_seq, last_turn_seq + 1, 'user', '[{"type":"text","text":"continue please"}]', 'continue please', 'complete'
         from sessions where id = $1`,
        [s.id],
      );
      await tx.query(
        `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, status)
         select id, user_id, next_seq + 1, last_turn_seq + 1, 'assistant', '[{"type":"text","text":"half of"}]', 'half of', 'streaming'
         from sessions where id = $1`,
        [s.id],
      );
      await tx.query(
        `update sessions set next_seq = next_seq + 2, last_turn_seq = last_turn_seq + 1, message_count = message_count + 2,
           tail_tokens = tail_tokens + 5 where id = $1`,
        [s.id],
      );
    });
    await sweepStaleStreams(h.db);

    const rec = await body<RecoveryJson>(await recoverRoute.POST(req("POST", "/api/session/recover", {}), undefined));
    expect(rec).toMatchObject({ needed: true, session: { id: s.id }, interrupted_message: { status: "interrupted", text: "half of" } });
    expect(rec.checkpoint?.label).toBe("completed auth feature");

    const resumed = await body<{ session: SessionJson; status: ContextStatusJson; interrupted_message: MessageJson | null }>(
      await resumeRoute.POST(req("POST", `/api/session/${s.id}/resume`), params({ id: s.id })),
    );
    expect(resumed.interrupted_message?.text).toBe("half of");
    expect((await body<RecoveryJson>(await recoverRoute.POST(req("POST", "/api/session/recover", {}), undefined))).needed).toBe(false);

    const events = await readSse(await postMessage(s.id, { retry: true }));
    expect(ofType(events, "assistant_message").at(-1)?.status).toBe("complete");
    const page = await history(s.id);
    expect(page.messages.map((m) => m.text)).toContain("half of");
    expect(page.messages.filter((m) => m.text === "continue please")).toHaveLength(1);
  });
});
