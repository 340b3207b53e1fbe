// One process per data folder: a second `next start` on a folder in use is refused, in either
// order, naming the holder; the holder's data stays whole; a crashed holder's folder opens again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import type { MessagesPageJson, SessionJson } from "@/lib/contract";
import { corruptIndexes } from "./amcheck";
import { api, exitWithin, spawnEmbedded, startEmbedded, tempDataDir, type AppInstance } from "./app";

let fake: FakeAnthropic;
const running: AppInstance[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});

afterAll(async () => {
  await Promise.all(running.map((a) => a.stop()));
  await fake?.close();
});

async function track(app: Promise<AppInstance>): Promise<AppInstance> {
  const a = await app;
  running.push(a);
  return a;
}

/** Sends `n` messages to a new session; answers its id. */
async function converse(app: AppInstance, n: number): Promise<string> {
  const created = await api<{ session: SessionJson }>(app, "POST", "/api/session", { title: "owner" });
  expect(created.status).toBe(201);
  const id = created.body.session.id;
  for (let i = 0; i < n; i++) {
    const res = await api(app, "POST", `/api/session/${id}/messages`, { content: `message ${i}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  return id;
}

async function userMessages(app: AppInstance, sessionId: string): Promise<string[]> {
  const res = await api<MessagesPageJson>(app, "GET", `/api/session/${sessionId}/messages?limit=500`);
  expect(res.status).toBe(200);
  return res.body.messages.filter((m) => m.role === "user").map((m) => m.text);
}

/** The loser must end on its own, non-zero, saying whose the folder is. */
async function expectRefused(loser: AppInstance, dataDir: string, holder: AppInstance): Promise<void> {
  const code = await exitWithin(loser, 90_000);
  expect(code, loser.output()).not.toBe("running");
  expect(code).not.toBe(0);
  expect(loser.output()).toContain(dataDir);
  expect(loser.output()).toMatch(/in use by process \d+/);
  // The holder's id as the operating system knows it (next start runs the server in its own process).
  expect(loser.output()).toContain(`process ${await serverPid(holder)}`);
}

/** The pid of the process that serves (and holds the folder): `next start` itself here. */
async function serverPid(app: AppInstance): Promise<number> {
  expect(app.pid).toBeDefined();
  return app.pid as number;
}

describe("one owner per data folder", () => {
  it("refuses a second start on a folder in use, keeps the first one's data whole, and amcheck finds nothing", async () => {
    const dir = await tempDataDir();
    const first = await track(startEmbedded("first", dir, fake.url));
    const sessionId = await converse(first, 5);
    const second = await track(spawnEmbedded("second", dir, fake.url));
    await expectRefused(second, dir, first);

    // The first one went on serving, and everything it acknowledged is there after a restart.
    for (let i = 5; i < 10; i++) {
      const res = await api(first, "POST", `/api/session/${sessionId}/messages`, { content: `message ${i}` });
      expect(res.status).toBe(201);
    }
    await first.stop();
    const again = await track(startEmbedded("again", dir, fake.url));
    expect(await userMessages(again, sessionId)).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i}`));
    await again.stop();
    expect(await corruptIndexes(dir)).toEqual([]);
  });

  it("lets exactly one of two processes started at the same instant have the folder", async () => {
    const dir = await tempDataDir();
    const [a, b] = await Promise.all([track(spawnEmbedded("a", dir, fake.url)), track(spawnEmbedded("b", dir, fake.url))]);
    const first = await Promise.race([a.exited.then(() => a), b.exited.then(() => b)]);
    const winner = first === a ? b : a;
    await expectRefused(first, dir, winner);
    expect(await exitWithin(winner, 0)).toBe("running");
    const { waitReady } = await import("../pg/app");
    await waitReady(winner, winner.exited);
    const sessionId = await converse(winner, 3);
    expect(await userMessages(winner, sessionId)).toHaveLength(3);
    await winner.stop();
    expect(await corruptIndexes(dir)).toEqual([]);
  });

  it("opens the folder again at once after its holder was killed", async () => {
    const dir = await tempDataDir();
    const first = await track(startEmbedded("killed", dir, fake.url));
    const sessionId = await converse(first, 2);
    first.signal("SIGKILL");
    await first.exited;
    const next = await track(startEmbedded("after the crash", dir, fake.url));
    expect(await userMessages(next, sessionId)).toEqual(["message 0", "message 1"]);
  });
});
