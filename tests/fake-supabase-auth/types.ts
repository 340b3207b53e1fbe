/**
 * Shared types of the fake Supabase Auth (GoTrue) server, free of runtime code so the HTTP
 * control client (./control.ts) can import them without pulling in the server.
 */

/** One-time-token purposes, as GoTrue names them in `/verify`'s `type`. */
export type EmailType = "signup" | "recovery" | "email_change";

/** An email the fake "sent" instead of delivering it; read it with `fake.emails` or `GET /__control/emails`. */
export interface SentEmail {
  id: string;
  type: EmailType;
  to: string;
  /** The 6-digit OTP (`{{ .Token }}` in GoTrue's templates): `verifyOtp({ type, email, token })`. */
  token: string;
  /** `{{ .TokenHash }}`: `verifyOtp({ type, token_hash })`, or a link to your own confirm route. */
  tokenHash: string;
  /** `{{ .ConfirmationURL }}`: GET it to be redirected to `redirectTo` with a session (implicit) or `?code=` (PKCE). */
  link: string;
  redirectTo: string;
  /** ISO timestamp. */
  sentAt: string;
}

/** A user as the fake stores it, without the password. */
export interface FakeUser {
  id: string;
  email: string;
  /** ISO timestamp, null until the address is confirmed. */
  emailConfirmedAt: string | null;
  /** Pending address of an email change awaiting confirmation (confirmEmail mode only). */
  newEmail: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  lastSignInAt: string | null;
}

export interface FakeSession {
  id: string;
  userId: string;
  createdAt: string;
  /** The refresh token that can still be exchanged (each exchange rotates it). */
  refreshToken: string;
  amr: AmrEntry[];
}

export interface AmrEntry {
  method: "password" | "otp" | "recovery" | "email/signup" | "email_change";
  timestamp: number;
}

/** One request to `/auth/v1/*` (control and health endpoints are not recorded). */
export interface RecordedAuthRequest {
  method: string;
  /** Path without the query string, e.g. `/auth/v1/token`. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased header names; multi-valued headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON body; null when empty or not JSON. */
  body: unknown;
  /** The status the fake answered with. */
  status: number;
}

/**
 * How a minted token is signed; everything but "current" is an attack a verifier must reject.
 * - current: the published signing key (a valid token unless the claims say otherwise)
 * - forged: an attacker's ES256 key, but the header claims the published `kid`
 * - unknown-kid: an attacker's ES256 key with a `kid` that is not in the JWKS
 * - none: `alg: "none"`, empty signature (header still claims the published `kid`)
 * - hs256: HMAC-SHA256 with a guessable secret (default: the Supabase CLI's well-known local
 *   JWT secret), header claiming the published `kid` — the classic algorithm-confusion attempt
 */
export type MintSigning = "current" | "forged" | "unknown-kid" | "none" | "hs256";

export interface MintOptions {
  /**
   * Base the claims on this user (id or email) and open a live session for it, so the token is
   * also accepted by the fake's own `GET /auth/v1/user`. Without it: a random `sub` and
   * `session_id` that the fake does not know.
   */
  user?: string;
  /** Merged over the default claims; a `null` value removes the claim. */
  claims?: Record<string, unknown>;
  /** Seconds until `exp` (negative: already expired). Default: the server's access-token TTL. */
  expiresIn?: number;
  /** Default "current". */
  signing?: MintSigning;
  /** Overrides the header's `kid` (e.g. a kid retired by `rotateKey`). */
  kid?: string;
  /** Secret for `signing: "hs256"`. */
  hsSecret?: string;
}

export interface RotateKeyOptions {
  /** Stop publishing the old key at once (tokens it signed then fail verification). */
  dropOld?: boolean;
  /** How long the old key stays in the JWKS. Default: the access-token TTL, so every token it signed stays verifiable until it expires. */
  graceSeconds?: number;
}

export interface RotateKeyResult {
  kid: string;
  previousKid: string;
}

export interface CreateUserInput {
  email: string;
  password: string;
  /** Default true (a user who can sign in at once). */
  confirmed?: boolean;
  userMetadata?: Record<string, unknown>;
}
