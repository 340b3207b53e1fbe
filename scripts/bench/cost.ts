// Prompt caching and cost: a 200-turn session replayed through the real send path (real SDK,
// the fake Anthropic server with its prompt cache) with breakpoints and without, reporting the
// share of input read from cache and what the session cost each way. The same user texts and
// replies both times, so the only difference is the breakpoints.
import { prepareSend, sendAndCollect } from "@/lib/turn/send";
import { createSession } from "@/lib/operations/sessions";
import { LOCAL_USER_ID, withUser, type Database } from "@/lib/db";
import { startFakeAnthropic } from "../../tests/fake-anthropic/server";
import { fmtInt, table } from "./report";
import type { TextPool } from "./seed";

const TURNS = Number(process.env.BENCH_COST_TURNS ?? 200);
/** "After the first turns": the share is reported from this turn on, and over the whole run. */
const WARM_FROM_TURN = 4;
const MODEL = "claude-sonnet-5-5";

export interface CostRun {
  caching: boolean;
  turns: number;
  inputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Cache reads / billed input, over all turns and from WARM_FROM_TURN on. */
  readShare: number;
  readShareWarm: number;
  compactions: number;
  wallMs: number;
}

export interface CostBenchResult {
  cached: CostRun;
  uncached: CostRun;
  costRatio: number;
}

export async function benchCost(db: Database, pool: TextPool): Promise<CostBenchResult> {
  const fake = await startFakeAnthropic();
  const saved = { ...process.env };
  Object.assign(process.env, { ANTHROPIC_API_KEY: "bench", ANTHROPIC_BASE_URL: fake.url, THREADKEEPER_MODEL: MODEL, THREADKEEPER_MAX_RETRIES: "0" });
  try {
    const run = async (caching: boolean): Promise<CostRun> => {
      process.env.THREADKEEPER_PROMPT_CACHING = caching ? "on" : "off";
      fake.reset();
      const session = await createSession(LOCAL_USER_ID, { title: `cost bench ${caching ? "cached" : "uncached"}` });
      const started = performance.now();
      for (let t = 0; t < TURNS; t++) {
        fake.enqueue({ kind: "reply", text: pool.assistantTexts[t % pool.assistantTexts.length] });
        const prepared = await prepareSend(LOCAL_USER_ID, session.id, { content: pool.userTexts[t % pool.userTexts.length] });
        const result = await sendAndCollect(prepared);
        if (result.error) throw new Error(`turn ${t + 1}: ${result.error.code} ${result.error.message}`);
      }
      const wallMs = performance.now() - started;
      return withUser(LOCAL_USER_ID, async (tx) => {
        const [all] = await tx.query<Record<string, number>>(
          `select coalesce(sum(input_tokens), 0)::float8 as input, coalesce(sum(cache_creation_input_tokens), 0)::float8 as write,
             coalesce(sum(cache_read_input_tokens), 0)::float8 as read, coalesce(sum(output_tokens), 0)::float8 as output,
             coalesce(sum(cost_usd), 0)::float8 as cost,
             coalesce(sum(cache_read_input_tokens) filter (where turn_seq >= $2 and kind = 'chat'), 0)::float8 as read_warm,
             coalesce(sum(input_tokens + cache_creation_input_tokens + cache_read_input_tokens) filter (where turn_seq >= $2 and kind = 'chat'), 0)::float8 as billed_warm
           from llm_calls where session_id = $1`,
          [session.id, WARM_FROM_TURN],
        );
        const [c] = await tx.query<{ n: number }>("select count(*)::int as n from compaction_logs where session_id = $1 and status <> 'reverted'", [
          session.id,
        ]);
        const billed = all.input + all.write + all.read;
        return {
          caching,
          turns: TURNS,
          inputTokens: all.input,
          cacheWriteTokens: all.write,
          cacheReadTokens: all.read,
          outputTokens: all.output,
          costUsd: all.cost,
          readShare: billed > 0 ? all.read / billed : 0,
          readShareWarm: all.billed_warm > 0 ? all.read_warm / all.billed_warm : 0,
          compactions: c.n,
          wallMs,
        };
      });
    };
    const cached = await run(true);
    const uncached = await run(false);
    return { cached, uncached, costRatio: uncached.costUsd > 0 ? cached.costUsd / uncached.costUsd : Number.NaN };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    await fake.close();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function printCost(r: CostBenchResult): void {
  console.log(`\nPrompt caching: a ${r.cached.turns}-turn session on ${MODEL} through the send path and the fake API's prompt cache (replies, titles; ${r.cached.compactions} compactions).`);
  console.log(
    table(
      ["run", "input", "cache write", "cache read", "output", "read share", `read share (turn ≥ ${WARM_FROM_TURN})`, "cost", "wall"],
      [r.cached, r.uncached].map((x) => [
        x.caching ? "with breakpoints" : "without",
        fmtInt(x.inputTokens),
        fmtInt(x.cacheWriteTokens),
        fmtInt(x.cacheReadTokens),
        fmtInt(x.outputTokens),
        pct(x.readShare),
        pct(x.readShareWarm),
        `$${x.costUsd.toFixed(2)}`,
        `${(x.wallMs / 1000).toFixed(1)} s`,
      ]),
    ),
  );
  const shareMet = r.cached.readShareWarm >= 0.7;
  const costMet = r.costRatio <= 0.4;
  console.log(
    `cost with breakpoints / without: ${pct(r.costRatio)} (target ≤ 40 %: ${costMet ? "met" : "MISSED"}); ` +
      `input read from cache after the first turns: ${pct(r.cached.readShareWarm)} (target ≥ 70 %: ${shareMet ? "met" : "MISSED"})`,
  );
}

export function costJson(r: CostBenchResult) {
  return { cached: r.cached, uncached: r.uncached, cost_ratio: Math.round(r.costRatio * 1000) / 1000 };
}
