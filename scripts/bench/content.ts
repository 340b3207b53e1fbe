// Everything Claude says, kept whole (issue 30): how far the offline token count is from the
// fake API's count for thinking, a 20-page PDF and images (the calibration factor learnt on plain
// text applied to all of it, as the product applies it), and what a PDF resent with every turn
// adds to a drop-in request as the conversation grows (it is recognised, not read or stored again).
import Anthropic from "@anthropic-ai/sdk";
import { performance } from "node:perf_hooks";
import * as messagesRoute from "@/app/api/anthropic/v1/messages/route";
import type { AnthropicMessageIn } from "@/lib/contract/anthropic";
import { incomingMessages } from "@/lib/context/incoming";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";
import { readMedia } from "@/lib/turn/media";
import { makePdf, startFakeAnthropic, type FakeAnthropic } from "../../tests/fake-anthropic/server";
import { pngHeader } from "../../tests/fake-anthropic/images";
import { fmtMs, table } from "./report";
import { summarize, withEnv, type Stat } from "./stats";

const BASE = "http://127.0.0.1:3000/api/anthropic";
const TURNS = Number(process.env.BENCH_CONTENT_TURNS ?? 12);
const ROUNDS = Number(process.env.BENCH_CONTENT_ROUNDS ?? 3);

export interface CountError {
  kind: string;
  fake: number;
  ours: number;
  /** The first request: (ours × the factor learnt on plain text − fake) / fake. */
  first: number;
  /** The next request (one more exchange), with the factor the session learnt from the first's measurement, as the bar counts it. */
  next: number;
}

export interface ContentBenchResult {
  factor: number;
  errors: CountError[];
  /** Added time (drop-in − the same request sent straight to the fake) at each turn, medians over rounds. */
  resent: { turn: number; added: Stat }[];
  pdfPages: number;
}

const prose = (i: number, words: number) =>
  Array.from({ length: words }, (_, k) => ["the", "parser", "keeps", "a", "cursor", "over", "tokens", "while", "the", "cache", "of", "results", "grows"][(i * 7 + k) % 13]).join(" ") + ".";

type Msg = Anthropic.MessageParam;

function textConversation(turns: number, seed: number): Msg[] {
  return Array.from({ length: turns }, (_, i): Msg[] => [
    { role: "user", content: prose(seed + i, 40) },
    { role: "assistant", content: prose(seed + i + 1, 80) },
  ]).flat().concat([{ role: "user", content: "And then?" }]);
}

function thinkingConversation(turns: number): Msg[] {
  return Array.from({ length: turns }, (_, i): Msg[] => [
    { role: "user", content: prose(i, 40) },
    { role: "assistant", content: [{ type: "thinking", thinking: prose(i + 3, 160), signature: "" }, { type: "text", text: prose(i + 1, 60) }] },
  ]).flat().concat([{ role: "user", content: "And then?" }]);
}

/** Our raw estimate of a request's messages, counted as the drop-in stores them (media read, facts noted). */
async function ours(messages: Msg[]): Promise<number> {
  const read = incomingMessages(await readMedia(messages as unknown as AnthropicMessageIn[]));
  return read.reduce((n, m) => n + estimateMessageTokens(m.role, m.content), 0);
}

async function fakeCount(client: Anthropic, model: string, messages: Msg[]): Promise<number> {
  return (await client.messages.countTokens({ model, messages })).input_tokens;
}

/** Signs the thinking of a conversation as the fake would have: its blocks must verify to be counted. */
async function signed(fake: FakeAnthropic, client: Anthropic, model: string, messages: Msg[]): Promise<Msg[]> {
  const out: Msg[] = [];
  for (const m of messages) {
    if (m.role === "assistant" && Array.isArray(m.content) && m.content[0]?.type === "thinking") {
      const thought = m.content[0].thinking;
      const text = m.content[1]?.type === "text" ? m.content[1].text : "";
      fake.enqueue({ kind: "reply", text, thinking: thought });
      const reply = await client.messages.create({ model, max_tokens: 8192, thinking: { type: "adaptive", display: "summarized" }, messages: [...out] });
      out.push({ role: "assistant", content: reply.content as Anthropic.ContentBlockParam[] });
    } else out.push(m);
  }
  return out;
}

async function countErrors(fake: FakeAnthropic): Promise<{ factor: number; errors: CountError[]; pdfPages: number }> {
  const client = new Anthropic({ apiKey: "bench", baseURL: fake.url, maxRetries: 0 });
  const model = "claude-opus-4-8";
  // The factor the product would learn from plain text, then held to a different text.
  const fit = textConversation(20, 1);
  const factor = (await fakeCount(client, model, fit)) / (await ours(fit));
  const pdfPages = 20;
  const pdf = makePdf(Array.from({ length: pdfPages }, (_, p) => Array.from({ length: 12 }, (_, l) => prose(p * 12 + l, 14)).join(" "))).toString("base64");
  const image = (w: number, h: number) => ({ type: "image" as const, source: { type: "base64" as const, media_type: "image/png" as const, data: pngHeader(w, h).toString("base64") } });
  const cases: [string, Msg[]][] = [
    ["text (held out)", textConversation(20, 100)],
    ["thinking, 10 turns", await signed(fake, client, model, thinkingConversation(10))],
    [`PDF, ${pdfPages} pages`, [{ role: "user", content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: pdf } }, { type: "text", text: "Summarise it." }] }]],
    ["images: 1920×1080, 800×600, 4000×3000, 300×200", [{ role: "user", content: [image(1920, 1080), image(800, 600), image(4000, 3000), image(300, 200), { type: "text", text: "Compare them." }] }]],
  ];
  const errors: CountError[] = [];
  const more: Msg[] = [
    { role: "assistant", content: prose(5, 60) },
    { role: "user", content: prose(6, 30) },
  ];
  for (const [kind, messages] of cases) {
    const f = await fakeCount(client, model, messages);
    const o = await ours(messages);
    const next = [...messages, ...more];
    const session = f / o;
    errors.push({ kind, fake: f, ours: o, first: (o * factor - f) / f, next: ((await ours(next)) * session - (await fakeCount(client, model, next))) / (await fakeCount(client, model, next)) });
  }
  return { factor, errors, pdfPages };
}

/** Per turn, the drop-in's time minus the same request's time straight to the fake. */
async function resentPdf(fake: FakeAnthropic): Promise<{ turn: number; added: Stat }[]> {
  const model = "claude-haiku-4-5";
  const direct = new Anthropic({ apiKey: "bench", baseURL: fake.url, maxRetries: 0 });
  const pdf = makePdf(Array.from({ length: 20 }, (_, p) => prose(p, 200))).toString("base64");
  const samples: number[][] = Array.from({ length: TURNS }, () => []);
  for (let round = 0; round < ROUNDS; round++) {
    let session = "";
    const history: Msg[] = [];
    for (let t = 0; t < TURNS; t++) {
      const user: Msg = t === 0 ? { role: "user", content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: pdf } }, { type: "text", text: "Read this." }] } : { role: "user", content: prose(t, 20) };
      const messages = [...history, user];
      const body = { model, max_tokens: 256, messages };
      const t0 = performance.now();
      await direct.messages.create(body);
      const straight = performance.now() - t0;
      const dropIn = new Anthropic({
        apiKey: "local",
        baseURL: BASE,
        maxRetries: 0,
        fetch: (url, init) => messagesRoute.POST(new Request(url, init), undefined),
        ...(session ? { defaultHeaders: { "threadkeeper-session-id": session } } : {}),
      });
      const t1 = performance.now();
      const { data, response } = await dropIn.messages.create(body).withResponse();
      samples[t].push(performance.now() - t1 - straight);
      session = response.headers.get("threadkeeper-session-id") ?? session;
      history.push(user, { role: "assistant", content: data.content as Anthropic.ContentBlockParam[] });
    }
  }
  return samples.map((s, i) => ({ turn: i + 1, added: summarize(s) }));
}

export async function benchContent(): Promise<ContentBenchResult> {
  const fake = await startFakeAnthropic();
  try {
    return await withEnv(
      { ANTHROPIC_API_KEY: "bench", ANTHROPIC_BASE_URL: fake.url, THREADKEEPER_MAX_RETRIES: "0", THREADKEEPER_RATE_LIMIT_PER_MINUTE: "0", THREADKEEPER_SEND_LIMIT_PER_MINUTE: "0" },
      async () => ({ ...(await countErrors(fake)), resent: await resentPdf(fake) }),
    );
  } finally {
    await fake.close();
  }
}

const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`;

export function printContent(r: ContentBenchResult): void {
  console.log(`\n## Content: offline counts against the fake's (factor ${r.factor.toFixed(3)} learnt on plain text)`);
  console.log(table(["request", "fake count", "our raw estimate", "first request", "next request"], r.errors.map((e) => [e.kind, String(e.fake), String(e.ours), pct(e.first), pct(e.next)])));
  console.log("first request: calibrated with the factor learnt on plain text; next request: one more exchange, with the factor the session learnt from the first (media are Claude-native counts, so the text factor overstates them until then)");
  console.log(`\n## Content: what a ${r.pdfPages}-page PDF resent with every drop-in request adds (median of ${ROUNDS} rounds)`);
  const shown = r.resent.filter((x, i) => i < 3 || i >= r.resent.length - 3);
  console.log(table(["turn", "added (median)", "p95"], shown.map((x) => [String(x.turn), fmtMs(x.added.medianMs), fmtMs(x.added.p95Ms)])));
}

export function contentJson(r: ContentBenchResult) {
  return { factor: r.factor, errors: r.errors, resent: r.resent.map((x) => ({ turn: x.turn, added_median_ms: x.added.medianMs, added_p95_ms: x.added.p95Ms })) };
}
