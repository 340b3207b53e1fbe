// The OpenAI-compatible endpoint (issue 32): what /api/openai/v1 adds to a request over calling
// the upstream directly, measured as scripts/bench/drop-in.ts measures the drop-in (whose
// helpers it uses): the official `openai` SDK against Threadkeeper, the Anthropic SDK against
// the fake API directly and through /api/anthropic, interleaved so all three see the same state
// of the process and the database. OpenAI clients resend the whole conversation with every
// request, so a resent history of BENCH_OPENAI_TURNS turns (default 200) is measured too.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { performance } from "node:perf_hooks";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import * as chatRoute from "@/app/api/openai/v1/chat/completions/route";
import { toAnthropic } from "@/lib/api/openai/request";
import { openaiChatRequest } from "@/lib/contract/openai";
import { startFakeAnthropic } from "../../tests/fake-anthropic/server";
import { MODEL, sentence, signed, upstreamEnv } from "./drop-in";
import { fmtMs, statJson, table } from "./report";
import { measure, summarize, type MeasureOptions, type Stat, withEnv } from "./stats";

const HISTORY_TURNS = Number(process.env.BENCH_OPENAI_TURNS ?? 200);
const SESSION = "threadkeeper-session-id";

export interface OpenAIBenchResult {
  direct: Stat;
  dropIn: Stat;
  openai: Stat;
  openaiStream: Stat;
  newOnly: Stat;
  resent: Stat;
  /** The resent history's validation and translation alone, no turn. */
  translation: Stat;
  turns: number;
}

const openaiClient = (session?: string) =>
  new OpenAI({
    apiKey: "local",
    baseURL: "http://127.0.0.1:3000/api/openai/v1",
    maxRetries: 0,
    fetch: (url, init) => chatRoute.POST(new Request(url, init), undefined),
    ...(session ? { defaultHeaders: { [SESSION]: session } } : {}),
  });

const dropInClient = (session?: string) =>
  new Anthropic({
    apiKey: "local",
    baseURL: "http://127.0.0.1:3000/api/anthropic",
    maxRetries: 0,
    fetch: (url, init) => messagesRoute.POST(new Request(url, init), undefined),
    ...(session ? { defaultHeaders: { [SESSION]: session } } : {}),
  });

/** Times each of `steps` once per round, round after round; warm-up rounds are not kept. */
async function interleaved(steps: ((i: number) => Promise<unknown>)[], opts: MeasureOptions): Promise<Stat[]> {
  const samples = steps.map(() => [] as number[]);
  for (let i = 0; i < opts.warmups + opts.runs; i++) {
    for (const [k, step] of steps.entries()) {
      const t0 = performance.now();
      await step(i);
      if (i >= opts.warmups) samples[k].push(performance.now() - t0);
    }
  }
  return samples.map(summarize);
}

/** A session of `turns` turns held by an OpenAI client: the history it resends, and the session's id. */
async function seeded(turns: number): Promise<{ id: string; history: OpenAI.ChatCompletionMessageParam[] }> {
  const history: OpenAI.ChatCompletionMessageParam[] = [];
  let id = "";
  for (let t = 0; t < turns; t++) {
    history.push({ role: "user", content: sentence(t) });
    const res = await openaiClient(id || undefined).chat.completions.create({ model: MODEL, max_tokens: 256, messages: history }).withResponse();
    id ||= res.response.headers.get(SESSION) ?? "";
    history.push({ role: "assistant", content: res.data.choices[0].message.content });
  }
  return { id, history };
}

export async function benchOpenAI(opts: MeasureOptions): Promise<OpenAIBenchResult> {
  const fake = await startFakeAnthropic();
  try {
    return await withEnv(upstreamEnv(fake.url), async () => {
      const direct = new Anthropic({ apiKey: "bench", baseURL: fake.url, maxRetries: 0 });
      // A session each, started by a request without the header; then only new messages, as the drop-in bench sends them.
      const opening = [{ role: "user" as const, content: sentence(0) }];
      const sessionOf = (res: { response: Response }) => res.response.headers.get(SESSION) ?? "";
      const openai = openaiClient(sessionOf(await openaiClient().chat.completions.create({ model: MODEL, max_tokens: 256, messages: opening }).withResponse()));
      const streamed = openaiClient(sessionOf(await openaiClient().chat.completions.create({ model: MODEL, max_tokens: 256, messages: opening }).withResponse()));
      const dropIn = dropInClient(sessionOf(await dropInClient().messages.create({ model: MODEL, max_tokens: 256, messages: opening }).withResponse()));
      const ask = (i: number) => [{ role: "user" as const, content: sentence(i + 1) }];
      const [directStat, dropInStat, openaiStat, streamStat] = await interleaved(
        [
          (i) => direct.messages.create({ model: MODEL, max_tokens: 256, messages: ask(i) }),
          (i) => dropIn.messages.create({ model: MODEL, max_tokens: 256, messages: ask(i) }),
          (i) => openai.chat.completions.create({ model: MODEL, max_tokens: 256, messages: ask(i) }),
          async (i) => {
            const stream = await streamed.chat.completions.create({ model: MODEL, max_tokens: 256, stream: true, stream_options: { include_usage: true }, messages: ask(i) });
            for await (const chunk of stream) void chunk;
          },
        ],
        opts,
      );

      // Two sessions of HISTORY_TURNS turns, one sent only its new messages, one its whole history.
      const lone = await seeded(HISTORY_TURNS);
      const whole = await seeded(HISTORY_TURNS);
      const [newOnly, resent] = await interleaved(
        [
          (i) => openaiClient(lone.id).chat.completions.create({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: sentence(HISTORY_TURNS + i) }] }),
          async (i) => {
            whole.history.push({ role: "user", content: sentence(HISTORY_TURNS + i) });
            const res = await openaiClient(whole.id).chat.completions.create({ model: MODEL, max_tokens: 256, messages: whole.history }).withResponse();
            const how = res.response.headers.get("threadkeeper-history");
            if (how !== "matched") throw new Error(`history not matched: ${how}`);
            whole.history.push({ role: "assistant", content: res.data.choices[0].message.content });
          },
        ],
        opts,
      );
      const body = { model: MODEL, max_tokens: 256, messages: whole.history };
      const translation = (await measure(() => toAnthropic(openaiChatRequest.parse(body)), opts)).stat;
      return { direct: directStat, dropIn: dropInStat, openai: openaiStat, openaiStream: streamStat, newOnly, resent, translation, turns: HISTORY_TURNS };
    });
  } finally {
    await fake.close();
  }
}

export function printOpenAI(r: OpenAIBenchResult): void {
  console.log(
    `\nOpenAI-compatible endpoint: the openai SDK through /api/openai/v1, the Anthropic SDK directly and through /api/anthropic, against the fake API, interleaved (medians (p95) over ${r.direct.runs} runs, PGlite).` +
      "\nBoth endpoints run a whole Threadkeeper turn; the OpenAI one adds translating the request in and the answer out.",
  );
  const added = (s: Stat) => signed(s.medianMs - r.direct.medianMs);
  const met = (s: Stat) => `< 15 ms ${s.medianMs - r.direct.medianMs < 15 ? "met" : "NOT MET"}`;
  const resend = r.resent.medianMs - r.newOnly.medianMs;
  const rows = [
    ["Anthropic SDK -> fake API directly", fmtMs(r.direct.medianMs), fmtMs(r.direct.p95Ms), "", "", ""],
    ["Anthropic SDK -> /api/anthropic -> fake API", fmtMs(r.dropIn.medianMs), fmtMs(r.dropIn.p95Ms), added(r.dropIn), "", met(r.dropIn)],
    ["openai SDK -> /api/openai/v1 -> fake API", fmtMs(r.openai.medianMs), fmtMs(r.openai.p95Ms), added(r.openai), signed(r.openai.medianMs - r.dropIn.medianMs), met(r.openai)],
    ["the same, streamed with usage", fmtMs(r.openaiStream.medianMs), fmtMs(r.openaiStream.p95Ms), added(r.openaiStream), signed(r.openaiStream.medianMs - r.dropIn.medianMs), met(r.openaiStream)],
    [`${r.turns}-turn session, only the new message`, fmtMs(r.newOnly.medianMs), fmtMs(r.newOnly.p95Ms), "", "", ""],
    [`${r.turns}-turn session, whole history resent`, fmtMs(r.resent.medianMs), fmtMs(r.resent.p95Ms), signed(resend), "", `< 5 ms ${resend < 5 ? "met" : "NOT MET"}`],
    [`  of which the ${r.turns}-turn history's validation and translation`, fmtMs(r.translation.medianMs), fmtMs(r.translation.p95Ms), "", "", ""],
  ];
  console.log(table(["request", "p50", "p95", "added (p50)", "over the drop-in", "target"], rows));
}

export function openaiJson(r: OpenAIBenchResult) {
  const ms = (n: number) => Math.round(n * 100) / 100;
  return {
    direct: statJson(r.direct),
    drop_in: statJson(r.dropIn),
    openai: statJson(r.openai),
    openai_stream: statJson(r.openaiStream),
    added_ms: ms(r.openai.medianMs - r.direct.medianMs),
    over_drop_in_ms: ms(r.openai.medianMs - r.dropIn.medianMs),
    history_turns: r.turns,
    new_only: statJson(r.newOnly),
    resent: statJson(r.resent),
    resend_added_ms: ms(r.resent.medianMs - r.newOnly.medianMs),
    translation: statJson(r.translation),
  };
}
