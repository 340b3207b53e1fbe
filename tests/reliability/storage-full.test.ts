// A full disk, for real: the built app on a data folder of its own tmpfs, the device filled with
// a file until writes fail. Sends answer 507 storage_full at once, health 503, reads go on, and
// everything works again once the file is gone; when PGlite stalls on its WAL (less than a
// segment free), the watchdog ends the process and a restart finds the data whole.
// Needs `mount -t tmpfs` (root): skipped, saying so, where mounting is refused.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fake-anthropic/server";
import type { MessagesPageJson, SessionJson } from "@/lib/contract";
import { api, exitWithin, startEmbedded, type AppInstance } from "./app";

const MB = 1024 * 1024;
/** Room for initdb and the migrations (about 45 MB) and some work. */
const DEVICE_MB = 128;

const mounts: string[] = [];
/** A fresh tmpfs, or the reason it could not be had. */
function mountTmpfs(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tk-full-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${DEVICE_MB}m`, "tmpfs", dir], { stdio: "pipe" });
  mounts.push(dir);
  return dir;
}

let refused: string | null = null;
try {
  mountTmpfs();
} catch (err) {
  refused = `mount -t tmpfs was refused (${String(err).split("\n")[0]}); run as root to fill a real device`;
}
if (refused) console.warn(`[storage-full] skipped: ${refused}`);

const freeBytes = (dir: string) => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};

/** Fills the device until `leaveBytes` are free; answers the filler's path. */
function fillTo(device: string, leaveBytes: number): string {
  const filler = path.join(device, "filler");
  writeFileSync(filler, Buffer.alloc(Math.max(0, freeBytes(device) - leaveBytes)));
  return filler;
}

let fake: FakeAnthropic;
const running: AppInstance[] = [];

beforeAll(async () => {
  if (refused) return;
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await Promise.all(running.map((a) => a.stop()));
  await fake?.close();
  for (const dir of mounts) {
    try {
      execFileSync("umount", [dir], { stdio: "pipe" });
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Left for the machine's temporary-folder clean-up.
    }
  }
});

async function start(dataDir: string, env: Record<string, string> = {}): Promise<AppInstance> {
  const app = await startEmbedded("full", dataDir, fake.url, env);
  running.push(app);
  return app;
}

/** A request that must answer, and soon: a hang is the failure this suite exists for. */
async function timed<T>(what: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([what, hang]);
  } finally {
    clearTimeout(timer);
  }
}

async function healthUntil(app: AppInstance, status: number, ms = 20_000): Promise<{ status: number; body: unknown }> {
  const until = Date.now() + ms;
  for (;;) {
    const res = await timed(api<unknown>(app, "GET", "/api/health"));
    if (res.status === status || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function newSession(app: AppInstance): Promise<string> {
  const res = await api<{ session: SessionJson }>(app, "POST", "/api/session", { title: "on a small disk" });
  expect(res.status).toBe(201);
  return res.body.session.id;
}

const sendTo = (app: AppInstance, id: string, content: string) => timed(api<{ error?: { code: string; message: string } }>(app, "POST", `/api/session/${id}/messages`, { content }));

describe.skipIf(refused !== null)("a full disk under the built app", () => {
  it("under the floor: 507 at once, health 503, reads go on, and all is well once space returns", async () => {
    const device = mounts[0];
    const app = await start(path.join(device, "data"));
    const id = await newSession(app);
    expect((await sendTo(app, id, "before")).status).toBe(201);

    // Under the default 64 MB floor, with plenty left for the database itself.
    const filler = fillTo(device, 40 * MB);
    const refusedSend = await healthUntil(app, 503).then(() => sendTo(app, id, "refused"));
    expect(refusedSend.status).toBe(507);
    expect(refusedSend.body.error?.code).toBe("storage_full");
    expect(refusedSend.body.error?.message).toMatch(/storage is full; nothing was saved/);
    expect((await healthUntil(app, 503)).body).toEqual({ status: "unavailable", reason: expect.stringMatching(/^storage full/) });
    const storage = await api<{ level: string }>(app, "GET", "/api/storage");
    expect(storage.body.level).toBe("full");

    const dropIn = await timed(api<{ type: string; error: { type: string } }>(app, "POST", "/api/anthropic/v1/messages", { model: "claude-haiku-4-5", max_tokens: 64, messages: [{ role: "user", content: "hi" }] }));
    expect(dropIn.status).toBe(507);
    expect(dropIn.body).toMatchObject({ type: "error", error: { type: "api_error" } });

    const page = await timed(api<MessagesPageJson>(app, "GET", `/api/session/${id}/messages?limit=50`));
    expect(page.status).toBe(200);

    rmSync(filler);
    expect((await healthUntil(app, 200)).status).toBe(200);
    expect((await sendTo(app, id, "after")).status).toBe(201);
  });

  it("with no floor: the table's device fills, sends answer 507 (not 500, 502 or a hang), no message is lost or torn, and all recovers", async () => {
    const device = mountTmpfs();
    const app = await start(path.join(device, "data"), { THREADKEEPER_STORAGE_FLOOR_MB: "0", THREADKEEPER_DB_WATCHDOG_MS: "5000" });
    const id = await newSession(app);
    // Fresh after initdb, the WAL's first segment has megabytes to go: tables run out first.
    const filler = fillTo(device, 256 * 1024);
    const sent: { content: string; status: number; message: string }[] = [];
    // Past the first 507, a few more: the disk may fill while the person's message or while the
    // reply is being saved, and both must answer storage_full.
    for (let i = 0, after507 = 0; i < 200 && after507 < 5; i++) {
      const content = `${i} ${randomBytes(6_000).toString("base64")}`;
      const res = await sendTo(app, id, content);
      sent.push({ content, status: res.status, message: res.body.error?.message ?? "" });
      if (res.status === 507) after507++;
      if (res.status === 201 || res.status === 507) continue;
      const log = app.output().replace(/[A-Za-z0-9+/=]{200,}/g, "…");
      expect.fail(`send ${i} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 600)}\n${log.slice(-6000)}`);
    }
    const full = sent.filter((s) => s.status === 507);
    expect(full.length, sent.map((s) => s.status).join(",")).toBeGreaterThan(0);
    for (const s of full) expect(s.message).toMatch(/storage is full.*(nothing was saved|Your message is saved)/);
    expect((await healthUntil(app, 503)).status).toBe(503);

    rmSync(filler);
    expect((await healthUntil(app, 200)).status).toBe(200);
    // A turn that failed on the full disk could not give its lease back either: it expires (30 s).
    expect((await timed(api(app, "POST", `/api/session/${id}/messages`, { content: "after" }), 60_000)).status).toBe(201);

    // What is stored: each message whose send said it was saved, whole and once; none of those
    // that said nothing was saved; and the session answering again.
    const page = await timed(api<MessagesPageJson>(app, "GET", `/api/session/${id}/messages?limit=500`));
    const userTexts = page.body.messages.filter((m) => m.role === "user").map((m) => m.text);
    for (const s of sent) {
      const kept = s.status === 201 || /Your message is saved/.test(s.message);
      expect(userTexts.filter((t) => t === s.content).length, `${s.status} ${s.message}`).toBe(kept ? 1 : 0);
    }
    expect(userTexts.at(-1)).toBe("after");
    // A reply cut off by the full disk is kept as interrupted when that update still fits; when
    // it does not either, the row stays streaming for the periodic sweep. Only such a turn may
    // leave one, and no reply is ever marked complete that was not.
    const turnFailures = sent.filter((x) => /Your message is saved/.test(x.message)).length;
    expect(page.body.messages.filter((m) => m.status === "streaming").length).toBeLessThanOrEqual(turnFailures);
    const complete = page.body.messages.filter((m) => m.role === "assistant" && m.status === "complete");
    expect(complete.length).toBe(sent.filter((x) => x.status === 201).length + 1);
    expect(page.body.messages.at(-1)).toMatchObject({ role: "assistant", status: "complete" });
  });

  it("when the WAL cannot grow PGlite stalls: the watchdog ends the process, and a restart finds the data", async () => {
    const device = mountTmpfs();
    const dataDir = path.join(device, "data");
    const env = { THREADKEEPER_STORAGE_FLOOR_MB: "0", THREADKEEPER_DB_WATCHDOG_MS: "3000" };
    const app = await start(dataDir, env);
    const id = await newSession(app);
    expect((await sendTo(app, id, "kept")).status).toBe(201);
    // Less than a WAL segment (16 MB) free, more than the tables will take before the WAL's
    // first segment is used up.
    const filler = fillTo(device, 13 * MB);
    let outcome: number | "hang" = 0;
    for (let i = 0; i < 400; i++) {
      const res = await Promise.race([
        api(app, "POST", `/api/session/${id}/messages`, { content: randomBytes(24_000).toString("base64") }).then((r) => r.status),
        app.exited.then(() => "exited" as const),
      ]).catch(() => "exited" as const);
      if (res === "exited") break;
      outcome = res;
      if (res !== 201 && res !== 507) break;
    }
    const code = await exitWithin(app, 20_000);
    expect(code, `last answer ${outcome}\n${app.output()}`).not.toBe("running");
    expect(app.output()).toMatch(/FATAL database stall: a call to the embedded database \(PGlite, data folder .+\)/);

    rmSync(filler);
    const again = await start(dataDir, env);
    const page = await timed(api<MessagesPageJson>(again, "GET", `/api/session/${id}/messages?limit=500`));
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).toContain("kept");
    expect((await sendTo(again, id, "after the restart")).status).toBe(201);
  });
});
