// One user's parallel turns on a real PostgreSQL 15 (issue 32): what a turn writes for its user
// (the word statistics its messages change, its call's usage rollups, the model's calibration)
// never makes another turn of that user wait, and every figure still sums right, before and
// after the background fold. A turn's transaction is held open while another writes the same
// kinds of rows for another session of the same user, under a lock timeout: a wait fails it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withUser, type Database, type Tx } from "@/lib/db";
import { appendMessage } from "@/lib/db/messages";
import { finishReply } from "@/lib/db/reply-call";
import { foldRollups } from "@/lib/db/rollups";
import { getCalibration, putCalibration } from "@/lib/db/settings";
import { termStats } from "@/lib/db/history-search";
import { createSession } from "@/lib/operations/sessions";
import { pgContext, userDatabase } from "./context";

const available = pgContext().available;
const USER = "00000000-0000-4000-a000-0000000032a1";
const MODEL = "claude-haiku-4-5";
const PARALLEL = 4;

describe.skipIf(!available)("real PostgreSQL 15: one user's parallel turns", () => {
  const pg = userDatabase(USER, "parallel@example.test", PARALLEL + 2);
  let db: Database;

  beforeAll(async () => {
    db = await pg.ready();
  });
  afterAll(() => pg.close());

  /** A turn's writes for its user: the question, the reply finished with its call and calibration, the calibration again (as an exact count does). */
  async function turn(tx: Tx, sessionId: string, i: number): Promise<void> {
    await appendMessage(tx, USER, sessionId, {
      role: "user",
      content: [{ type: "text", text: `ocelot margay question ${i}` }],
      text: `ocelot margay question ${i}`,
      tokenCount: 5,
      status: "complete",
      startsTurn: true,
    });
    const reply = await appendMessage(tx, USER, sessionId, {
      role: "assistant",
      content: [],
      text: "",
      tokenCount: 0,
      status: "streaming",
      startsTurn: false,
      model: MODEL,
    });
    const text = `the ocelot answer ${i}`;
    await finishReply(
      tx,
      USER,
      { id: reply.id, end: { content: [{ type: "text", text }], text, tokenCount: 4, status: "complete" } },
      { sessionId, turnSeq: 1, kind: "chat", model: MODEL, usage: { input_tokens: 100, output_tokens: 10 }, estimatedInputTokens: 110 },
      { measured: 100, raw: 90, calibration: { factor: 1 + i / 100, samples: i + 1 } },
    );
    await putCalibration(tx, USER, MODEL, { factor: 1 + i / 100, samples: i + 1 });
  }

  it("never wait on each other's rows, and every figure sums right, before and after the fold", async () => {
    const sessions = await Promise.all(Array.from({ length: PARALLEL + 1 }, (_, i) => createSession(USER, { title: `parallel ${i}`, model: MODEL })));
    // The first turn, held open: its calibration row is new, so the others find it only later.
    await withUser(USER, (tx) => turn(tx, sessions[0].id, 0));
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let wrote = () => {};
    const written = new Promise<void>((r) => (wrote = r));
    const holder = withUser(USER, async (tx) => {
      await turn(tx, sessions[1].id, 1);
      wrote();
      await held;
    });
    await written;
    try {
      // Each of these would wait for the holder (and fail on the timeout) on any row it shares with it.
      await Promise.all(
        sessions.slice(2).map((s, i) =>
          withUser(USER, async (tx) => {
            await tx.query("set local lock_timeout = '2s'");
            await turn(tx, s.id, i + 2);
          }),
        ),
      );
    } finally {
      release();
      await holder;
    }

    const turns = PARALLEL + 1;
    const figures = () =>
      withUser(USER, async (tx) => {
        const stats = await termStats(tx, USER, "ocelot margay");
        const [usage] = await tx.query<{ requests: number; input: number; rows: number }>(
          `select sum(requests)::int as requests, sum(input_tokens)::int as input, count(*)::int as rows from llm_usage_day_models where user_id = $1`,
          [USER],
        );
        return { stats, usage };
      });
    const before = await figures();
    expect(Object.fromEntries(before.stats.terms.map((t) => [t.lexeme, t.df]))).toEqual({ ocelot: 2 * turns, margay: turns });
    expect(before.stats.corpus.docs).toBe(2 * turns);
    expect(before.usage).toMatchObject({ requests: turns, input: 100 * turns, rows: turns });
    // A calibration was kept (whichever turn wrote last of those not skipped).
    expect(await withUser(USER, (tx) => getCalibration(tx, USER, MODEL))).not.toBeNull();

    // Folded: the same figures from one row per key, and a second fold has nothing to do.
    while ((await db.transaction((tx) => foldRollups(tx, 10_000))) > 0);
    const after = await figures();
    expect(after.stats).toEqual(before.stats);
    expect(after.usage).toEqual({ ...before.usage, rows: 1 });
    expect(await db.transaction((tx) => foldRollups(tx, 10_000))).toBe(0);
  });
});
