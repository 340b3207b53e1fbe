// The session list's own state: pinned sessions come first (however old), archived ones say so
// and can be brought back; a rename is not activity. Through the route handlers on real PGlite.
import { describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import * as oneRoute from "@/app/api/session/[id]/route";
import * as archiveRoute from "@/app/api/session/[id]/archive/route";
import type { SessionJson } from "@/lib/contract";
import { idle, newSession, params, req, sendJson, useHarness } from "./harness";

const h = useHarness();

async function patch(id: string, body: object): Promise<Response> {
  return oneRoute.PATCH(req("PATCH", `/api/session/${id}`, body), params({ id }));
}

async function list(): Promise<SessionJson[]> {
  const res = await sessionRoute.GET(req("GET", "/api/session"), undefined);
  expect(res.status).toBe(200);
  return ((await res.json()) as { sessions: SessionJson[] }).sessions;
}

describe("session list", () => {
  it("a pinned session is listed first until unpinned; renaming keeps its place", async () => {
    const old = await newSession({ title: "Old but important" });
    const recent = await newSession({ title: "Recent" });
    expect((await list()).map((s) => s.id).slice(0, 2)).toEqual([recent.id, old.id]);

    const pinned = (await (await patch(old.id, { pinned: true })).json()) as { session: SessionJson };
    expect(pinned.session).toMatchObject({ pinned: true, archived: false, updated_at: old.updated_at });
    expect((await list())[0]).toMatchObject({ id: old.id, pinned: true });
    // Pinning twice keeps the first pin; renaming does not move anything.
    await patch(old.id, { pinned: true, title: "Renamed" });
    expect((await list())[0]).toMatchObject({ id: old.id, title: "Renamed", pinned: true });

    await patch(old.id, { pinned: false });
    expect((await list()).map((s) => s.id).slice(0, 2)).toEqual([recent.id, old.id]);
  });

  it("an archived session says so and comes back with archived: false, its memory kept", async () => {
    const s = await newSession();
    await sendJson(s.id, "[[reply:Noted.]] We settled on the blue logo for the Quillon launch.");
    await idle(h, s.id);
    expect((await archiveRoute.POST(req("POST", `/api/session/${s.id}/archive`), params({ id: s.id }))).status).toBe(201);
    expect((await list()).find((x) => x.id === s.id)).toMatchObject({ archived: true });
    const memories = () => h.db.transaction((tx) => tx.query(`select id from session_memories where session_id = $1`, [s.id]));
    const kept = await memories();
    expect(kept.length).toBeGreaterThan(0);

    const back = (await (await patch(s.id, { archived: false })).json()) as { session: SessionJson };
    expect(back.session.archived).toBe(false);
    expect(await memories()).toEqual(kept);
  });

  it("refuses to archive by PATCH (an archive makes a memory) and a pin that is not a boolean", async () => {
    const s = await newSession();
    for (const bad of [{ archived: true }, { pinned: "yes" }, { pinned: null }]) {
      const res = await patch(s.id, bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
  });
});
