// Webhooks end to end with a local receiver on 127.0.0.1: events queued in the operation's
// transaction, deliveries signed and verified, retried with backoff after failures, picked
// up again after a restart, and never in the way of a turn.
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as hooksRoute from "@/app/api/webhooks/route";
import * as hookRoute from "@/app/api/webhooks/[id]/route";
import * as deliveriesRoute from "@/app/api/webhooks/[id]/deliveries/route";
import * as saveRoute from "@/app/api/checkpoint/save/route";
import { deliverDue, signature } from "@/lib/webhooks/deliver";
import type { DeliveryJson } from "@/lib/contract";
import { newSession, params, req, sendJson, useHarness } from "./harness";

const h = useHarness();

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

let receiver: http.Server;
let url = "";
const received: Received[] = [];
/** Status codes the receiver answers with, in order; then 200. */
let answers: number[] = [];
let hang = false;

beforeAll(async () => {
  receiver = http.createServer((rq, rs) => {
    let body = "";
    rq.on("data", (c: Buffer) => (body += c.toString()));
    rq.on("end", () => {
      received.push({ headers: rq.headers, body });
      if (hang) return; // never answers
      rs.writeHead(answers.shift() ?? 200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});
beforeEach(async () => {
  received.length = 0;
  answers = [];
  hang = false;
  await h.db.transaction((tx) => tx.query("delete from webhooks"));
});

async function createHook(events: string[], secret = "a-very-secret-signing-key") {
  const res = await hooksRoute.POST(req("POST", "/api/webhooks", { url, events, secret }), undefined);
  expect(res.status).toBe(201);
  return ((await res.json()) as { webhook: { id: string; secret: string } }).webhook;
}

const deliveries = async (id: string) =>
  ((await (await deliveriesRoute.GET(req("GET", `/api/webhooks/${id}/deliveries`), params({ id }))).json()) as { deliveries: DeliveryJson[] })
    .deliveries;

const OPTS = { backoffMs: 20 };

describe("webhooks", () => {
  it("delivers a checkpoint.created event, signed with the webhook's secret", async () => {
    const hook = await createHook(["checkpoint.created", "memory.saved"]);
    const s = await newSession();
    await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id, label: "ship it" }), undefined);
    expect(await deliverDue(h.db, OPTS)).toBe(1);

    expect(received).toHaveLength(1);
    const [{ headers, body }] = received;
    expect(headers["threadkeeper-event"]).toBe("checkpoint.created");
    const sig = String(headers["threadkeeper-signature"]);
    const t = Number(/t=(\d+)/.exec(sig)?.[1]);
    expect(sig).toBe(signature(hook.secret, t, body));
    expect(sig.split("v1=")[1]).toBe(createHmac("sha256", hook.secret).update(`${t}.${body}`).digest("hex"));
    const payload = JSON.parse(body) as { event: string; data: { label: string; session_id: string } };
    expect(payload).toMatchObject({ event: "checkpoint.created", data: { label: "ship it", session_id: s.id } });

    const [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 200 });
  });

  it("retries a failing receiver with backoff and records each attempt; lists and deletes", async () => {
    const hook = await createHook(["checkpoint.created"]);
    const s = await newSession();
    answers = [500, 503];
    await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id }), undefined);
    const slow = { backoffMs: 400 };
    await deliverDue(h.db, slow);
    const first = (await deliveries(hook.id))[0];
    expect(first).toMatchObject({ status: "pending", attempts: 1, last_status_code: 500, last_error: "HTTP 500" });
    // Not due again before its backoff; the second retry waits twice as long.
    expect(await deliverDue(h.db, slow)).toBe(0);
    for (let i = 0; i < 100 && (await deliveries(hook.id))[0].status !== "delivered"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await deliverDue(h.db, slow);
    }
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: "delivered", attempts: 3, last_status_code: 200 });
    expect(received).toHaveLength(3);

    const list = (await (await hooksRoute.GET(req("GET", "/api/webhooks"), undefined)).json()) as { webhooks: { id: string }[] };
    expect(list.webhooks.map((w) => w.id)).toEqual([hook.id]);
    expect(JSON.stringify(list)).not.toContain("a-very-secret");
    expect((await hookRoute.DELETE(req("DELETE", `/api/webhooks/${hook.id}`), params({ id: hook.id }))).status).toBe(204);
    expect((await hookRoute.DELETE(req("DELETE", `/api/webhooks/${hook.id}`), params({ id: hook.id }))).status).toBe(404);
  });

  it("survives a restart: a delivery claimed by a sender that died is sent again once its lease ends", async () => {
    const hook = await createHook(["checkpoint.created"]);
    const s = await newSession();
    await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id }), undefined);
    // A sender claimed it and died: delivering, lease already over.
    await h.db.transaction((tx) => tx.query("update webhook_deliveries set status = 'delivering', next_attempt_at = now() - interval '1 second'"));
    expect(await deliverDue(h.db, OPTS)).toBe(1);
    expect((await deliveries(hook.id))[0].status).toBe("delivered");
  });

  it("never holds up a turn, even when the receiver hangs", async () => {
    await createHook(["checkpoint.created", "context.threshold_crossed"]);
    hang = true;
    const s = await newSession();
    const pass = deliverDue(h.db, OPTS); // a pass in flight against a receiver that never answers
    const started = Date.now();
    const { res } = await sendJson(s.id, "A turn mentioning src/app.ts so it checkpoints.");
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5_000);
    receiver.closeAllConnections();
    await pass;
  });

  it("in SaaS mode, reaches no private address: neither one written as such nor a name resolving to one", async () => {
    const hook = await createHook(["checkpoint.created"]);
    const s = await newSession();
    await saveRoute.POST(req("POST", "/api/checkpoint/save", { session_id: s.id }), undefined);
    const saas = { backoffMs: 1, publicOnly: true };
    // The receiver's own URL, 127.0.0.1: refused before any connection.
    await deliverDue(h.db, saas);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
    expect((await deliveries(hook.id))[0].last_error).toMatch(/^refused: 127\.0\.0\.1 is not a public address/);
    // A name (as a public one could, by rebinding) that resolves to loopback: refused at the lookup.
    await h.db.transaction((tx) => tx.query("update webhooks set url = replace(url, '127.0.0.1', 'localhost')"));
    await new Promise((r) => setTimeout(r, 10));
    await deliverDue(h.db, saas);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: "pending", attempts: 2 });
    expect((await deliveries(hook.id))[0].last_error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), not a public address/);
    expect(received).toHaveLength(0);
    // The same delivery in local mode reaches the receiver.
    await new Promise((r) => setTimeout(r, 10));
    await deliverDue(h.db, { backoffMs: 1, publicOnly: false });
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: "delivered", attempts: 3 });
    expect(received).toHaveLength(1);
  });

  it("rejects bad input with the field named, and unknown events", async () => {
    const bad = await hooksRoute.POST(req("POST", "/api/webhooks", { url: "not a url", events: ["checkpoint.created"] }), undefined);
    expect(bad.status).toBe(400);
    const unknown = await hooksRoute.POST(req("POST", "/api/webhooks", { url, events: ["everything"] }), undefined);
    expect(unknown.status).toBe(400);
    const ftp = await hooksRoute.POST(req("POST", "/api/webhooks", { url: "ftp://127.0.0.1/x", events: ["memory.saved"] }), undefined);
    expect(ftp.status).toBe(400);
  });
});
