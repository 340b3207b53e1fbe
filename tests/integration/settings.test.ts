import { describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import * as settingsRoute from "@/app/api/context/settings/route";
import * as statusRoute from "@/app/api/context/status/route";
import * as messagesRoute from "@/app/api/session/[id]/messages/route";
import type { ContextStatusJson, SendResultJson, SessionJson, SettingsJson } from "@/lib/contract";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { params, req, useHarness } from "./harness";

useHarness({ online: false });

async function put(body: object, query = ""): Promise<Response> {
  return settingsRoute.PUT(req("PUT", `/api/context/settings${query}`, body), undefined);
}

async function get(query = ""): Promise<SettingsJson> {
  return (await (await settingsRoute.GET(req("GET", `/api/context/settings${query}`), undefined)).json()) as SettingsJson;
}

async function status(id: string): Promise<ContextStatusJson> {
  return (await (await statusRoute.GET(req("GET", `/api/context/status?session_id=${id}`), undefined)).json()) as ContextStatusJson;
}

describe("context settings", () => {
  it("has the documented defaults and persists user defaults", async () => {
    const before = await get();
    expect(before).toMatchObject({
      scope: "user",
      effective: { compaction_threshold: 0.8, output_reservation: 0.2, safety_buffer: 0.1, model: "claude-haiku-4-5" },
    });
    const res = await put({ compaction_threshold: 0.75 });
    expect(res.status).toBe(200);
    expect((await get()).effective.compaction_threshold).toBe(0.75);
  });

  it("overrides per session without touching the user defaults, and the status follows", async () => {
    const s = ((await (await sessionRoute.POST(req("POST", "/api/session", {}), undefined)).json()) as { session: SessionJson }).session;
    const before = await status(s.id);
    expect(before).toMatchObject({ max_tokens: 200_000, reserved_tokens: 40_000, safety_tokens: 20_000, capacity_tokens: 140_000 });
    const res = await put({ output_reservation: 0.1, model: "claude-sonnet-5-5" }, `?session_id=${s.id}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as SettingsJson;
    expect(body).toMatchObject({ scope: "session", settings: { output_reservation: 0.1, model: "claude-sonnet-5-5" } });
    const after = await status(s.id);
    expect(after).toMatchObject({ model: "claude-sonnet-5-5", max_tokens: 1_000_000, reserved_tokens: 100_000, capacity_tokens: 800_000 });
    expect((await get()).effective.output_reservation).toBe(0.2);
  });

  it.each([
    [{ compaction_threshold: 0.99 }, "compaction_threshold"],
    [{ output_reservation: 0 }, "output_reservation"],
    [{ safety_buffer: -0.1 }, "safety_buffer"],
    [{ model: "claude-9" }, "model"],
    [{ threshold: 0.8 }, "threshold"],
  ])("rejects %j with a 400 naming the field", async (body, field) => {
    const res = await put(body);
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe("invalid_request");
    expect(json.error.message).toContain(field);
  });
});

describe("retired models", () => {
  const RETIRED = "claude-mythos-preview"; // retired 2026-06-30
  const newSession = async (body: object) => sessionRoute.POST(req("POST", "/api/session", body), undefined);

  it("are refused for a new session, a session's new model and the defaults, saying why and what to choose", async () => {
    for (const res of [await newSession({ model: RETIRED }), await put({ model: RETIRED }), await put({ summary_model: RETIRED })]) {
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { message: string; details: { code: string } } };
      expect(error.message).toMatch(/^Claude Mythos Preview was retired on 2026-06-30: .*Choose another model: .*claude-haiku-4-5/);
      expect(error.details.code).toBe("model_retired");
    }
    const s = ((await (await newSession({})).json()) as { session: SessionJson }).session;
    expect((await put({ model: RETIRED }, `?session_id=${s.id}`)).status).toBe(400);
    expect((await status(s.id)).model).toBe("claude-haiku-4-5");
  });

  it("a session already on a retired model keeps it and can still change its other settings", async () => {
    const s = ((await (await newSession({})).json()) as { session: SessionJson }).session;
    await withUser(LOCAL_USER_ID, (tx) => tx.query("update sessions set model = $1 where id = $2", [RETIRED, s.id]));
    const res = await put({ model: RETIRED, output_reservation: 0.15 }, `?session_id=${s.id}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as SettingsJson).settings).toMatchObject({ model: RETIRED, output_reservation: 0.15 });
  });
});

describe("offline responder", () => {
  it("answers without an API key, clearly labelled, and the status is estimated", async () => {
    const s = ((await (await sessionRoute.POST(req("POST", "/api/session", {}), undefined)).json()) as { session: SessionJson }).session;
    const res = await messagesRoute.POST(
      req("POST", `/api/session/${s.id}/messages`, { content: "hello offline" }, { accept: "application/json" }),
      params({ id: s.id }),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as SendResultJson;
    expect(body.assistant_message?.text).toMatch(/^\[Offline responder/);
    expect(body.assistant_message?.text).toContain("hello offline");
    expect(body.status).toMatchObject({ measured: false, measured_tokens: 0 });
    expect(body.status.current_tokens).toBeGreaterThan(0);
  });
});
