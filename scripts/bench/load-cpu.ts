// Where the load's CPU goes, per turn: the two instances, PostgreSQL (its postmaster and every
// process it started, exited ones included) and the bench's own process (the load generator and
// the fake Claude), read from /proc before and after the load; and the whole machine's busy time,
// which says how many turns per second these cores could carry at most. Linux only: elsewhere
// the figures are null.
import { readdir, readFile } from "node:fs/promises";
import os from "node:os";
import type { AppInstance } from "../../tests/pg/app";

/** /proc's clock tick (USER_HZ), fixed at 100 for user space on Linux. */
const TICK_MS = 10;

interface Snapshot {
  instances: number[];
  postgres: number;
  bench: number;
  busy: number;
}

export interface CpuPerTurn {
  /** CPU milliseconds per turn. */
  instancesMs: number;
  postgresMs: number;
  benchMs: number;
  /** Every core's busy time, whoever spent it. */
  machineMs: number;
  cores: number;
  /** What the machine could carry if all its cores did nothing but this: cores / machine time. */
  ceilingTurnsPerS: number;
}

async function procStat(pid: number): Promise<{ ppid: number; ownMs: number; reapedMs: number } | null> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (!text) return null;
  // After the command name (which may hold spaces): state, ppid, ... utime (14), stime, cutime, cstime.
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const n = (i: number) => Number(f[i - 3]);
  return { ppid: n(4), ownMs: (n(14) + n(15)) * TICK_MS, reapedMs: (n(16) + n(17)) * TICK_MS };
}

async function postgresMs(postmaster: number): Promise<number> {
  const own = await procStat(postmaster);
  let ms = own ? own.ownMs + own.reapedMs : 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const s = await procStat(Number(entry));
    if (s && s.ppid === postmaster) ms += s.ownMs;
  }
  return ms;
}

async function machineBusyMs(): Promise<number> {
  const line = (await readFile("/proc/stat", "utf8")).split("\n")[0];
  const [user, nice, system, , , irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + steal) * TICK_MS;
}

/** `backendPid`: any PostgreSQL backend of the cluster (its parent is the postmaster). */
export async function cpuSnapshot(apps: AppInstance[], backendPid: number): Promise<Snapshot | null> {
  if (process.platform !== "linux") return null;
  const postmaster = (await procStat(backendPid))?.ppid;
  if (!postmaster) return null;
  const instances = await Promise.all(apps.map(async (a) => (a.pid ? ((await procStat(a.pid))?.ownMs ?? 0) : 0)));
  const usage = process.cpuUsage();
  return { instances, postgres: await postgresMs(postmaster), bench: (usage.user + usage.system) / 1000, busy: await machineBusyMs() };
}

export function cpuPerTurn(before: Snapshot | null, after: Snapshot | null, turns: number): CpuPerTurn | null {
  if (!before || !after || turns === 0) return null;
  const per = (a: number, b: number) => (a - b) / turns;
  const machineMs = per(after.busy, before.busy);
  const cores = os.availableParallelism();
  return {
    instancesMs: after.instances.reduce((sum, ms, i) => sum + per(ms, before.instances[i]), 0),
    postgresMs: per(after.postgres, before.postgres),
    benchMs: per(after.bench, before.bench),
    machineMs,
    cores,
    ceilingTurnsPerS: machineMs > 0 ? (cores * 1000) / machineMs : 0,
  };
}

export function cpuLine(c: CpuPerTurn): string {
  // The processes' own figures include their kernel time; what is left is anyone else's.
  const rest = c.machineMs - c.instancesMs - c.postgresMs - c.benchMs;
  return (
    `CPU per turn: ${c.instancesMs.toFixed(1)} ms the instances, ${c.postgresMs.toFixed(1)} ms PostgreSQL, ` +
    `${c.benchMs.toFixed(1)} ms the bench (load generator and fake Claude)${rest >= 0.5 ? `, ${rest.toFixed(1)} ms other processes` : ""}; ` +
    `the machine was busy ${c.machineMs.toFixed(1)} ms per turn on ${c.cores} cores: at most ${c.ceilingTurnsPerS.toFixed(0)} turns/s here.`
  );
}
