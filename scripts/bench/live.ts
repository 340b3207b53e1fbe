// Live sessions in a real browser (issue 33): the time from a reply's last token in one tab to its
// display in another. The built app (`npx next build` first) on a fresh embedded data folder,
// one headless Chromium context with two pages (tabs) on one session. Tab A sends each message
// through its composer; the fake Anthropic server streams the reply word by word over
// BENCH_LIVE_REPLY_MS; tab B follows over the session's event stream (GET /api/session/{id}/events).
// In both tabs a MutationObserver notes the wall-clock moment the reply's last word is first in
// the DOM (inside any assistant element: the streaming reply or the saved one), and the next
// animation frame after it (when it is painted). Between the app and the fake sits a pass-through
// tap that notes when the last word left the fake. Both pages and the tap read the same wall
// clock (performance.timeOrigin + performance.now()), so the figures subtract across processes.
// The observers also count any moment a tab shows a reply as "(empty)" or twice. Last, the
// session is renamed through the API as many times: from each request to tab B's header showing it.
// Runs BENCH_WARMUPS untimed replies, then BENCH_RUNS timed ones. Skips when the app is not built
// or Chromium is missing.
//
// Environment: BENCH_LIVE_WORDS (60, the words of each reply), BENCH_LIVE_REPLY_MS (1500, how long
// each reply streams).
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { chromium, type Browser, type Page } from "@playwright/test";
import { startFakeAnthropic, type FakeAnthropic } from "../../tests/fake-anthropic/server";
import { api, startEmbedded, tempDataDir, type AppInstance } from "../../tests/reliability/app";
import { fmtInt, fmtMs, round3, table } from "./report";
import { intEnv, summarize, type MeasureOptions, type Stat } from "./stats";

const WORDS = intEnv("BENCH_LIVE_WORDS", 60);
const REPLY_MS = intEnv("BENCH_LIVE_REPLY_MS", 1_500);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** The bound: every open tab sees a reply within a second. */
export const LIVE_TARGET_MS = 1_000;
/** How long one reply may take to reach both tabs before the bench gives up. */
const REPLY_TIMEOUT_MS = 60_000;

export interface LiveBenchResult {
  replies: number;
  words: number;
  replyMs: number;
  /** Tab A shows the last word → tab B shows it (DOM). The figure. */
  aToB: Stat;
  /** The same, painted: the next animation frame in each tab. */
  aToBPainted: Stat;
  /** The fake sent the last word → tab A shows it (the sender's own stream). */
  upstreamToA: Stat;
  /** The fake sent the last word → tab B shows it (through the event stream). */
  upstreamToB: Stat;
  /** A rename through the API (its request sent) → tab B's header shows the new title. */
  renameToB: Stat;
  /** Of it, the rename's own request (sent → answered). */
  renameRequest: Stat;
  /** Moments a tab showed a reply as "(empty)" or the same reply twice. */
  glitches: string[];
}

function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

function missing(): string | null {
  if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) return "the app is not built (run `npx next build`)";
  if (!existsSync(CHROMIUM)) return `Chromium is missing (${CHROMIUM}; set CHROMIUM_PATH)`;
  return null;
}

interface Tap {
  url: string;
  /** When each awaited marker first passed through, wall clock. */
  seen: Map<string, number>;
  await(marker: string): void;
  close(): Promise<void>;
}

/**
 * A pass-through proxy in front of the fake Anthropic server that notes the moment an awaited
 * marker (a reply's last word) goes by in a response. The fake writes each word as its own SSE
 * frame, so that moment is when it sent the last token.
 */
async function startTap(target: string): Promise<Tap> {
  const seen = new Map<string, number>();
  const awaited = new Set<string>();
  const server = http.createServer((req, res) => {
    const up = http.request(`${target}${req.url ?? "/"}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      // The tail of what went by, so a marker cut across two chunks is still found.
      let tail = "";
      upRes.on("data", (chunk: Buffer) => {
        res.write(chunk);
        if (awaited.size === 0) return;
        const text = tail + chunk.toString("utf8");
        for (const m of awaited) {
          if (text.includes(m)) {
            seen.set(m, wallNow());
            awaited.delete(m);
          }
        }
        tail = text.slice(-64);
      });
      upRes.on("end", () => res.end());
      upRes.on("error", () => res.destroy());
    });
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    await: (marker) => void awaited.add(marker),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The watcher, run in each page for one reply: the first moment the marker is in an assistant
 * element (and the animation frame after it), and every moment a reply shows as "(empty)" or the
 * marker shows twice. A string, because the TypeScript runner would wrap a function's inner names
 * in helpers the page does not have.
 */
function watcher(marker: string): string {
  return `(() => {
    const marker = ${JSON.stringify(marker)};
    const r = { dom: 0, painted: 0, glitches: [] };
    const check = () => {
      const replies = [...document.querySelectorAll('[data-role="assistant"]')];
      const shown = replies.filter((e) => (e.textContent || "").includes(marker)).length;
      if (shown > 1) r.glitches.push("the reply shown " + shown + " times");
      if (replies.some((e) => (e.textContent || "").includes("(empty)"))) r.glitches.push("a reply shown as (empty)");
      if (shown > 0 && r.dom === 0) {
        r.dom = performance.timeOrigin + performance.now();
        requestAnimationFrame(() => { r.painted = performance.timeOrigin + performance.now(); });
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    r.stop = () => observer.disconnect();
    window.__tkLive = r;
    check();
  })()`;
}

interface Seen {
  dom: number;
  painted: number;
  glitches: string[];
}

/**
 * What the watcher saw, once the frame after the reply's display has run (a busy tab runs it
 * late). Predicates are functions: the app's CSP refuses a string predicate's eval.
 */
async function readSeen(page: Page): Promise<Seen> {
  await page.waitForFunction(() => (window as unknown as { __tkLive: Seen }).__tkLive.painted > 0, null, { polling: 10, timeout: REPLY_TIMEOUT_MS });
  return page.evaluate<Seen>("(() => { const r = window.__tkLive; return { dom: r.dom, painted: r.painted, glitches: r.glitches }; })()");
}
const stopWatching = (page: Page) => page.evaluate("window.__tkLive.stop()");

/** The moment the header first shows `title`, wall clock, in window.__tkTitle. */
function titleWatcher(title: string): string {
  return `(() => {
    const title = ${JSON.stringify(title)};
    window.__tkTitle = 0;
    const check = () => {
      if (window.__tkTitle > 0) return;
      if (document.querySelector('[data-testid="session-title"]')?.textContent === title) {
        window.__tkTitle = performance.timeOrigin + performance.now();
        observer.disconnect();
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    check();
  })()`;
}

/** Renames the session through the API `runs` times: from each request to tab B showing the title. */
async function renames(app: AppInstance, sessionId: string, b: Page, opts: MeasureOptions): Promise<{ shown: number[]; request: number[] }> {
  const out = { shown: [] as number[], request: [] as number[] };
  for (let i = 0; i < opts.warmups + opts.runs; i++) {
    const title = `Renamed ${i}`;
    await b.evaluate(titleWatcher(title));
    const sent = wallNow();
    const res = await api(app, "PATCH", `/api/session/${sessionId}`, { title });
    const answered = wallNow();
    if (res.status !== 200) throw new Error(`live bench: renaming answered ${res.status}`);
    await b.waitForFunction(() => (window as unknown as { __tkTitle: number }).__tkTitle > 0, null, { polling: 10, timeout: REPLY_TIMEOUT_MS });
    const shown = await b.evaluate<number>("window.__tkTitle");
    if (i < opts.warmups) continue;
    out.shown.push(shown - sent);
    out.request.push(answered - sent);
  }
  return out;
}

/** Waits until the reply is saved in the tab (a complete assistant message with the marker) and its composer is free. */
async function settled(page: Page, marker: string): Promise<void> {
  await page
    .locator('[data-testid="message"][data-role="assistant"][data-status="complete"]', { hasText: marker })
    .waitFor({ timeout: REPLY_TIMEOUT_MS });
  await page.waitForFunction(() => !(document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement | null)?.disabled, null, {
    timeout: REPLY_TIMEOUT_MS,
  });
}

/** Opens the session in a new tab and waits until its event stream answers. */
async function openTab(newPage: () => Promise<Page>, base: string, sessionId: string): Promise<Page> {
  const page = await newPage();
  const listening = page.waitForResponse((res) => res.url().includes(`/api/session/${sessionId}/events`), { timeout: REPLY_TIMEOUT_MS });
  await page.goto(`${base}/?session=${sessionId}`);
  await page.locator('[data-testid="message"]').first().waitFor({ timeout: REPLY_TIMEOUT_MS });
  await listening;
  return page;
}

/** Creates the session and its first turn (which names it with one more call to the fake, done before any reply is queued). */
async function firstTurn(app: AppInstance): Promise<string> {
  const created = await api<{ session: { id: string } }>(app, "POST", "/api/session", { title: "bench live" });
  if (created.status !== 201) throw new Error(`live bench: creating the session answered ${created.status}`);
  const sessionId = created.body.session.id;
  const first = await fetch(`${app.base}/api/session/${sessionId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ content: "Hello" }),
  });
  await first.text();
  if (!first.ok) throw new Error(`live bench: the first message answered ${first.status}`);
  return sessionId;
}

async function drive(fake: FakeAnthropic, tap: Tap, app: AppInstance, browser: Browser, opts: MeasureOptions): Promise<LiveBenchResult> {
  const sessionId = await firstTurn(app);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const a = await openTab(() => context.newPage(), app.base, sessionId);
  const b = await openTab(() => context.newPage(), app.base, sessionId);
  const aToB: number[] = [];
  const aToBPainted: number[] = [];
  const upstreamToA: number[] = [];
  const upstreamToB: number[] = [];
  const glitches: string[] = [];
  for (let i = 0; i < opts.warmups + opts.runs; i++) {
    const marker = `zq${i}end`;
    const text = [...Array.from({ length: WORDS - 1 }, (_, w) => `w${w}`), marker].join(" ");
    fake.enqueue({ kind: "slow", delayMs: REPLY_MS, text });
    tap.await(marker);
    await Promise.all([a.evaluate(watcher(marker)), b.evaluate(watcher(marker))]);
    const input = a.getByTestId("composer-input");
    await input.fill(`Message ${i}`);
    await input.press("Enter");
    await Promise.all([settled(a, marker), settled(b, marker)]);
    const [sa, sb] = await Promise.all([readSeen(a), readSeen(b)]);
    await Promise.all([stopWatching(a), stopWatching(b)]);
    glitches.push(...sa.glitches.map((g) => `tab A, reply ${i}: ${g}`), ...sb.glitches.map((g) => `tab B, reply ${i}: ${g}`));
    const sent = tap.seen.get(marker);
    if (sent === undefined) throw new Error(`live bench: reply ${i}'s last word never went through the tap`);
    if (i < opts.warmups) continue;
    aToB.push(sb.dom - sa.dom);
    aToBPainted.push(sb.painted - sa.painted);
    upstreamToA.push(sa.dom - sent);
    upstreamToB.push(sb.dom - sent);
  }
  const renamed = await renames(app, sessionId, b, opts);
  await context.close();
  return {
    replies: opts.runs,
    words: WORDS,
    replyMs: REPLY_MS,
    aToB: summarize(aToB),
    aToBPainted: summarize(aToBPainted),
    upstreamToA: summarize(upstreamToA),
    upstreamToB: summarize(upstreamToB),
    renameToB: summarize(renamed.shown),
    renameRequest: summarize(renamed.request),
    glitches,
  };
}

export async function benchLive(opts: MeasureOptions): Promise<LiveBenchResult | null> {
  const why = missing();
  if (why) {
    console.log(`\nLive tabs: skipped, ${why}.`);
    return null;
  }
  const dir = await tempDataDir("tk-bench-live-");
  // Whatever started is closed, newest first, even when a later start fails: an open server
  // would keep the bench from exiting.
  const closers: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];
  try {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    const tap = await startTap(fake.url);
    closers.push(() => tap.close());
    const app = await startEmbedded("live", dir, tap.url);
    closers.push(() => app.stop());
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
    closers.push(() => browser.close());
    return await drive(fake, tap, app, browser, opts);
  } finally {
    for (const close of closers.reverse()) await close().catch((err: unknown) => console.error("live bench: closing:", err));
  }
}

export function printLive(r: LiveBenchResult): void {
  console.log(
    `\nLive tabs in Chromium: ${fmtInt(r.replies)} replies (${r.words} words streamed over ~${fmtMs(r.replyMs)} each) sent from tab A and followed by tab B on the same session; target: < 1 s`,
  );
  const row = (from: string, to: string, s: Stat, target: string) => [from, to, fmtMs(s.medianMs), fmtMs(s.p95Ms), fmtMs(s.maxMs), target];
  console.log(
    table(
      ["from", "to", "p50", "p95", "max", "target"],
      [
        row("tab A shows the last word", "tab B shows it", r.aToB, "< 1 s"),
        row("tab A paints it", "tab B paints it", r.aToBPainted, "< 1 s"),
        row("the fake sends the last word", "tab A shows it", r.upstreamToA, ""),
        row("the fake sends the last word", "tab B shows it", r.upstreamToB, "< 1 s"),
        row("a rename's request (API)", "tab B's header shows it", r.renameToB, "< 1 s"),
        row("  of it: the rename's request", "answered", r.renameRequest, ""),
      ],
    ),
  );
  console.log(`  every reply and rename in tab B within 1 s: ${met(r) ? "yes" : "NO"}; replies shown empty or twice in either tab: ${r.glitches.length === 0 ? "none" : r.glitches.join("; ")}`);
}

const met = (r: LiveBenchResult) => [r.aToB, r.upstreamToB, r.renameToB].every((s) => s.maxMs < LIVE_TARGET_MS);

function statMaxJson(s: Stat) {
  return { median_ms: round3(s.medianMs), p95_ms: round3(s.p95Ms), max_ms: round3(s.maxMs), min_ms: round3(s.minMs), runs: s.runs };
}

export function liveJson(r: LiveBenchResult) {
  return {
    replies: r.replies,
    words: r.words,
    reply_ms: r.replyMs,
    target_ms: LIVE_TARGET_MS,
    a_to_b: statMaxJson(r.aToB),
    a_to_b_painted: statMaxJson(r.aToBPainted),
    upstream_to_a: statMaxJson(r.upstreamToA),
    upstream_to_b: statMaxJson(r.upstreamToB),
    rename_to_b: statMaxJson(r.renameToB),
    rename_request: statMaxJson(r.renameRequest),
    met: met(r),
    glitches: r.glitches,
  };
}
