// API keys and rate limits: what a request pays for authenticating by key (format, checksum,
// hash lookup on the app's role, the once-a-minute last-use write) and for rate-limit
// accounting (one upsert per bucket), alone and together, and through a real route. The
// database holds 10,000 other keys and their buckets so the lookups run on real indexes.
import * as sessionRoute from "@/app/api/session/route";
import { edgeChecks } from "@/lib/api/http";
import { authenticate } from "@/lib/auth";
import { LOCAL_USER_ID, type Database } from "@/lib/db";
import { createKey } from "@/lib/keys";
import { requireScope } from "@/lib/keys/scopes";
import { admit } from "@/lib/limits";
import { fmtMs, statJson, table } from "./report";
import { measure, type MeasureOptions, type Stat, withEnv } from "./stats";

const OTHER_USERS = 100;
const KEYS_PER_USER = 100;
/** High enough never to refuse during the bench; the statement is the same at any limit. */
const BENCH_LIMIT = "1000000";

export interface KeysBenchResult {
  authenticate: Stat;
  accounting: Stat;
  together: Stat;
  routeWithKey: Stat;
  routeLocalNoLimits: Stat;
}

async function seedOtherKeys(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into auth.users (id, email)
       select ('00000000-0000-4000-9000-' || lpad(g::text, 12, '0'))::uuid, 'bench' || g || '@example.test' from generate_series(1, $1) g
       on conflict (id) do nothing`,
      [OTHER_USERS],
    );
    await tx.query(
      `insert into api_keys (user_id, name, prefix, key_hash, scopes, last_used_at)
       select ('00000000-0000-4000-9000-' || lpad(u::text, 12, '0'))::uuid, 'bench key ' || k, 'tk_live_bench' || k,
         encode(sha256(('bench' || u || '-' || k)::bytea), 'hex'), '{read,write}', now()
       from generate_series(1, $1) u, generate_series(1, $2) k`,
      [OTHER_USERS, KEYS_PER_USER],
    );
    await tx.query(
      `insert into rate_limits (user_id, key_id, bucket, refilled_at)
       select user_id, id, 'requests', now() from api_keys where name like 'bench key %'`,
    );
  });
}

export async function benchKeys(db: Database, opts: MeasureOptions): Promise<KeysBenchResult> {
  // Statements this short are dominated by JIT and plan warm-up for the first hundred calls.
  const micro: MeasureOptions = { warmups: Math.max(opts.warmups, 200), runs: Math.max(opts.runs, 500) };
  await seedOtherKeys(db);
  const { secret } = await createKey(LOCAL_USER_ID, { name: "bench", scopes: ["read", "write"] });
  const url = "http://127.0.0.1:3000/api/session?limit=1";
  const get = (headers: Record<string, string> = {}) => new Request(url, { headers: { host: "127.0.0.1:3000", ...headers } });
  const byKey = { authorization: `Bearer ${secret}` };

  return withEnv({ THREADKEEPER_RATE_LIMIT_PER_MINUTE: BENCH_LIMIT }, async () => {
    // The key identified alone (no route: no scope, no counting).
    const auth = (await measure(() => authenticate(get(byKey)), micro)).stat;
    // A bucket upsert in its own transaction: what a browser or access-token request pays.
    const user = await authenticate(get());
    const accounting = (await measure(() => admit(user, { send: false }), micro)).stat;
    // What route() runs before the handler for a key: Host, key, scope and its bucket (one statement).
    const together = (
      await measure(async () => {
        const c = await edgeChecks(get(byKey), { scope: "read", requestsPerMinute: Number(BENCH_LIMIT) });
        requireScope(c.key?.scopes ?? null, "read");
        return admit(c, { send: false });
      }, micro)
    ).stat;
    const routeWithKey = (await measure(() => sessionRoute.GET(get(byKey), undefined), micro)).stat;
    const routeLocalNoLimits = (
      await withEnv({ THREADKEEPER_RATE_LIMIT_PER_MINUTE: "0" }, async () => (await measure(() => sessionRoute.GET(get(), undefined), micro)).stat)
    );
    return { authenticate: auth, accounting, together, routeWithKey, routeLocalNoLimits };
  });
}

export function printKeys(r: KeysBenchResult): void {
  console.log(
    `\nAPI keys and rate limits: medians (p95) over ${r.together.runs} runs; ${OTHER_USERS * KEYS_PER_USER} other keys and buckets in the tables`,
  );
  const row = (what: string, s: Stat, target: string) => [what, fmtMs(s.medianMs), fmtMs(s.p95Ms), target];
  const overhead = r.routeWithKey.medianMs - r.routeLocalNoLimits.medianMs;
  console.log(
    table(
      ["operation", "p50", "p95", "target"],
      [
        row("identify a request's API key (lookup alone, warm)", r.authenticate, "-"),
        row("rate-limit accounting alone (a user's bucket, own tx)", r.accounting, "-"),
        row("key lookup + scope + rate limit, per request (route's edge)", r.together, "< 2 ms"),
        row("GET /api/session?limit=1 by key, limits on", r.routeWithKey, "-"),
        row("GET /api/session?limit=1 local, limits off", r.routeLocalNoLimits, "-"),
      ],
    ),
  );
  console.log(`  the key and its limit add ${fmtMs(overhead)} to the route's median; target met: ${r.together.medianMs < 2 ? "yes" : "NO"}`);
}

export function keysJson(r: KeysBenchResult) {
  return {
    authenticate_key: statJson(r.authenticate),
    rate_limit_accounting: statJson(r.accounting),
    key_and_limit_per_request: statJson(r.together),
    route_with_key: statJson(r.routeWithKey),
    route_local_no_limits: statJson(r.routeLocalNoLimits),
    target_met: r.together.medianMs < 2,
  };
}
