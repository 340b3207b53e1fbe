/**
 * Access tokens with Supabase's claims, the session JSON supabase-js stores, and minting of
 * arbitrary (including invalid) tokens for tests of the app's verifier.
 */
import { randomUUID } from "node:crypto";
import type { JWTPayload } from "jose";
import type { KeyRing } from "./keys";
import { userJson } from "./shapes";
import type { SessionRecord, UserRecord } from "./store";
import type { MintOptions } from "./types";

export class TokenIssuer {
  constructor(
    private readonly keys: KeyRing,
    /** `${url}/auth/v1`, the `iss` of every token. */
    readonly issuer: string,
    readonly ttlSeconds: number,
  ) {}

  /** GoTrue's AccessTokenResponse (what `/token`, `/verify` and auto-confirmed `/signup` return). */
  async sessionJson(user: UserRecord, session: SessionRecord): Promise<Record<string, unknown>> {
    const now = Math.floor(Date.now() / 1000);
    const token = await this.keys.sign(this.claims(user, session, now, this.ttlSeconds), { signing: "current" });
    return {
      access_token: token,
      token_type: "bearer",
      expires_in: this.ttlSeconds,
      expires_at: now + this.ttlSeconds,
      refresh_token: session.refreshToken,
      user: userJson(user),
    };
  }

  /** The URL fragment an implicit-flow email link redirects with. */
  async sessionFragment(user: UserRecord, session: SessionRecord, type: string): Promise<string> {
    const json = await this.sessionJson(user, session);
    return new URLSearchParams({
      access_token: String(json.access_token),
      expires_at: String(json.expires_at),
      expires_in: String(json.expires_in),
      refresh_token: session.refreshToken,
      token_type: "bearer",
      type,
    }).toString();
  }

  /**
   * A token for tests. `subject` (a user with a live session) supplies sub/email/session_id;
   * without it they are random. `claims` entries override the defaults, `null` removes one.
   */
  async mint(opts: MintOptions, subject: { user: UserRecord; session: SessionRecord } | null): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const expiresIn = opts.expiresIn ?? this.ttlSeconds;
    const base: JWTPayload = subject
      ? this.claims(subject.user, subject.session, now, expiresIn)
      : {
          aud: "authenticated",
          exp: now + expiresIn,
          iat: now,
          iss: this.issuer,
          sub: randomUUID(),
          email: `minted-${randomUUID().slice(0, 8)}@example.test`,
          phone: "",
          app_metadata: { provider: "email", providers: ["email"] },
          user_metadata: {},
          role: "authenticated",
          aal: "aal1",
          amr: [{ method: "password", timestamp: now }],
          session_id: randomUUID(),
          is_anonymous: false,
        };
    // An expired token is issued in the past so that iat < exp still holds.
    if (expiresIn <= 0) base.iat = now + expiresIn - this.ttlSeconds;
    const payload: JWTPayload = { ...base };
    for (const [key, value] of Object.entries(opts.claims ?? {})) {
      if (value === null) delete payload[key];
      else payload[key] = value;
    }
    return this.keys.sign(payload, { signing: opts.signing ?? "current", kid: opts.kid, hsSecret: opts.hsSecret });
  }

  private claims(user: UserRecord, session: SessionRecord, now: number, expiresIn: number): JWTPayload {
    return {
      aud: "authenticated",
      exp: now + expiresIn,
      iat: now,
      iss: this.issuer,
      sub: user.id,
      email: user.email,
      phone: "",
      app_metadata: user.appMetadata,
      user_metadata: user.userMetadata,
      role: "authenticated",
      aal: "aal1",
      amr: session.amr,
      session_id: session.id,
      is_anonymous: false,
    };
  }
}
