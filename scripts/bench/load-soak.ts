// The load bench's soak mode (BENCH_LOAD_SOAK_SECONDS): the same sessions keep sending ordinary
// turns for that long, and each instance's resident memory is sampled every few seconds, so the
// question "does RSS stay flat?" gets a number: the slope after the warm-up, fitted by least
// squares. Also the RSS reading and the history check both modes share.
import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import type { MessagesPageJson } from "@/lib/contract";
import { api, type AppInstance } from "../../tests/pg/app";
import { table } from "./report";

/** Seconds to soak for; 0: the ordinary run of T turns per session. */
export const SOAK_SECONDS = Number(process.env.BENCH_LOAD_SOAK_SECONDS ?? 0);
/** Turns a soak's sender sends to one session before it starts another. */
export const SOAK_TURNS_PER_SESSION = Number(process.env.BENCH_LOAD_SOAK_TURNS_PER_SESSION ?? 50);
const SAMPLE_EVERY_MS = 10_000;
/** Start-up allocations (JIT, caches, pools filling) settle within this; the slope starts after it. */
const WARMUP_S = 60;
/** Fewer samples after the warm-up than this fit no slope worth printing. */
const MIN_FIT_POINTS = 3;

export async function rssMb(app: AppInstance): Promise<number> {
  const status = await readFile(`/proc/${app.pid}/status`, "utf8").catch(() => "");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Seconds since the soak started, and one instance's RSS then. */
interface Sample {
  s: number;
  mb: number;
}

export interface SoakRss {
  instance: string;
  startMb: number;
  /** At the end of the warm-up (the sample nearest it). */
  warmMb: number;
  endMb: number;
  maxMb: number;
  /** MB per minute after the warm-up; null when the soak was too short to fit one. */
  slopeMbPerMin: number | null;
  /** The same over the second half only, and the peak of each half: a heap that grows to its working size and stays there is flat in the second. */
  lateSlopeMbPerMin: number | null;
  firstHalfMaxMb: number;
  secondHalfMaxMb: number;
  samples: Sample[];
}

export interface SoakResult {
  seconds: number;
  warmupS: number;
  rss: SoakRss[];
}

/** Samples every instance's RSS now and then every SAMPLE_EVERY_MS until stopped. */
export function startRssSampler(apps: AppInstance[]): { stop(): Promise<SoakResult> } {
  const started = performance.now();
  const samples: Sample[][] = apps.map(() => []);
  const sample = async () => {
    const s = (performance.now() - started) / 1000;
    const mbs = await Promise.all(apps.map(rssMb));
    mbs.forEach((mb, i) => samples[i].push({ s, mb }));
  };
  const first = sample();
  const timer = setInterval(() => void sample(), SAMPLE_EVERY_MS);
  return {
    async stop() {
      clearInterval(timer);
      await first;
      // The end, unless the timer sampled it a moment ago (a second point there would weigh it twice).
      const last = samples[0].at(-1)?.s ?? 0;
      if ((performance.now() - started) / 1000 - last > 2) await sample();
      const seconds = (performance.now() - started) / 1000;
      return { seconds, warmupS: WARMUP_S, rss: apps.map((a, i) => summarizeRss(a.name, samples[i])) };
    },
  };
}

function summarizeRss(instance: string, samples: Sample[]): SoakRss {
  const sorted = [...samples].sort((a, b) => a.s - b.s);
  const nearest = (s: number) => sorted.reduce((best, x) => (Math.abs(x.s - s) < Math.abs(best.s - s) ? x : best));
  const after = sorted.filter((x) => x.s >= WARMUP_S);
  const half = sorted[sorted.length - 1].s / 2;
  const late = sorted.filter((x) => x.s >= half);
  const early = sorted.filter((x) => x.s < half);
  return {
    instance,
    startMb: sorted[0].mb,
    warmMb: nearest(WARMUP_S).mb,
    endMb: sorted[sorted.length - 1].mb,
    maxMb: Math.max(...sorted.map((x) => x.mb)),
    slopeMbPerMin: after.length >= MIN_FIT_POINTS ? slope(after) * 60 : null,
    lateSlopeMbPerMin: late.length >= MIN_FIT_POINTS ? slope(late) * 60 : null,
    firstHalfMaxMb: Math.max(...early.map((x) => x.mb), 0),
    secondHalfMaxMb: Math.max(...late.map((x) => x.mb), 0),
    samples: sorted,
  };
}

/** Least-squares slope of mb over s (MB per second). */
function slope(points: Sample[]): number {
  const n = points.length;
  const meanS = points.reduce((t, p) => t + p.s, 0) / n;
  const meanMb = points.reduce((t, p) => t + p.mb, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.s - meanS) * (p.mb - meanMb);
    den += (p.s - meanS) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * The user messages a session holds, every page of its history: a soak's sessions run to
 * thousands of messages, beyond one page's 500.
 */
export async function userMessages(app: AppInstance, id: string, caller: Record<string, string> = {}): Promise<number> {
  let users = 0;
  let before: number | undefined;
  for (;;) {
    const query = `limit=500${before === undefined ? "" : `&before_seq=${before}`}`;
    const page = await api<MessagesPageJson>(app, "GET", `/api/session/${id}/messages?${query}`, undefined, caller);
    if (page.status !== 200) throw new Error(`history of ${id}: ${page.status}`);
    users += page.body.messages.filter((m) => m.role === "user").length;
    if (!page.body.has_more || page.body.messages.length === 0) return users;
    before = page.body.messages[0].seq;
  }
}

const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;

export function printSoak(r: SoakResult): void {
  console.log(`RSS over the soak (MB, sampled every ${SAMPLE_EVERY_MS / 1000} s; the slope is a least-squares fit after the first ${r.warmupS} s):`);
  console.log(
    table(
      ["instance", "start", `at ${r.warmupS} s`, "end", "max", "peak 1st / 2nd half", "slope after warm-up", "slope, 2nd half", "samples"],
      r.rss.map((x) => [
        x.instance,
        String(x.startMb),
        String(x.warmMb),
        String(x.endMb),
        String(x.maxMb),
        `${x.firstHalfMaxMb} / ${x.secondHalfMaxMb}`,
        x.slopeMbPerMin === null ? "too short" : `${signed(x.slopeMbPerMin)} MB/min`,
        x.lateSlopeMbPerMin === null ? "too short" : `${signed(x.lateSlopeMbPerMin)} MB/min`,
        String(x.samples.length),
      ]),
    ),
  );
  const verdict = r.rss.map((x) => `${x.instance} ${x.slopeMbPerMin === null ? "n/a" : `${signed(x.slopeMbPerMin)} MB/min`}`).join(", ");
  console.log(`RSS after warm-up: ${verdict}`);
}

export function soakJson(r: SoakResult) {
  return {
    seconds: Math.round(r.seconds),
    warmup_s: r.warmupS,
    rss_mb: r.rss.map((x) => ({
      instance: x.instance,
      start: x.startMb,
      after_warmup: x.warmMb,
      end: x.endMb,
      max: x.maxMb,
      slope_mb_per_min: x.slopeMbPerMin === null ? null : Math.round(x.slopeMbPerMin * 100) / 100,
      late_slope_mb_per_min: x.lateSlopeMbPerMin === null ? null : Math.round(x.lateSlopeMbPerMin * 100) / 100,
      peak_halves: [x.firstHalfMaxMb, x.secondHalfMaxMb],
      samples: x.samples.map((p) => [Math.round(p.s), p.mb]),
    })),
  };
}
