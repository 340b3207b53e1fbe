// The stall watchdog (lib/db/watchdog.ts), in a child process since it ends its process: a call
// that blocks past the limit ends it with SIGKILL and a line naming the stall; a long operation
// gets ten times the limit; a blocked loop with no database call in flight is not its business.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

function run(stallMs: number, limitMs: number, mode = ""): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string; ms: number }> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", path.join(ROOT, "tests/integration/stall-child.ts"), String(stallMs), String(limitMs), mode],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, out, err, ms: Date.now() - started })));
}

describe("the database watchdog", () => {
  it("ends a process stalled inside a database call, loudly, within a beat of the limit", async () => {
    const r = await run(60_000, 1_500);
    expect(r.signal).toBe("SIGKILL");
    expect(r.out).not.toContain("survived");
    expect(r.err).toMatch(/FATAL database stall: a call to the embedded database \(PGlite, data folder .+\) has blocked the server for \d+ s/);
    expect(r.err).toMatch(/free space on its device: [\d.]+ MB/);
    expect(r.ms).toBeLessThan(15_000);
  });

  it("lets a long operation (migration, VACUUM) run ten times as long", async () => {
    const r = await run(3_000, 1_000, "long");
    expect(r.code).toBe(0);
    expect(r.out).toContain("survived");
  });

  it("leaves a blocked loop alone when no database call is in flight", async () => {
    const r = await run(3_000, 1_000, "idle");
    expect(r.code).toBe(0);
    expect(r.err).not.toContain("stall");
  });
});
