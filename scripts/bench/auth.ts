// Sign-in and the edge: what verifying an access token costs with a warm JWKS cache, and
// what the edge checks (Host, caller, CSRF rule, security headers) add to a hot path.
// Tokens come from the fake Supabase Auth server, verified by the app's own code.
import { performance } from "node:perf_hooks";
import * as statusRoute from "@/app/api/context/status/route";
import { edgeChecks } from "@/lib/api/http";
import { authenticate } from "@/lib/auth";
import { supabaseAuth } from "@/lib/mode";
import { verifyAccessToken } from "@/lib/auth/jwt";
import { getStatus } from "@/lib/operations/sessions";
import { LOCAL_USER_ID, type Database } from "@/lib/db";
import { startFakeSupabaseAuth } from "../../tests/fake-supabase-auth/server";
import { fmtMs, statJson, table } from "./report";
import { seedSession, type TextPool } from "./seed";
import { measure, type MeasureOptions, type Stat, withEnv } from "./stats";

const SESSION_MESSAGES = 10_000;

export interface AuthBenchResult {
  verifyCold: number;
  verifyWarm: Stat;
  authBearer: Stat;
  authCookie: Stat;
  edgeChecks: Stat;
  statusLib: { local: Stat };
  statusRoute: { local: Stat; saas: Stat };
}

export async function benchAuth(db: Database, pool: TextPool, opts: MeasureOptions): Promise<AuthBenchResult> {
  const micro: MeasureOptions = { warmups: Math.max(opts.warmups, 20), runs: Math.max(opts.runs, 200) };
  const seeded = await seedSession(db, pool, SESSION_MESSAGES, "auth bench 10k");
  const statusUrl = `http://127.0.0.1:3000/api/context/status?session_id=${seeded.sessionId}`;
  const statusReq = (headers: Record<string, string> = {}) => new Request(statusUrl, { headers: { host: "127.0.0.1:3000", ...headers } });

  // Local mode: the route (edge checks, implicit caller, zod, JSON) against the bare library call.
  const hot: MeasureOptions = { warmups: Math.max(opts.warmups, 10), runs: Math.max(opts.runs, 100) };
  const statusLib = await measure(() => getStatus(LOCAL_USER_ID, seeded.sessionId), hot);
  const statusLocal = await measure(() => statusRoute.GET(statusReq(), undefined), hot);

  // Everything route() does before the handler in local mode, on a same-origin browser write.
  const write = new Request("http://127.0.0.1:3000/api/session", {
    method: "POST",
    headers: { host: "127.0.0.1:3000", "content-type": "application/json", origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" },
  });
  const edge = (await measure(() => edgeChecks(write), micro)).stat;

  const fake = await startFakeSupabaseAuth();
  try {
    return await withEnv({ SUPABASE_URL: fake.url, SUPABASE_PUBLISHABLE_KEY: "sb_publishable_bench" }, async () => {
      const cfg = supabaseAuth();
      if (!cfg) throw new Error("SaaS mode did not turn on");
      // The seeded session belongs to the local user; a token for that id reads it in SaaS mode.
      const token = await fake.mintToken({ claims: { sub: LOCAL_USER_ID, email: "local@threadkeeper.local" } });
      const t0 = performance.now();
      await verifyAccessToken(token, cfg);
      const verifyCold = performance.now() - t0;
      const verifyWarm = (await measure(() => verifyAccessToken(token, cfg), micro)).stat;
      const bearer = { authorization: `Bearer ${token}` };
      const authBearer = (await measure(() => authenticate(statusReq(bearer)), micro)).stat;
      const cookieValue = `base64-${Buffer.from(JSON.stringify({ access_token: token, token_type: "bearer" })).toString("base64url")}`;
      const cookie = { cookie: `${cfg.storageKey}=${cookieValue}` };
      const authCookie = (await measure(() => authenticate(statusReq(cookie)), micro)).stat;
      const statusSaas = (await measure(() => statusRoute.GET(statusReq(bearer), undefined), hot)).stat;
      return {
        verifyCold,
        verifyWarm,
        authBearer,
        authCookie,
        edgeChecks: edge,
        statusLib: { local: statusLib.stat },
        statusRoute: { local: statusLocal.stat, saas: statusSaas },
      };
    });
  } finally {
    await fake.close();
  }
}

export function printAuth(r: AuthBenchResult): void {
  console.log(`\nSign-in and edge benchmarks: medians (p95); token work over ${r.verifyWarm.runs} runs, status over ${r.statusLib.local.runs}`);
  const row = (what: string, s: Stat, target: string) => [what, fmtMs(s.medianMs), fmtMs(s.p95Ms), target];
  console.log(
    table(
      ["operation", "p50", "p95", "target"],
      [
        ["verify an access token, cold (fetches the JWKS)", fmtMs(r.verifyCold), "-", "-"],
        row("verify an access token, warm JWKS (ES256)", r.verifyWarm, "< 1 ms"),
        row("authenticate a request: bearer token", r.authBearer, "-"),
        row("authenticate a request: session cookie", r.authCookie, "-"),
        row("edge checks per request, local mode (Host, caller, CSRF rule)", r.edgeChecks, "no measurable time"),
        row(`context status, 10,000 msgs: library call`, r.statusLib.local, "-"),
        row(`context status, 10,000 msgs: route, local mode`, r.statusRoute.local, "-"),
        row(`context status, 10,000 msgs: route, SaaS bearer`, r.statusRoute.saas, "-"),
      ],
    ),
  );
  const share = (r.edgeChecks.medianMs / r.statusRoute.local.medianMs) * 100;
  console.log(`  edge checks are ${share.toFixed(3)} % of the status route's median; token verification met: ${r.verifyWarm.medianMs < 1 ? "yes" : "NO"}`);
}

export function authJson(r: AuthBenchResult) {
  return {
    verify_cold_ms: Math.round(r.verifyCold * 1000) / 1000,
    verify_warm: statJson(r.verifyWarm),
    authenticate_bearer: statJson(r.authBearer),
    authenticate_cookie: statJson(r.authCookie),
    edge_checks_per_request: statJson(r.edgeChecks),
    status_library_local: statJson(r.statusLib.local),
    status_route_local: statJson(r.statusRoute.local),
    status_route_saas: statJson(r.statusRoute.saas),
    verify_target_met: r.verifyWarm.medianMs < 1,
  };
}
