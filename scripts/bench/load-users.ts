// Who sends the load bench's turns, and how long they wait on each other's locks (issue 32).
//
// Two modes: every session belongs to one user who sends through one API key ("one": a
// busy integration's parallel conversations), or each session to a user of its own, each with
// a key ("many"). Both authenticate by key, so the only difference between them is whose rows
// the turns write.
//
// Lock wait is sampled, as an active-session-history does: every SAMPLE_EVERY_MS the sampler
// reads which backends of the app's database wait on a heavyweight lock (pg_stat_activity,
// wait_event_type 'Lock': row locks show as `transactionid` or `tuple`), and each waiting
// backend adds the time since the previous sample. Summed over the load and divided by its
// turns, that is the lock wait per turn, an unbiased estimate whose error shrinks with the
// number of samples; grouped by statement it says which write waits. The sampler connects to a
// database of its own, so its queries are not counted as the turns' statements or transactions.
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { generateKey } from "@/lib/keys/format";

export type UsersMode = "one" | "many";

/** BENCH_LOAD_USERS: one, many, or both (the default), in that order. */
export function usersModes(): UsersMode[] {
  const v = (process.env.BENCH_LOAD_USERS ?? "both").trim();
  if (v === "one" || v === "many") return [v];
  if (v === "both") return ["one", "many"];
  throw new Error(`BENCH_LOAD_USERS must be one, many or both, not '${v}'`);
}

/**
 * Creates the users and keys of `mode` for `sessions` sessions, as the superuser (`admin`);
 * returns the request headers of each session's caller.
 */
export async function seedCallers(admin: postgres.Sql, mode: UsersMode, sessions: number): Promise<Record<string, string>[]> {
  const users = mode === "one" ? 1 : sessions;
  const keys = Array.from({ length: users }, (_, i) => ({ user: benchUser(i), key: generateKey() }));
  for (const { user, key } of keys) {
    await admin.unsafe(`insert into auth.users (id, email, aud, role) values ($1, $2, 'authenticated', 'authenticated')`, [
      user,
      `load-${user.slice(-4)}@bench.test`,
    ]);
    await admin.unsafe(`insert into public.api_keys (user_id, name, prefix, key_hash, scopes) values ($1, 'load', $2, $3, '{read,write}')`, [
      user,
      key.prefix,
      key.hash,
    ]);
  }
  return Array.from({ length: sessions }, (_, s) => ({ authorization: `Bearer ${keys[mode === "one" ? 0 : s].key.secret}` }));
}

const benchUser = (i: number) => `00000000-0000-4000-a000-${String(i + 1).padStart(12, "0")}`;

const SAMPLE_EVERY_MS = 10;
/** The statements that waited longest, shown per run. */
const TOP = 6;

export interface LockWaits {
  /** Summed wait of every backend, in ms. */
  totalMs: number;
  samples: number;
  /** Where the waiting was: the wait event and the waiting statement. */
  top: { ms: number; event: string; query: string }[];
}

/** Samples lock waits in `database` (by a connection to `samplerUrl`) until stopped. */
export function startLockSampler(samplerUrl: string, database: string): { stop(): Promise<LockWaits> } {
  const sql = postgres(samplerUrl, { max: 1, onnotice: () => {} });
  const waits = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    let last = performance.now();
    while (running) {
      const rows = await sql.unsafe<{ event: string; query: string }[]>(
        `select wait_event as event, left(regexp_replace(query, '\\s+', ' ', 'g'), 140) as query
         from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`,
        [database],
      );
      const now = performance.now();
      const weight = now - last;
      last = now;
      samples++;
      for (const r of rows) waits.set(`${r.event}\t${r.query}`, (waits.get(`${r.event}\t${r.query}`) ?? 0) + weight);
      await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await sql.end({ timeout: 5 });
      const top = [...waits]
        .map(([k, ms]) => ({ ms, event: k.split("\t")[0], query: k.split("\t")[1] }))
        .sort((a, b) => b.ms - a.ms);
      return { totalMs: top.reduce((t, w) => t + w.ms, 0), samples, top: top.slice(0, TOP) };
    },
  };
}
