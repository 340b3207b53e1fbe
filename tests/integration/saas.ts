// SaaS-mode set-up for route-level tests: the fake Supabase Auth server, the environment that
// turns sign-in on, and real sessions made by the real supabase-js (bearer tokens and the
// cookies @supabase/ssr writes), so every check runs through the app's own verification.
import { createClient, type SupabaseClientOptions } from "@supabase/supabase-js";
import { createServerClient } from "@supabase/ssr";
import { afterAll, beforeAll } from "vitest";
import { startFakeSupabaseAuth, type FakeSupabaseAuth } from "../fake-supabase-auth/server";

export const PASSWORD = "correct horse battery staple";
export const PUBLISHABLE_KEY = "sb_publishable_test";

type RealtimeTransport = NonNullable<NonNullable<SupabaseClientOptions<"public">["realtime"]>["transport"]>;

/** supabase-js builds a realtime client that needs a global WebSocket Node 20 lacks; nothing here uses it. */
class NoRealtime {
  constructor() {
    throw new Error("realtime is not used by these tests");
  }
}
const realtime = { transport: NoRealtime as unknown as RealtimeTransport };

export interface Saas {
  auth: FakeSupabaseAuth;
}

/** Starts the fake auth server and switches the app to SaaS mode for this file's tests. */
export function useSaas(): Saas {
  const s = {} as Saas;
  beforeAll(async () => {
    s.auth = await startFakeSupabaseAuth();
    process.env.SUPABASE_URL = s.auth.url;
    process.env.SUPABASE_PUBLISHABLE_KEY = PUBLISHABLE_KEY;
  });
  afterAll(async () => {
    delete process.env.SUPABASE_URL;
    delete process.env.SUPABASE_PUBLISHABLE_KEY;
    await s.auth.close();
  });
  return s;
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
  /** `Authorization: Bearer …` for this user. */
  bearer: Record<string, string>;
}

let counter = 0;

/** Signs a new user up through supabase-js and returns their access token. */
export async function signUp(s: Saas, tag: string): Promise<TestUser> {
  const email = `${tag}-${++counter}-${Date.now()}@example.com`;
  const client = createClient(s.auth.url, PUBLISHABLE_KEY, { auth: { persistSession: false, autoRefreshToken: false }, realtime });
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  if (error || !data.session || !data.user) throw new Error(`sign-up failed: ${error?.message}`);
  return { id: data.user.id, email, token: data.session.access_token, bearer: { authorization: `Bearer ${data.session.access_token}` } };
}

/** Signs in as a browser would through @supabase/ssr and returns the Cookie header it would send. */
export async function sessionCookie(s: Saas, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const client = createServerClient(s.auth.url, PUBLISHABLE_KEY, {
    realtime,
    cookies: {
      getAll: () => [...jar].map(([name, value]) => ({ name, value })),
      setAll: (list) => {
        for (const c of list) {
          if (c.value === "") jar.delete(c.name);
          else jar.set(c.name, c.value);
        }
      },
    },
  });
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw new Error(`sign-in failed: ${error.message}`);
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}
