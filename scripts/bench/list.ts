// The message list in a real browser (issue 33): a long session (5,000 messages by default),
// seeded straight into an embedded data folder, opened in the built app (`npx next build`
// first) in headless Chromium at 1280×800. Two passes, each timed frame by frame:
//  - paging up: scrolled to the top again and again until every older page is loaded (each
//    page prepends 50 messages while the view must stay still);
//  - reading down: from the first message to the last, a fast wheel's worth each frame.
// For each, the longest frame (the longest gap between animation frames, and the longest
// long-animation-frame Chromium reports), how many frames took over 50 ms, and the most
// message elements and elements in all that were in the DOM at once.
// Skips when the app is not built or Chromium is missing.
//
// Environment: BENCH_LIST_MESSAGES (5000), BENCH_LIST_STEP_PX (600, the scroll per frame),
// BENCH_LIST_PROFILE (a file: the paging pass's CPU profile in Chrome's .cpuprofile format, for
// DevTools; build with `npx next build --no-mangling` to keep the functions' names).
import { existsSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { chromium, type Page } from "@playwright/test";
import { openEmbedded, setDb, type Database } from "@/lib/db";
import { startFakeAnthropic } from "../../tests/fake-anthropic/server";
import { startEmbedded, tempDataDir } from "../../tests/reliability/app";
import { fmtInt, fmtMs, round3, table } from "./report";
import { buildPool, seedSession } from "./seed";
import { intEnv } from "./stats";

const MESSAGES = intEnv("BENCH_LIST_MESSAGES", 5000);
const STEP_PX = intEnv("BENCH_LIST_STEP_PX", 600);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PROFILE = process.env.BENCH_LIST_PROFILE;
/** The frame budget the issue sets. */
export const FRAME_TARGET_MS = 50;

export interface ListPass {
  name: string;
  frames: number;
  maxFrameMs: number;
  p99FrameMs: number;
  over50: number;
  /** Longest long-animation-frame entry; null when the browser has no such entries. */
  maxLoafMs: number | null;
  maxMessageNodes: number;
  maxElements: number;
  seconds: number;
}

export interface ListBenchResult {
  messages: number;
  seedMs: number;
  openMs: number;
  passes: ListPass[];
}

function missing(): string | null {
  if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) return "the app is not built (run `npx next build`)";
  if (!existsSync(CHROMIUM)) return `Chromium is missing (${CHROMIUM}; set CHROMIUM_PATH)`;
  return null;
}

/**
 * Seeds the session into the folder with the bench's own fast INSERT, then lets the folder go
 * for the app; `previous` is the bench's database, made current again.
 */
async function seedFolder(dir: string, previous: Database): Promise<string> {
  const db = await openEmbedded(dir);
  setDb(db);
  try {
    return (await seedSession(db, buildPool(), MESSAGES, "bench list")).sessionId;
  } finally {
    setDb(previous);
    await db.close();
  }
}

/**
 * The frame recorder, run in the page: rAF gaps, long animation frames and DOM counts, sampled
 * each frame. A string, because the TypeScript runner would wrap a function's inner names in
 * helpers the page does not have.
 */
const RECORDER = `(() => {
  const r = { gaps: [], loaf: 0, msgs: 0, els: 0, on: true };
  window.__tk = r;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) r.loaf = Math.max(r.loaf, e.duration);
    }).observe({ type: "long-animation-frame", buffered: false });
  } catch {
    r.loaf = -1;
  }
  let last = performance.now();
  function tick(now) {
    if (!r.on) return;
    r.gaps.push(now - last);
    last = now;
    r.msgs = Math.max(r.msgs, document.querySelectorAll('[data-testid="message"]').length);
    r.els = Math.max(r.els, document.getElementsByTagName("*").length);
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})()`;

async function record(page: Page): Promise<void> {
  await page.evaluate(RECORDER);
}

async function collect(page: Page, name: string, seconds: number): Promise<ListPass> {
  const r = await page.evaluate<{ gaps: number[]; loaf: number; msgs: number; els: number }>(
    "(() => { window.__tk.on = false; return window.__tk; })()",
  );
  const gaps = [...r.gaps].sort((a, b) => a - b);
  return {
    name,
    frames: gaps.length,
    maxFrameMs: gaps.at(-1) ?? 0,
    p99FrameMs: gaps[Math.min(gaps.length - 1, Math.floor(gaps.length * 0.99))] ?? 0,
    over50: gaps.filter((g) => g > FRAME_TARGET_MS).length,
    maxLoafMs: r.loaf < 0 ? null : r.loaf,
    maxMessageNodes: r.msgs,
    maxElements: r.els,
    seconds,
  };
}

const loaded = (page: Page) => page.getByTestId("message-list").evaluate((el) => Number(el.getAttribute("data-loaded-count")));

export async function benchList(benchDb: Database): Promise<ListBenchResult | null> {
  const why = missing();
  if (why) {
    console.log(`\nList: skipped, ${why}.`);
    return null;
  }
  const dir = await tempDataDir("tk-bench-list-");
  const t0 = performance.now();
  const sessionId = await seedFolder(dir, benchDb);
  const seedMs = performance.now() - t0;
  const fake = await startFakeAnthropic();
  const app = await startEmbedded("list", dir, fake.url);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const list = page.getByTestId("message-list");
    const t1 = performance.now();
    await page.goto(`${app.base}/?session=${sessionId}`);
    await page.locator('[data-testid="message"]').first().waitFor();
    const openMs = performance.now() - t1;
    // Let the first page settle (fonts, measurement) before timing.
    await page.waitForTimeout(500);

    await record(page);
    const profiler = PROFILE ? await page.context().newCDPSession(page) : null;
    if (profiler) {
      await profiler.send("Profiler.enable");
      await profiler.send("Profiler.start");
    }
    const t2 = performance.now();
    while ((await loaded(page)) < MESSAGES) {
      const before = await loaded(page);
      await list.evaluate((el) => {
        el.scrollTop = 0;
      });
      const deadline = Date.now() + 30_000;
      while ((await loaded(page)) === before && Date.now() < deadline) await page.waitForTimeout(20);
      if ((await loaded(page)) === before) throw new Error(`paging stopped at ${before} messages`);
    }
    const paging = await collect(page, "paging up (all older pages)", (performance.now() - t2) / 1000);
    if (profiler && PROFILE) {
      const { profile } = await profiler.send("Profiler.stop");
      writeFileSync(PROFILE, JSON.stringify(profile));
      console.log(`List: the paging pass's CPU profile is in ${PROFILE}`);
    }

    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.waitForTimeout(300);
    await record(page);
    const t3 = performance.now();
    // One scroll step per frame, inside the page, until the bottom stops moving away.
    await page.evaluate(`new Promise((resolve) => {
      const el = document.querySelector('[data-testid="message-list"]');
      let still = 0;
      function step() {
        const before = el.scrollTop;
        el.scrollTop = before + ${STEP_PX};
        still = el.scrollTop === before ? still + 1 : 0;
        if (still > 10) resolve();
        else requestAnimationFrame(step);
      }
      requestAnimationFrame(step);
    })`);
    const reading = await collect(page, `reading down (${STEP_PX} px a frame)`, (performance.now() - t3) / 1000);
    return { messages: MESSAGES, seedMs, openMs, passes: [paging, reading] };
  } finally {
    await browser.close();
    await app.stop();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function printList(r: ListBenchResult): void {
  console.log(
    `\nMessage list in Chromium (1280×800): ${fmtInt(r.messages)} messages seeded in ${fmtMs(r.seedMs)}, first page shown in ${fmtMs(r.openMs)}; target: no frame over ${FRAME_TARGET_MS} ms`,
  );
  console.log(
    table(
      ["pass", "frames", "longest frame", "p99 frame", "frames > 50 ms", "longest LoAF", "message nodes (max)", "elements (max)", "seconds"],
      r.passes.map((p) => [
        p.name,
        fmtInt(p.frames),
        fmtMs(p.maxFrameMs),
        fmtMs(p.p99FrameMs),
        fmtInt(p.over50),
        p.maxLoafMs === null ? "n/a" : fmtMs(p.maxLoafMs),
        fmtInt(p.maxMessageNodes),
        fmtInt(p.maxElements),
        p.seconds.toFixed(1),
      ]),
    ),
  );
}

export function listJson(r: ListBenchResult) {
  return {
    messages: r.messages,
    seed_ms: round3(r.seedMs),
    open_ms: round3(r.openMs),
    frame_target_ms: FRAME_TARGET_MS,
    passes: r.passes.map((p) => ({
      name: p.name,
      frames: p.frames,
      max_frame_ms: round3(p.maxFrameMs),
      p99_frame_ms: round3(p.p99FrameMs),
      frames_over_50ms: p.over50,
      max_loaf_ms: p.maxLoafMs === null ? null : round3(p.maxLoafMs),
      max_message_nodes: p.maxMessageNodes,
      max_elements: p.maxElements,
      seconds: Math.round(p.seconds * 10) / 10,
    })),
  };
}
