/**
 * The fake Supabase Auth server against the real @supabase/supabase-js, @supabase/ssr and jose:
 * if these pass, the app's auth code can be tested against the fake instead of mocks.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createClient, AuthWeakPasswordError, type SupabaseClient } from "@supabase/supabase-js";
import { createServerClient, type CookieOptions } from "@supabase/ssr";
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { startFakeSupabaseAuth, type FakeSupabaseAuth, type MintOptions } from "../fake-supabase-auth/server";
import { fakeSupabaseAuthControl } from "../fake-supabase-auth/control";

const PASSWORD = "correct horse 1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let fake: FakeSupabaseAuth;

beforeAll(async () => {
  fake = await startFakeSupabaseAuth();
});

afterAll(async () => {
  await fake.close();
});

type ClientOptions = NonNullable<Parameters<typeof createClient>[2]>;
type RealtimeTransport = NonNullable<NonNullable<ClientOptions["realtime"]>["transport"]>;

/**
 * supabase-js 2.119 builds its realtime client inside createClient and throws on Node 20, which
 * has no global WebSocket ("Node.js detected but native WebSocket not found"). Nothing here
 * subscribes to realtime, so a transport that refuses to connect is enough.
 */
class NoRealtime {
  constructor() {
    throw new Error("realtime is not used by these tests");
  }
}
const realtime = { transport: NoRealtime as unknown as RealtimeTransport };

function must<T>(value: T | null | undefined, what = "value"): T {
  if (value === null || value === undefined) throw new Error(`expected a ${what}`);
  return value;
}

function newEmail(tag: string): string {
  return `${tag}-${randomUUID().slice(0, 8)}@example.test`;
}

function client(url = fake.url): SupabaseClient {
  return createClient(url, "publishable-key", { auth: { persistSession: false, autoRefreshToken: false }, realtime });
}

async function signedUp(tag: string): Promise<{ email: string; userId: string }> {
  const email = newEmail(tag);
  const { data, error } = await client().auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { email, userId: data.user?.id ?? "" };
}

async function verifyWithJose(token: string, jwksOptions: { cooldownDuration?: number } = {}): Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL(fake.jwksUrl), jwksOptions);
  const { payload } = await jwtVerify(token, jwks, { issuer: fake.authUrl, audience: "authenticated", algorithms: ["ES256"] });
  return payload;
}

/** Cookies as a Next.js request/response pair would hold them, for @supabase/ssr's server client. */
function cookieJar() {
  const jar = new Map<string, string>();
  const writes: { name: string; value: string; options: CookieOptions }[] = [];
  return {
    jar,
    writes,
    methods: {
      getAll: () => [...jar].map(([name, value]) => ({ name, value })),
      setAll: (cookies: { name: string; value: string; options: CookieOptions }[]) => {
        for (const cookie of cookies) {
          writes.push(cookie);
          if (cookie.options.maxAge === 0) jar.delete(cookie.name);
          else jar.set(cookie.name, cookie.value);
        }
      },
    },
  };
}

describe("supabase-js against the fake", () => {
  it("signs up with an auto-confirmed session shaped like GoTrue's", async () => {
    const email = newEmail("signup");
    const { data, error } = await client().auth.signUp({ email, password: PASSWORD, options: { data: { display_name: "Ada" } } });
    expect(error).toBeNull();
    const { user, session } = data;
    expect(user?.id).toMatch(UUID);
    expect(user).toMatchObject({
      aud: "authenticated",
      role: "authenticated",
      email,
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: { display_name: "Ada", email, email_verified: true, sub: user?.id },
      is_anonymous: false,
    });
    expect(user?.email_confirmed_at).toEqual(expect.any(String));
    expect(user?.identities).toHaveLength(1);
    expect(user?.identities?.[0]).toMatchObject({ provider: "email", user_id: user?.id, identity_data: { email } });
    expect(session).toMatchObject({ token_type: "bearer", expires_in: 3600, refresh_token: expect.any(String) });
    expect(session?.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect(fake.users.find((u) => u.email === email)?.id).toBe(user?.id);

    const header = decodeProtectedHeader(session?.access_token ?? "");
    expect(header).toEqual({ alg: "ES256", kid: fake.kid, typ: "JWT" });
    expect(decodeJwt(session?.access_token ?? "")).toMatchObject({
      iss: fake.authUrl,
      aud: "authenticated",
      sub: user?.id,
      email,
      role: "authenticated",
      aal: "aal1",
      amr: [{ method: "password", timestamp: expect.any(Number) }],
      session_id: expect.stringMatching(UUID),
      is_anonymous: false,
    });

    // The SDK sent what Supabase's gateway and GoTrue expect.
    const request = fake.requests.findLast((r) => r.path === "/auth/v1/signup");
    expect(request?.headers).toMatchObject({ apikey: "publishable-key", "x-supabase-api-version": "2024-01-01" });
    expect(request?.headers["x-client-info"]).toMatch(/^supabase-js/);
  });

  it("signs in with the password, gets the user, and rotates single-use refresh tokens", async () => {
    const { email, userId } = await signedUp("signin");
    const auth = client().auth;
    const { data, error } = await auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    const signIn = { user: must(data.user, "user"), session: must(data.session, "session") };
    expect(signIn.user.id).toBe(userId);

    const { data: got, error: getError } = await auth.getUser();
    expect(getError).toBeNull();
    expect(got.user?.email).toBe(email);

    const first = signIn.session.refresh_token;
    const { data: refreshed, error: refreshError } = await auth.refreshSession();
    expect(refreshError).toBeNull();
    expect(refreshed.session?.refresh_token).not.toBe(first);
    expect(refreshed.session?.access_token).not.toBe(signIn.session.access_token);
    expect(decodeJwt(refreshed.session?.access_token ?? "").session_id).toBe(decodeJwt(signIn.session.access_token).session_id);

    // Replaying the consumed token fails, and revokes the session's newer token too (reuse detection).
    const replay = await client().auth.refreshSession({ refresh_token: first });
    expect(replay.error).toMatchObject({ status: 400, code: "refresh_token_already_used" });
    const newer = await client().auth.refreshSession({ refresh_token: refreshed.session?.refresh_token ?? "" });
    expect(newer.error).toMatchObject({ status: 400, code: "refresh_token_already_used" });

    const unknown = await client().auth.refreshSession({ refresh_token: "nosuchtoken1" });
    expect(unknown.error).toMatchObject({ status: 400, code: "refresh_token_not_found" });
  });

  it("reports GoTrue's error codes for bad credentials, duplicates and weak passwords", async () => {
    const { email } = await signedUp("errors");
    const wrong = await client().auth.signInWithPassword({ email, password: "not the password" });
    expect(wrong.error).toMatchObject({ status: 400, code: "invalid_credentials", message: "Invalid login credentials" });
    // An unknown address answers exactly like a wrong password.
    const nobody = await client().auth.signInWithPassword({ email: newEmail("nobody"), password: PASSWORD });
    expect(nobody.error).toMatchObject({ status: 400, code: "invalid_credentials" });

    const duplicate = await client().auth.signUp({ email, password: PASSWORD });
    expect(duplicate.error).toMatchObject({ status: 422, code: "user_already_exists", message: "User already registered" });

    const weak = await client().auth.signUp({ email: newEmail("weak"), password: "12345" });
    expect(weak.error).toBeInstanceOf(AuthWeakPasswordError);
    expect(weak.error).toMatchObject({ status: 422, code: "weak_password", reasons: ["length"] });

    const badEmail = await client().auth.signUp({ email: "not-an-email", password: PASSWORD });
    expect(badEmail.error).toMatchObject({ status: 400, code: "validation_failed" });
  });

  it("renders the legacy error shape to clients that send no API version, and OAuth errors for unknown grants", async () => {
    const legacy = await fetch(`${fake.authUrl}/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: "k", "content-type": "application/json" },
      body: JSON.stringify({ email: newEmail("legacy"), password: "x" }),
    });
    expect(legacy.status).toBe(400);
    expect(legacy.headers.get("x-supabase-api-version")).toBeNull();
    expect(await legacy.json()).toEqual({ code: 400, error_code: "invalid_credentials", msg: "Invalid login credentials" });

    const grant = await fetch(`${fake.authUrl}/token?grant_type=client_credentials`, {
      method: "POST",
      headers: { apikey: "k", "content-type": "application/json" },
      body: "{}",
    });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toEqual({ error: "unsupported_grant_type", error_description: "" });
  });

  it("updates the password: the new one signs in, the old one fails, other sessions are signed out", async () => {
    const { email } = await signedUp("update");
    const other = client().auth;
    const { data: otherSession } = await other.signInWithPassword({ email, password: PASSWORD });

    const auth = client().auth;
    await auth.signInWithPassword({ email, password: PASSWORD });
    const same = await auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({ status: 422, code: "same_password" });
    const weak = await auth.updateUser({ password: "123" });
    expect(weak.error).toMatchObject({ status: 422, code: "weak_password" });

    const { data, error } = await auth.updateUser({ password: "a brand new one", data: { theme: "dark" } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata.theme).toBe("dark");

    expect((await client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe("invalid_credentials");
    expect((await client().auth.signInWithPassword({ email, password: "a brand new one" })).error).toBeNull();

    const stale = await client().auth.refreshSession({ refresh_token: otherSession.session?.refresh_token ?? "" });
    expect(stale.error).toMatchObject({ code: "refresh_token_not_found" });
    // The session that changed the password keeps working.
    expect((await auth.refreshSession()).error).toBeNull();
  });

  it("changes the email at once when confirmation is off", async () => {
    const { email, userId } = await signedUp("old-address");
    const auth = client().auth;
    await auth.signInWithPassword({ email, password: PASSWORD });
    const next = newEmail("new-address");
    const { data, error } = await auth.updateUser({ email: next });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(next);
    expect((await client().auth.signInWithPassword({ email: next, password: PASSWORD })).data.user?.id).toBe(userId);

    const { email: taken } = await signedUp("taken");
    expect((await auth.updateUser({ email: taken })).error).toMatchObject({ status: 422, code: "email_exists" });
  });

  it("signs out: the refresh token is revoked and the access token's session is gone", async () => {
    const { email } = await signedUp("signout");
    const auth = client().auth;
    const session = must((await auth.signInWithPassword({ email, password: PASSWORD })).data.session, "session");
    const { error } = await auth.signOut();
    expect(error).toBeNull();
    expect(fake.requests.findLast((r) => r.path === "/auth/v1/logout")).toMatchObject({ query: { scope: "global" }, status: 204 });

    const refresh = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.error).toMatchObject({ status: 400, code: "refresh_token_not_found" });
    // The JWT itself is still validly signed (local verifiers accept it until exp); GoTrue knows better.
    const user = await client().auth.getUser(session.access_token);
    expect(user.error?.name).toBe("AuthSessionMissingError");
    expect(fake.requests.findLast((r) => r.path === "/auth/v1/user")?.status).toBe(403);
  });

  it("honours the logout scopes local and others", async () => {
    const { email, userId } = await signedUp("scopes");
    const a = client().auth;
    const b = client().auth;
    const c = client().auth;
    const [sa, sb, sc] = await Promise.all([a, b, c].map((auth) => auth.signInWithPassword({ email, password: PASSWORD })));
    const signUpSession = 1;
    expect(fake.sessions(userId)).toHaveLength(3 + signUpSession);

    await a.signOut({ scope: "local" });
    const ids = fake.sessions(userId).map((s) => s.id);
    expect(ids).not.toContain(decodeJwt(sa.data.session?.access_token ?? "").session_id);
    expect(ids).toHaveLength(2 + signUpSession);

    await b.signOut({ scope: "others" });
    expect(fake.sessions(userId).map((s) => s.id)).toEqual([decodeJwt(sb.data.session?.access_token ?? "").session_id]);
    expect((await c.refreshSession()).error).toMatchObject({ code: "refresh_token_not_found" });
    expect(sc.error).toBeNull();
  });

  it("resets a password: a silent /recover, an emailed token, verifyOtp, then updateUser", async () => {
    const { email } = await signedUp("recover");
    const auth = client().auth;
    const { data, error } = await auth.resetPasswordForEmail(email, { redirectTo: "http://127.0.0.1:3100/reset" });
    expect(error).toBeNull();
    expect(data).toEqual({});
    // The same answer for an unknown address, and no email.
    const stranger = newEmail("stranger");
    expect(await client().auth.resetPasswordForEmail(stranger)).toEqual({ data: {}, error: null });
    expect(fake.latestEmail(stranger)).toBeUndefined();

    const mail = fake.latestEmail(email, "recovery");
    expect(mail).toMatchObject({ to: email, token: expect.stringMatching(/^\d{6}$/), redirectTo: "http://127.0.0.1:3100/reset" });

    const events: string[] = [];
    auth.onAuthStateChange((event) => events.push(event));
    const verified = await auth.verifyOtp({ type: "recovery", token_hash: mail?.tokenHash ?? "" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    expect(decodeJwt(verified.data.session?.access_token ?? "").amr).toEqual([{ method: "recovery", timestamp: expect.any(Number) }]);
    expect(events).toContain("PASSWORD_RECOVERY");

    expect((await auth.updateUser({ password: "after the reset" })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: "after the reset" })).error).toBeNull();

    // One use only.
    const again = await client().auth.verifyOtp({ type: "recovery", token_hash: mail?.tokenHash ?? "" });
    expect(again.error).toMatchObject({ status: 403, code: "otp_expired" });
  });

  it("completes a recovery with the 6-digit code and the email address", async () => {
    const { email } = await signedUp("otp");
    await client().auth.resetPasswordForEmail(email);
    const mail = fake.latestEmail(email, "recovery");
    const wrong = await client().auth.verifyOtp({ type: "recovery", email, token: mail?.token === "000000" ? "000001" : "000000" });
    expect(wrong.error).toMatchObject({ code: "otp_expired" });
    const { data, error } = await client().auth.verifyOtp({ type: "recovery", email, token: mail?.token ?? "" });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
  });

  it("follows an implicit-flow email link to a redirect carrying the session", async () => {
    const { email } = await signedUp("link");
    await client().auth.resetPasswordForEmail(email, { redirectTo: "http://127.0.0.1:3100/reset" });
    const link = fake.latestEmail(email, "recovery")?.link ?? "";
    const res = await fetch(link, { redirect: "manual" });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe("http://127.0.0.1:3100/reset");
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get("type")).toBe("recovery");
    expect((await verifyWithJose(fragment.get("access_token") ?? "")).email).toBe(email);

    const reused = new URL((await fetch(link, { redirect: "manual" })).headers.get("location") ?? "");
    expect(new URLSearchParams(reused.hash.slice(1)).get("error_code")).toBe("otp_expired");
  });
});

describe("tokens and the JWKS", () => {
  it("verify with jose against the published JWKS (issuer, audience, ES256)", async () => {
    const { email, userId } = await signedUp("jose");
    const { data } = await client().auth.signInWithPassword({ email, password: PASSWORD });
    const payload = await verifyWithJose(data.session?.access_token ?? "");
    expect(payload).toMatchObject({ sub: userId, email, role: "authenticated", aud: "authenticated", iss: fake.authUrl });

    const jwks = (await (await fetch(fake.jwksUrl)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", kid: fake.kid })]);
    expect(jwks.keys[0]).not.toHaveProperty("d");
  });

  const rejected: [string, MintOptions, new (...args: never[]) => Error][] = [
    ["expired", { expiresIn: -60 }, joseErrors.JWTExpired],
    ["a wrong audience", { claims: { aud: "anon" } }, joseErrors.JWTClaimValidationFailed],
    ["a wrong issuer", { claims: { iss: "https://evil.example/auth/v1" } }, joseErrors.JWTClaimValidationFailed],
    ["forged with the published kid", { signing: "forged" }, joseErrors.JWSSignatureVerificationFailed],
    ["an unknown kid", { signing: "unknown-kid" }, joseErrors.JWKSNoMatchingKey],
    ['alg "none"', { signing: "none" }, joseErrors.JOSEAlgNotAllowed],
    ["HS256 with the well-known CLI secret", { signing: "hs256" }, joseErrors.JOSEAlgNotAllowed],
  ];
  it.each(rejected)("a minted token that is %s fails jose verification", async (_name, opts, errorClass) => {
    await expect(verifyWithJose(await fake.mintToken(opts))).rejects.toBeInstanceOf(errorClass);
  });

  it("minted tokens: valid ones pass jose and the fake's /user; broken ones get GoTrue's 403 bad_jwt", async () => {
    const { email, userId } = await signedUp("mint");
    const good = await fake.mintToken({ user: email, claims: { app_metadata: { plan: "pro" } } });
    expect(await verifyWithJose(good)).toMatchObject({ sub: userId, app_metadata: { plan: "pro" } });
    expect((await client().auth.getUser(good)).data.user?.id).toBe(userId);

    // Without a user the claims are random: locally valid, unknown to the server.
    const stranger = await fake.mintToken();
    expect((await verifyWithJose(stranger)).sub).toMatch(UUID);
    expect((await client().auth.getUser(stranger)).error).toMatchObject({ status: 403, code: "user_not_found" });

    for (const signing of ["forged", "unknown-kid", "none", "hs256"] as const) {
      const { error } = await client().auth.getUser(await fake.mintToken({ user: email, signing }));
      expect(error, signing).toMatchObject({ status: 403, code: "bad_jwt" });
    }
    const expired = await client().auth.getUser(await fake.mintToken({ user: email, expiresIn: -1 }));
    expect(expired.error?.message).toMatch(/token is expired/);
    expect(decodeJwt(await fake.mintToken({ claims: { email: null } }))).not.toHaveProperty("email");

    const missing = await fetch(`${fake.authUrl}/user`, { headers: { apikey: "k" } });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error_code: "no_authorization" });
  });

  it("rotates the key: new tokens carry the new kid, old ones verify during the grace period, dropOld ends it", async () => {
    const { email } = await signedUp("rotate");
    const before = (await client().auth.signInWithPassword({ email, password: PASSWORD })).data.session?.access_token ?? "";
    const oldKid = fake.kid;
    // A long-lived verifier, as an app instance would hold across the rotation.
    const appJwks = createRemoteJWKSet(new URL(fake.jwksUrl), { cooldownDuration: 0 });
    await jwtVerify(before, appJwks);

    const { kid, previousKid } = await fake.rotateKey();
    expect(previousKid).toBe(oldKid);
    expect(kid).not.toBe(oldKid);
    const after = (await client().auth.signInWithPassword({ email, password: PASSWORD })).data.session?.access_token ?? "";
    expect(decodeProtectedHeader(after).kid).toBe(kid);

    const published = (await (await fetch(fake.jwksUrl)).json()) as { keys: { kid: string }[] };
    expect(published.keys.map((k) => k.kid)).toEqual([kid, oldKid]);
    // An unknown kid makes jose refetch (once its cooldown has passed; 30 s by default).
    await jwtVerify(after, appJwks);
    await jwtVerify(before, appJwks);
    expect((await client().auth.getUser(before)).error).toBeNull();

    await fake.rotateKey({ dropOld: true });
    const now = (await (await fetch(fake.jwksUrl)).json()) as { keys: { kid: string }[] };
    expect(now.keys.map((k) => k.kid)).toEqual([fake.kid]);
    await expect(verifyWithJose(after)).rejects.toBeInstanceOf(joseErrors.JWKSNoMatchingKey);
    expect((await client().auth.getUser(after)).error).toMatchObject({ code: "bad_jwt" });
  });
});

describe("@supabase/ssr createServerClient with a cookie jar", () => {
  it("signs in into sb-<host label>-auth-token cookies and getClaims verifies against the JWKS", async () => {
    const { email, userId } = await signedUp("ssr");
    const { jar, methods } = cookieJar();
    const signIn = await createServerClient(fake.url, "publishable-key", { cookies: methods, realtime }).auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();

    // supabase-js names the storage key after the first label of the hostname: "127" here.
    const names = [...jar.keys()];
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toMatch(/^sb-127-auth-token(\.\d+)?$/);
    const value = names.sort().map((n) => jar.get(n)).join("");
    expect(value.startsWith("base64-")).toBe(true);
    const stored = JSON.parse(Buffer.from(value.slice("base64-".length), "base64url").toString("utf8")) as { access_token: string };
    expect(stored.access_token).toBe(signIn.data.session?.access_token);

    // A later request: a new client over the same cookies, verifying locally.
    const mark = fake.requests.length;
    const server = createServerClient(fake.url, "publishable-key", { cookies: methods, realtime });
    const { data, error } = await server.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.claims).toMatchObject({ sub: userId, email, iss: fake.authUrl, aud: "authenticated" });
    expect(data?.header).toMatchObject({ alg: "ES256", kid: fake.kid });
    const during = fake.requests.slice(mark).map((r) => `${r.method} ${r.path}`);
    expect(during).not.toContain("GET /auth/v1/user");
    expect(during.filter((r) => r === "GET /auth/v1/.well-known/jwks.json").length).toBeLessThanOrEqual(1);

    expect((await server.auth.getUser()).data.user?.id).toBe(userId);
  });

  it("getClaims rejects a forged signature locally and an unknown kid through the server", async () => {
    const { email } = await signedUp("claims");
    const server = createServerClient(fake.url, "publishable-key", { cookies: cookieJar().methods, realtime });
    const forged = await server.auth.getClaims(await fake.mintToken({ user: email, signing: "forged" }));
    expect(forged.error?.message).toBe("Invalid JWT signature");
    // Not in the JWKS → supabase-js falls back to GET /user, which refuses it.
    const unknown = await server.auth.getClaims(await fake.mintToken({ user: email, signing: "unknown-kid" }));
    expect(unknown.error).toMatchObject({ status: 403, code: "bad_jwt" });
    // getClaims checks signature and exp only: a wrong audience passes it, so the app must check aud itself.
    const wrongAud = await server.auth.getClaims(await fake.mintToken({ user: email, claims: { aud: "anon" } }));
    expect(wrongAud.data?.claims.aud).toBe("anon");
  });

  it("signs out by clearing the cookies", async () => {
    const { email } = await signedUp("ssr-out");
    const { jar, methods } = cookieJar();
    await createServerClient(fake.url, "publishable-key", { cookies: methods, realtime }).auth.signInWithPassword({ email, password: PASSWORD });
    expect(jar.size).toBeGreaterThan(0);
    const { error } = await createServerClient(fake.url, "publishable-key", { cookies: methods, realtime }).auth.signOut();
    expect(error).toBeNull();
    expect([...jar.keys()].filter((n) => n.startsWith("sb-127-auth-token"))).toEqual([]);
  });

  it("completes a PKCE recovery: the email link redirects with ?code= and exchangeCodeForSession signs in", async () => {
    const { email } = await signedUp("pkce");
    const { methods } = cookieJar();
    const first = createServerClient(fake.url, "publishable-key", { cookies: methods, realtime });
    expect((await first.auth.resetPasswordForEmail(email, { redirectTo: "http://127.0.0.1:3100/auth/callback" })).error).toBeNull();
    expect(fake.requests.findLast((r) => r.path === "/auth/v1/recover")?.body).toMatchObject({ code_challenge_method: "s256" });

    const mail = fake.latestEmail(email, "recovery");
    expect(mail?.tokenHash).toMatch(/^pkce_/);
    const res = await fetch(mail?.link ?? "", { redirect: "manual" });
    const code = new URL(res.headers.get("location") ?? "").searchParams.get("code") ?? "";
    expect(code).toMatch(UUID);

    const callback = createServerClient(fake.url, "publishable-key", { cookies: methods, realtime });
    const { data, error } = await callback.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    // Present at runtime, missing from this version's declared type.
    expect(data).toHaveProperty("redirectType", "recovery");
    const again = await createServerClient(fake.url, "publishable-key", { cookies: cookieJar().methods, realtime }).auth.exchangeCodeForSession(code);
    expect(again.error).not.toBeNull();
  });
});

describe("the edge: apikey gate and CORS", () => {
  it("answers 401 without an apikey, except for the JWKS", async () => {
    const res = await fetch(`${fake.authUrl}/settings`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "No API key found in request" });
    expect((await fetch(fake.jwksUrl)).status).toBe(200);
    expect((await fetch(`${fake.authUrl}/settings`, { headers: { apikey: "anything" } })).status).toBe(200);
  });

  it("answers preflights and echoes the origin, exposing the API-version header", async () => {
    const origin = "http://127.0.0.1:3100";
    const preflight = await fetch(`${fake.authUrl}/token?grant_type=password`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "apikey, authorization, content-type, x-client-info, x-supabase-api-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").split(", ");
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "apikey", "content-type", "x-client-info", "x-supabase-api-version"]));

    const actual = await fetch(`${fake.authUrl}/token?grant_type=password`, {
      method: "POST",
      headers: { origin, apikey: "k", "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ email: newEmail("cors"), password: "nope" }),
    });
    expect(actual.headers.get("access-control-allow-origin")).toBe(origin);
    expect(actual.headers.get("access-control-expose-headers")).toContain("x-supabase-api-version");
    expect(actual.headers.get("x-supabase-api-version")).toBe("2024-01-01");
  });
});

describe("with email confirmation and a configured apikey", () => {
  let strict: FakeSupabaseAuth;
  const KEY = "sb_publishable_fake_test_key";

  beforeAll(async () => {
    strict = await startFakeSupabaseAuth({ confirmEmail: true, apiKeys: [KEY], accessTokenTtlSeconds: 120 });
  });
  afterAll(async () => {
    await strict.close();
  });

  const strictClient = (): SupabaseClient =>
    createClient(strict.url, KEY, { auth: { persistSession: false, autoRefreshToken: false }, realtime });

  it("rejects other apikeys like the gateway", async () => {
    const other = createClient(strict.url, "publishable-key", { auth: { persistSession: false }, realtime });
    const { error } = await other.auth.signInWithPassword({ email: newEmail("k"), password: PASSWORD });
    expect(error?.status).toBe(401);
    expect(error?.message).toBe("Invalid API key");
  });

  it("signs up without a session, refuses sign-in until confirmed, confirms by verifyOtp", async () => {
    const email = newEmail("confirm");
    const { data, error } = await strictClient().auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.identities).toHaveLength(1);
    expect(data.user?.email_confirmed_at).toBeUndefined();

    expect((await strictClient().auth.signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({
      status: 400,
      code: "email_not_confirmed",
    });

    // An existing, unconfirmed address gets a fresh confirmation email; the older token dies.
    const firstMail = strict.latestEmail(email, "signup");
    await strictClient().auth.signUp({ email, password: PASSWORD });
    const mail = strict.latestEmail(email, "signup");
    expect(mail?.id).not.toBe(firstMail?.id);
    expect((await strictClient().auth.verifyOtp({ type: "email", token_hash: firstMail?.tokenHash ?? "" })).error?.code).toBe("otp_expired");

    const verified = await strictClient().auth.verifyOtp({ type: "email", token_hash: mail?.tokenHash ?? "" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.expires_in).toBe(120);
    expect((await strictClient().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    // A confirmed address now gets GoTrue's enumeration-safe stand-in: no error, no identities.
    const again = await strictClient().auth.signUp({ email, password: PASSWORD });
    expect(again.error).toBeNull();
    expect(again.data.user?.identities).toEqual([]);
    expect(again.data.session).toBeNull();
  });

  it("holds an email change until the new address confirms it", async () => {
    const email = newEmail("change");
    strict.createUser({ email, password: PASSWORD });
    const auth = strictClient().auth;
    await auth.signInWithPassword({ email, password: PASSWORD });
    const next = newEmail("changed");
    const { data } = await auth.updateUser({ email: next });
    expect(data.user).toMatchObject({ email, new_email: next });
    const mail = strict.latestEmail(next, "email_change");
    expect((await strictClient().auth.verifyOtp({ type: "email_change", email: next, token: mail?.token ?? "" })).error).toBeNull();
    expect(strict.users.find((u) => u.email === next)?.newEmail).toBeNull();
  });
});

describe("standalone process", () => {
  let child: ChildProcess | undefined;

  afterAll(() => {
    if (child?.pid && child.exitCode === null) child.kill("SIGTERM");
  });

  it("prints its URL and serves the control endpoints", async () => {
    const root = path.resolve(__dirname, "../..");
    child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "tests/fake-supabase-auth/server.ts"], {
      cwd: root,
      env: { ...process.env, FAKE_SUPABASE_PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const proc = child;
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      proc.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /fake-supabase-auth listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      proc.stderr?.on("data", (chunk: Buffer) => (out += chunk.toString()));
      proc.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });

    const control = fakeSupabaseAuthControl(url);
    expect(await control.health()).toBe(true);
    const email = newEmail("standalone");
    const user = await control.createUser({ email, password: PASSWORD });
    expect((await control.users()).map((u) => u.id)).toEqual([user.id]);

    const remote = client(url);
    const { data } = await remote.auth.signInWithPassword({ email, password: PASSWORD });
    expect(data.user?.id).toBe(user.id);
    expect(await control.sessions(user.id)).toHaveLength(1);

    const minted = await control.mintToken({ user: email, expiresIn: -5 });
    expect(decodeJwt(minted).sub).toBe(user.id);
    expect((await remote.auth.getUser(minted)).error?.code).toBe("bad_jwt");
    const bad = await fetch(`${url}/__control/mint`, { method: "POST", body: JSON.stringify({ signing: "sideways" }) });
    expect(bad.status).toBe(400);

    const { kid, previousKid } = await control.rotateKey({ dropOld: true });
    expect(decodeProtectedHeader(data.session?.access_token ?? "").kid).toBe(previousKid);
    expect(decodeProtectedHeader(await control.mintToken()).kid).toBe(kid);

    await remote.auth.resetPasswordForEmail(email);
    expect((await control.latestEmail(email, "recovery")).to).toBe(email);
    expect((await control.requests()).map((r) => r.path)).toContain("/auth/v1/recover");

    await control.reset();
    expect(await control.users()).toEqual([]);
    expect(await control.requests()).toEqual([]);

    const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
    proc.kill("SIGTERM");
    await exited;
  });
});
