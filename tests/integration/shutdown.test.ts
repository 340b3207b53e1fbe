// The graceful shutdown sequence in process, with the real routes and turns (Claude is the fake
// Anthropic server, answering slowly): new API requests get 503 `shutting_down` at once, a turn
// that finishes within the grace period is saved complete, one that does not is stopped and
// saved interrupted with its partial text, the loops stop, and only then does it exit.
// tests/pg/shutdown.test.ts does the same to a real `next start` process with SIGTERM.
import { afterEach, describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/api/session/route";
import { abortAllTurns } from "@/lib/operations/stop";
import { inFlight, resetShutdown, shutDown } from "@/lib/shutdown";
import { history, idle, newSession, postMessage, readSse, req, useHarness } from "./harness";

const h = useHarness();

afterEach(() => resetShutdown());

/** Waits until the session's reply has some text saved (the flusher saves every second). */
async function replyStarted(sessionId: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const [row] = await h.db.transaction((tx) =>
      tx.query<{ n: number }>("select count(*)::int as n from messages where session_id = $1 and role = 'assistant' and text <> ''", [sessionId]),
    );
    if (row.n > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the reply never started");
}

function sequence(graceMs: number) {
  const calls: string[] = [];
  const steps = {
    graceMs,
    settleMs: 5_000,
    abortTurns: () => {
      calls.push("abort");
      return abortAllTurns();
    },
    stopLoops: async () => {
      calls.push("loops");
    },
    close: async () => {
      calls.push("close");
    },
    exit: (code: number) => {
      calls.push(`exit ${code}`);
    },
  };
  return { calls, steps };
}

describe("graceful shutdown", () => {
  it("gives a turn in flight the grace period, then stops it: its partial reply is saved as interrupted", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "slow", text: "one two three four five six seven eight nine ten eleven twelve", delayMs: 20_000 });
    const running = postMessage(s.id, { content: "Write very slowly." }).then(readSse);
    await replyStarted(s.id);
    expect(inFlight().turns).toBe(1);

    const { calls, steps } = sequence(1_000);
    const started = Date.now();
    const done = shutDown(steps);
    // A new request meanwhile: 503, with Retry-After, in the shared error shape.
    const refused = await sessionRoute.GET(req("GET", "/api/session"), undefined);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("shutting_down");

    await done;
    expect(Date.now() - started).toBeLessThan(10_000);
    // The process would be gone now; this one goes on, so the checks below can use the API.
    resetShutdown();
    expect(calls).toEqual(["loops", "abort", "close", "exit 0"]);
    expect(inFlight()).toEqual({ requests: 0, turns: 0 });
    const events = await running;
    expect(events.at(-1)?.event).toBe("done");

    const messages = (await history(s.id)).messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const reply = messages[1];
    expect(reply.status).toBe("interrupted");
    expect(reply.text.length).toBeGreaterThan(0);
    expect("one two three four five six seven eight nine ten eleven twelve").toContain(reply.text.trim());
    await idle(h, s.id);
  });

  it("lets a turn that finishes within the grace period finish: saved complete, nothing aborted", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "slow", text: "All done in time.", delayMs: 1_500 });
    const running = postMessage(s.id, { content: "Answer soon." }).then(readSse);
    await replyStarted(s.id);
    const { calls, steps } = sequence(15_000);
    await shutDown(steps);
    resetShutdown();
    expect(calls).toEqual(["loops", "close", "exit 0"]);
    await running;
    const messages = (await history(s.id)).messages;
    expect(messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(messages[1].text).toBe("All done in time.");
  });

  it("exits at once when nothing is in flight, and a second signal changes nothing", async () => {
    const { calls, steps } = sequence(60_000);
    const started = Date.now();
    await Promise.all([shutDown(steps), shutDown(steps)]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(calls).toEqual(["loops", "close", "exit 0"]);
  });
});
