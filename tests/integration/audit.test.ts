// The audit log: every context operation writes its event in its own transaction, with the
// actor, request id, IP and user agent; events are append-only and only their user's.
import { describe, expect, it } from "vitest";
import * as auditRoute from "@/app/api/audit/route";
import * as saveRoute from "@/app/api/checkpoint/save/route";
import * as checkpointRoute from "@/app/api/checkpoint/[id]/route";
import * as restoreRoute from "@/app/api/checkpoint/[id]/restore/route";
import * as compactRoute from "@/app/api/context/compact/route";
import * as undoRoute from "@/app/api/context/compact/[compaction_id]/undo/route";
import * as protectRoute from "@/app/api/context/protect/[message_id]/route";
import * as settingsRoute from "@/app/api/context/settings/route";
import * as oneSession from "@/app/api/session/[id]/route";
import type { AuditEventJson } from "@/lib/contract";
import { LOCAL_USER_ID } from "@/lib/db";
import { history, idle, newSession, params, prose, req, sendJson, useHarness } from "./harness";

const h = useHarness();

async function events(query = ""): Promise<{ events: AuditEventJson[]; next_cursor: string | null }> {
  const res = await auditRoute.GET(req("GET", `/api/audit${query}`), undefined);
  expect(res.status).toBe(200);
  return (await res.json()) as { events: AuditEventJson[]; next_cursor: string | null };
}

const CLIENT = { "x-forwarded-for": "203.0.113.7, 10.0.0.1", "user-agent": "audit-test/1.0", "x-request-id": "req-audit-1" };

describe("the audit log", () => {
  it("names the session an event concerns by its title while it exists", async () => {
    const s = await newSession({ title: "Audit naming" });
    const saved = await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: "named" }), undefined);
    expect(saved.status).toBe(201);
    const first = (await events("?limit=5")).events;
    expect(first.find((e) => e.action === "checkpoint.created")?.session).toEqual({ id: s.id, title: "Audit naming" });
    expect(first.find((e) => e.action === "session.created" && e.target.id === s.id)?.session).toEqual({ id: s.id, title: "Audit naming" });
    expect((await oneSession.DELETE(req("DELETE", `/api/session/${s.id}`), params({ id: s.id }))).status).toBe(204);
    const after = (await events("?limit=10")).events.filter((e) => e.target.id === s.id || e.metadata.session_id === s.id);
    expect(after.length).toBeGreaterThan(1);
    for (const e of after) expect(e.session).toBeNull();
  });

  it("records each context operation with its actor, target, request, IP and user agent", async () => {
    const s = await newSession({ settings: { output_reservation: 0.5, safety_buffer: 0.3 } });
    for (let i = 0; i < 3; i++) await sendJson(s.id, `Turn ${i} edits src/db/schema.ts: ${prose(9_000, i)}`);
    await idle(h, s.id);

    const saved = await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: "before" }, CLIENT), undefined);
    expect(saved.status).toBe(201);
    expect(saved.headers.get("x-request-id")).toBe("req-audit-1");
    const { checkpoint } = (await saved.json()) as { checkpoint: { id: string } };

    const message = (await history(s.id)).messages[0];
    expect((await protectRoute.POST(req("POST", `/api/context/protect/${message.id}`), params({ message_id: message.id }))).status).toBe(200);
    const compacted = await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined);
    expect(compacted.status).toBe(201);
    const { compaction } = (await compacted.json()) as { compaction: { id: string } };
    expect((await undoRoute.POST(req("POST", `/api/context/compact/${compaction.id}/undo`), params({ compaction_id: compaction.id }))).status).toBe(200);
    const put = await settingsRoute.PUT(req("PUT", `/api/context/settings?session_id=${s.id}`, { compaction_threshold: 0.75 }), undefined);
    expect(put.status).toBe(200);
    const restored = await restoreRoute.POST(req("POST", `/api/checkpoint/${checkpoint.id}/restore`), params({ id: checkpoint.id }));
    expect(restored.status).toBe(201);
    expect((await checkpointRoute.DELETE(req("DELETE", `/api/checkpoint/${checkpoint.id}`), params({ id: checkpoint.id }))).status).toBe(204);
    expect((await oneSession.DELETE(req("DELETE", `/api/session/${s.id}`), params({ id: s.id }))).status).toBe(204);

    const { events: log } = await events("?limit=200");
    const actions = log.map((e) => e.action);
    for (const a of [
      "session.created",
      "checkpoint.created",
      "message.protected",
      "compaction.applied",
      "compaction.reverted",
      "settings.updated",
      "checkpoint.restored",
      "checkpoint.deleted",
      "session.deleted",
    ]) {
      expect(actions, a).toContain(a);
    }
    // Newest first.
    expect(actions[0]).toBe("session.deleted");
    const save = log.find((e) => e.action === "checkpoint.created" && e.metadata.label === "before");
    expect(save).toMatchObject({
      actor: { type: "user", id: LOCAL_USER_ID },
      target: { type: "checkpoint", id: checkpoint.id },
      request_id: "req-audit-1",
      ip: "203.0.113.7",
      user_agent: "audit-test/1.0",
    });
    const applied = log.find((e) => e.action === "compaction.applied");
    expect(applied?.metadata).toMatchObject({ session_id: s.id, trigger: "manual" });
    expect(applied?.metadata.post_tokens as number).toBeLessThan(applied?.metadata.pre_tokens as number);
    // The automatic checkpoints after each turn were recorded too, attributed to the send.
    expect(log.filter((e) => e.action === "checkpoint.created" && e.metadata.trigger === "auto").length).toBeGreaterThan(0);
  });

  it("filters by action (or a prefix), target and time, and pages with a cursor", async () => {
    const s = await newSession();
    for (let i = 0; i < 5; i++) {
      await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: `cp ${i}` }), undefined);
    }
    const page1 = await events(`?action=checkpoint.created&limit=2`);
    expect(page1.events).toHaveLength(2);
    expect(page1.next_cursor).not.toBeNull();
    const page2 = await events(`?action=checkpoint.created&limit=2&cursor=${page1.next_cursor}`);
    expect(page2.events.map((e) => e.id)).not.toContain(page1.events[0].id);
    expect(new Date(page2.events[0].occurred_at) <= new Date(page1.events[1].occurred_at)).toBe(true);
    const bySession = await events(`?target_id=${s.id}`);
    expect(bySession.events.map((e) => e.action)).toEqual(["session.created"]);
    const prefix = await events(`?action=checkpoint.*&limit=200`);
    expect(prefix.events.every((e) => e.action.startsWith("checkpoint."))).toBe(true);
    const future = await events(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future.events).toEqual([]);

    const bad = await auditRoute.GET(req("GET", "/api/audit?cursor=nonsense"), undefined);
    expect(bad.status).toBe(400);
    const badAction = await auditRoute.GET(req("GET", "/api/audit?action=DROP TABLE"), undefined);
    expect(badAction.status).toBe(400);
  });

  it("no operation without its event: when the event cannot be written, the operation rolls back", async () => {
    const s = await newSession();
    await h.db.transaction((tx) =>
      tx.exec(`create function pg_temp_refuse() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$;
        create trigger refuse_checkpoint_events before insert on audit_log for each row
          when (new.action = 'checkpoint.created') execute function pg_temp_refuse();`),
    );
    try {
      const res = await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: "doomed" }), undefined);
      expect(res.status).toBe(500);
      const [row] = await h.db.transaction((tx) =>
        tx.query<{ n: number }>("select count(*)::int as n from session_checkpoints where session_id = $1", [s.id]),
      );
      expect(row.n).toBe(0);
    } finally {
      await h.db.transaction((tx) => tx.exec("drop trigger refuse_checkpoint_events on audit_log; drop function pg_temp_refuse();"));
    }
  });

  it("is append-only: no update for anyone, no update or delete through the app's role", async () => {
    const [one] = await h.db.transaction((tx) => tx.query<{ id: string }>("select id from audit_log limit 1"));
    await expect(h.db.transaction((tx) => tx.query("update audit_log set action = 'x.y' where id = $1", [one.id]))).rejects.toThrow(
      /append-only/,
    );
    const { withUser } = await import("@/lib/db");
    const changed = await withUser(LOCAL_USER_ID, async (tx) => ({
      updated: await tx.query("update audit_log set metadata = '{}' where id = $1 returning 1", [one.id]).catch(() => "refused"),
      deleted: await tx.query("delete from audit_log where id = $1 returning 1", [one.id]),
    }));
    expect(changed.deleted).toEqual([]);
    expect(changed.updated === "refused" || (Array.isArray(changed.updated) && changed.updated.length === 0)).toBe(true);
  });
});

describe("API keys in the audit log", () => {
  it("records key creation and revocation, and what a key does is attributed to the key", async () => {
    const keysRoute = await import("@/app/api/keys/route");
    const keyRoute = await import("@/app/api/keys/[id]/route");
    const sessionRoute = await import("@/app/api/session/route");
    const res = await keysRoute.POST(req("POST", "/api/keys", { name: "audited bot", scopes: ["read", "write"] }), undefined);
    expect(res.status).toBe(201);
    const { key, secret } = (await res.json()) as { key: { id: string }; secret: string };
    const made = await sessionRoute.POST(req("POST", "/api/session", { title: "by key" }, { authorization: `Bearer ${secret}` }), undefined);
    expect(made.status).toBe(201);
    expect((await keyRoute.DELETE(req("DELETE", `/api/keys/${key.id}`), params({ id: key.id }))).status).toBe(204);

    const { events: log } = await events("?limit=10");
    expect(log.map((e) => e.action).slice(0, 3)).toEqual(["key.revoked", "session.created", "key.created"]);
    expect(log[1].actor).toEqual({ type: "key", id: key.id, name: "audited bot" });
    expect(log[2]).toMatchObject({ target: { type: "api_key", id: key.id }, metadata: { name: "audited bot" } });
  });
});
