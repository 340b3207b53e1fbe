// One user's turns in several sessions at once, on the embedded database (issue 32): every turn
// completes, and what they wrote for their user (the usage per day and model, the word
// statistics, the calibration) sums to exactly what the calls and messages say, before the
// background fold and after it. (tests/pg/parallel-turns.test.ts shows on PostgreSQL that such
// turns never wait on each other.)
import { describe, expect, it } from "vitest";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { termStats } from "@/lib/db/history-search";
import { getCalibration } from "@/lib/db/settings";
import { foldPendingRollups } from "@/lib/search/indexer";
import { usageReport } from "@/lib/usage";
import { idle, newSession, sendJson, useHarness } from "./harness";

const h = useHarness();
const SESSIONS = 4;
const TURNS = 3;

describe("one user's parallel turns", () => {
  it("all complete, and the usage per day and model and the word statistics sum right, folded or not", async () => {
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => newSession({ title: `parallel ${i}` })));
    await Promise.all(
      sessions.map(async (s, i) => {
        for (let t = 0; t < TURNS; t++) {
          const { res } = await sendJson(s.id, `Question ${t} about the pangolin ledger, from session ${i}.`);
          expect(res.status).toBe(201);
          await idle(h, s.id);
        }
      }),
    );
    const figures = async () => {
      const today = new Date(new Date().toISOString().slice(0, 10));
      const range = { from: today, to: new Date(today.getTime() + 86_400_000), limit: 100 };
      const byModel = await usageReport(LOCAL_USER_ID, { group_by: "model", ...range });
      const [calls] = await h.db.transaction((tx) =>
        tx.query<{ n: number; input: number }>(
          `select count(*)::int as n, sum(input_tokens)::int as input from llm_calls where user_id = $1 and created_at >= $2`,
          [LOCAL_USER_ID, today],
        ),
      );
      const stats = await withUser(LOCAL_USER_ID, (tx) => termStats(tx, LOCAL_USER_ID, "pangolin"));
      return { requests: byModel.totals.requests, input: byModel.totals.input_tokens, calls, stats };
    };
    const before = await figures();
    // Every chat call, and the first turns' title calls, counted once.
    expect(before.calls.n).toBeGreaterThanOrEqual(SESSIONS * TURNS);
    expect(before.requests).toBe(before.calls.n);
    expect(before.input).toBe(before.calls.input);
    // The word is in every question (the fake's replies echo part of it, so at least that many).
    expect(before.stats.terms[0].df).toBeGreaterThanOrEqual(SESSIONS * TURNS);
    expect(await withUser(LOCAL_USER_ID, (tx) => getCalibration(tx, LOCAL_USER_ID, "claude-haiku-4-5"))).not.toBeNull();

    expect(await foldPendingRollups(h.db)).toBeGreaterThan(0);
    expect(await figures()).toEqual(before);
    expect(await foldPendingRollups(h.db)).toBe(0);
  });
});
