/**
 * Users, sessions, refresh tokens, one-time tokens and PKCE flow states, with GoTrue's rules
 * (rotation and reuse detection, password-change logout, enumeration-safe answers). Knows nothing
 * about HTTP or JWTs; failures are thrown as GoTrue errors for the router to render.
 */
import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { AuthError, invalidCredentials, otpExpired, validationFailed } from "./errors";
import type { AmrEntry, CreateUserInput, EmailType, FakeSession, FakeUser, SentEmail } from "./types";

export interface UserRecord {
  id: string;
  identityId: string;
  email: string;
  passwordHash: string;
  salt: string;
  emailConfirmedAt: Date | null;
  newEmail: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  lastSignInAt: Date | null;
  confirmationSentAt: Date | null;
  recoverySentAt: Date | null;
  emailChangeSentAt: Date | null;
}

export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: Date;
  amr: AmrEntry[];
  /** The only refresh token of this session that can still be exchanged. */
  refreshToken: string;
}

interface RefreshRecord {
  sessionId: string;
  revoked: boolean;
}

interface FlowState {
  codeChallenge: string;
  method: "s256" | "plain";
  userId: string;
  amrMethod: AmrEntry["method"];
  /** Set when the email link is followed; exchanged once at `/token?grant_type=pkce`. */
  authCode: string | null;
}

interface OneTimeToken {
  type: EmailType;
  userId: string;
  /** The address the token was sent to (the new address for an email change). */
  email: string;
  tokenHash: string;
  expiresAt: number;
  flow: FlowState | null;
}

export interface PkceParams {
  codeChallenge: string | null;
  method: string | null;
}

export interface StoreConfig {
  confirmEmail: boolean;
  minPasswordLength: number;
  otpTtlSeconds: number;
  /** `${url}/auth/v1`, for the links in sent emails. */
  authUrl: string;
  /** Where email links lead when the request named no redirect_to (GoTrue's SITE_URL). */
  siteUrl: string;
}

/** `verify` types and which one-time-token purposes each accepts ("email" is GoTrue's catch-all for email OTPs). */
const VERIFY_TYPES: Record<string, EmailType[]> = {
  signup: ["signup"],
  email: ["signup", "recovery"],
  magiclink: ["recovery"],
  recovery: ["recovery"],
  email_change: ["email_change"],
};

const AMR_FOR: Record<EmailType, AmrEntry["method"]> = {
  signup: "email/signup",
  recovery: "recovery",
  email_change: "email_change",
};

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function hashPassword(password: string, salt: string): string {
  // A fast hash is enough for a fake; the point is that `users` snapshots never hold passwords.
  return createHash("sha256").update(`${salt}:${password}`).digest("hex");
}

/** GoTrue's token hash: hex SHA-224 of address + OTP, so `{ email, token }` and `{ token_hash }` meet. */
function tokenHashFor(email: string, otp: string): string {
  return createHash("sha224").update(email + otp).digest("hex");
}

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** GoTrue's refresh tokens are short alphanumeric strings, not JWTs; cookie sizes depend on it. */
function newRefreshToken(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(12), (b) => alphabet[b % alphabet.length]).join("");
}

/** A copy without the password, safe to hand to tests and to log. */
export function publicUser(u: UserRecord): FakeUser {
  return {
    id: u.id,
    email: u.email,
    emailConfirmedAt: u.emailConfirmedAt?.toISOString() ?? null,
    newEmail: u.newEmail,
    userMetadata: structuredClone(u.userMetadata),
    appMetadata: structuredClone(u.appMetadata),
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
    lastSignInAt: u.lastSignInAt?.toISOString() ?? null,
  };
}

export class AuthStore {
  private readonly users = new Map<string, UserRecord>();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly refreshTokens = new Map<string, RefreshRecord>();
  private otps: OneTimeToken[] = [];
  private readonly flows: FlowState[] = [];
  /** Live array: tests may hold a reference. */
  readonly emails: SentEmail[] = [];

  constructor(private readonly config: StoreConfig) {}

  reset(): void {
    this.users.clear();
    this.sessions.clear();
    this.refreshTokens.clear();
    this.otps = [];
    this.flows.length = 0;
    this.emails.length = 0;
  }

  // -------------------------------------------------------------------------------------------
  // Lookups
  // -------------------------------------------------------------------------------------------

  user(id: string): UserRecord | undefined {
    return this.users.get(id);
  }

  session(id: string): SessionRecord | undefined {
    return this.sessions.get(id);
  }

  userByEmail(email: string): UserRecord | undefined {
    const wanted = email.trim().toLowerCase();
    for (const user of this.users.values()) if (user.email === wanted) return user;
    return undefined;
  }

  /** By id or email. */
  findUser(idOrEmail: string): UserRecord | undefined {
    return this.users.get(idOrEmail) ?? this.userByEmail(idOrEmail);
  }

  listUsers(): FakeUser[] {
    return [...this.users.values()].map(publicUser);
  }

  listSessions(userId?: string): FakeSession[] {
    return [...this.sessions.values()]
      .filter((s) => userId === undefined || s.userId === userId)
      .map((s) => ({ id: s.id, userId: s.userId, createdAt: s.createdAt.toISOString(), refreshToken: s.refreshToken, amr: [...s.amr] }));
  }

  // -------------------------------------------------------------------------------------------
  // Sign-up and sign-in
  // -------------------------------------------------------------------------------------------

  createUser(input: CreateUserInput): UserRecord {
    const email = this.validEmail(input.email);
    this.checkPassword(input.password);
    if (this.userByEmail(email)) throw new AuthError(422, "email_exists", "A user with this email address has already been registered");
    const now = new Date();
    const id = randomUUID();
    const salt = randomBytes(8).toString("hex");
    const confirmed = input.confirmed ?? true;
    const user: UserRecord = {
      id,
      identityId: randomUUID(),
      email,
      salt,
      passwordHash: hashPassword(input.password, salt),
      emailConfirmedAt: confirmed ? now : null,
      newEmail: null,
      // GoTrue copies the email identity's data into user_metadata beside what the sign-up passed.
      userMetadata: { ...input.userMetadata, email, email_verified: confirmed, phone_verified: false, sub: id },
      appMetadata: { provider: "email", providers: ["email"] },
      createdAt: now,
      updatedAt: now,
      lastSignInAt: null,
      confirmationSentAt: null,
      recoverySentAt: null,
      emailChangeSentAt: null,
    };
    this.users.set(id, user);
    return user;
  }

  /**
   * Returns the user and, with auto-confirm (confirmEmail false), a fresh session. With
   * confirmEmail true an existing address gets GoTrue's enumeration-safe answer: a confirmed user
   * yields an obfuscated stand-in (random id, no identities; `obfuscated` set), an unconfirmed
   * one a new confirmation email.
   */
  signUp(
    body: { email: unknown; password: unknown; data: unknown },
    redirectTo: string | null,
    pkce: PkceParams,
  ): { user: UserRecord; session: SessionRecord | null; obfuscated: boolean } {
    if (typeof body.email !== "string" || body.email === "") throw validationFailed("An email address is required", 422);
    if (typeof body.password !== "string" || body.password === "") throw validationFailed("Signup requires a valid password", 422);
    const email = this.validEmail(body.email);
    // Strength before existence, as GoTrue orders them: a weak password says nothing about the address.
    this.checkPassword(body.password);
    const existing = this.userByEmail(email);
    if (existing) {
      if (!this.config.confirmEmail) throw new AuthError(422, "user_already_exists", "User already registered");
      if (existing.emailConfirmedAt) return { user: this.obfuscatedCopy(existing), session: null, obfuscated: true };
      this.sendEmail("signup", existing, existing.email, redirectTo, this.flowFor(pkce, existing.id, "email/signup"));
      return { user: existing, session: null, obfuscated: false };
    }
    const data = typeof body.data === "object" && body.data !== null && !Array.isArray(body.data) ? (body.data as Record<string, unknown>) : {};
    const user = this.createUser({ email, password: body.password, confirmed: !this.config.confirmEmail, userMetadata: data });
    if (this.config.confirmEmail) {
      this.sendEmail("signup", user, user.email, redirectTo, this.flowFor(pkce, user.id, "email/signup"));
      return { user, session: null, obfuscated: false };
    }
    return { user, session: this.createSession(user, "password"), obfuscated: false };
  }

  passwordGrant(email: unknown, password: unknown): { user: UserRecord; session: SessionRecord } {
    if (typeof email !== "string" || typeof password !== "string") throw invalidCredentials();
    const user = this.userByEmail(email);
    // Unknown address and wrong password answer alike, so sign-in does not reveal who has an account.
    if (!user || hashPassword(password, user.salt) !== user.passwordHash) throw invalidCredentials();
    if (!user.emailConfirmedAt) throw new AuthError(400, "email_not_confirmed", "Email not confirmed");
    return { user, session: this.createSession(user, "password") };
  }

  createSession(user: UserRecord, method: AmrEntry["method"]): SessionRecord {
    const now = new Date();
    const session: SessionRecord = {
      id: randomUUID(),
      userId: user.id,
      createdAt: now,
      amr: [{ method, timestamp: Math.floor(now.getTime() / 1000) }],
      refreshToken: newRefreshToken(),
    };
    this.sessions.set(session.id, session);
    this.refreshTokens.set(session.refreshToken, { sessionId: session.id, revoked: false });
    user.lastSignInAt = now;
    return session;
  }

  /**
   * Exchanges a refresh token for the next one. A token already exchanged is a replay (or a
   * stolen copy): like GoTrue with a zero reuse interval, the whole session's token family is
   * revoked, so the legitimate holder's newer token stops working too.
   */
  refresh(token: unknown): { user: UserRecord; session: SessionRecord } {
    if (typeof token !== "string" || token === "") throw validationFailed("refresh_token required");
    const record = this.refreshTokens.get(token);
    const session = record ? this.sessions.get(record.sessionId) : undefined;
    const user = session ? this.users.get(session.userId) : undefined;
    if (!record || !session || !user) {
      throw new AuthError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    }
    if (record.revoked) {
      for (const other of this.refreshTokens.values()) if (other.sessionId === session.id) other.revoked = true;
      throw new AuthError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
    }
    record.revoked = true;
    session.refreshToken = newRefreshToken();
    this.refreshTokens.set(session.refreshToken, { sessionId: session.id, revoked: false });
    return { user, session };
  }

  /** Deletes sessions with their refresh tokens (later exchanges: refresh_token_not_found). */
  logout(user: UserRecord, currentSessionId: string | null, scope: "global" | "local" | "others"): void {
    for (const session of [...this.sessions.values()]) {
      if (session.userId !== user.id) continue;
      const isCurrent = session.id === currentSessionId;
      if (scope === "global" || (scope === "local" && isCurrent) || (scope === "others" && !isCurrent)) this.deleteSession(session.id);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Account changes
  // -------------------------------------------------------------------------------------------

  updateUser(user: UserRecord, currentSessionId: string | null, body: Record<string, unknown>, redirectTo: string | null, pkce: PkceParams): void {
    const now = new Date();
    if (body.password !== undefined && body.password !== null) {
      if (typeof body.password !== "string") throw validationFailed("Password must be a string", 422);
      this.checkPassword(body.password);
      if (hashPassword(body.password, user.salt) === user.passwordHash) {
        throw new AuthError(422, "same_password", "New password should be different from the old password.");
      }
      user.passwordHash = hashPassword(body.password, user.salt);
      // GoTrue signs a password change out of every other session.
      for (const session of [...this.sessions.values()]) {
        if (session.userId === user.id && session.id !== currentSessionId) this.deleteSession(session.id);
      }
    }
    if (typeof body.data === "object" && body.data !== null && !Array.isArray(body.data)) {
      for (const [key, value] of Object.entries(body.data as Record<string, unknown>)) {
        if (value === null) delete user.userMetadata[key];
        else user.userMetadata[key] = value;
      }
    }
    if (typeof body.email === "string" && body.email.trim().toLowerCase() !== user.email) {
      const email = this.validEmail(body.email);
      const holder = this.userByEmail(email);
      if (holder && holder.id !== user.id) {
        throw new AuthError(422, "email_exists", "A user with this email address has already been registered");
      }
      if (this.config.confirmEmail) {
        user.newEmail = email;
        this.sendEmail("email_change", user, email, redirectTo, this.flowFor(pkce, user.id, "email_change"));
      } else {
        this.setEmail(user, email);
      }
    }
    user.updatedAt = now;
  }

  /** Always silent about whether the address has an account (GoTrue answers `{}` either way). */
  recover(email: unknown, redirectTo: string | null, pkce: PkceParams): void {
    if (typeof email !== "string" || email === "") throw validationFailed("Password recovery requires an email", 422);
    const user = this.userByEmail(this.validEmail(email));
    if (user) this.sendEmail("recovery", user, user.email, redirectTo, this.flowFor(pkce, user.id, "recovery"));
  }

  /**
   * Consumes a one-time token given either as `token_hash` or as `email` + 6-digit `token`, and
   * applies its effect (confirm the address, apply the email change). Returns the user and the
   * PKCE flow the email was sent under, if any.
   */
  verify(params: { type: unknown; token?: unknown; token_hash?: unknown; email?: unknown }): {
    user: UserRecord;
    method: AmrEntry["method"];
    flow: FlowState | null;
  } {
    const purposes = typeof params.type === "string" ? VERIFY_TYPES[params.type] : undefined;
    if (!purposes) throw validationFailed(`Verify requires a verification type`);
    let hash: string;
    let email: string | null = null;
    if (typeof params.token_hash === "string" && params.token_hash !== "") {
      // PKCE links carry the hash with GoTrue's "pkce_" prefix.
      hash = params.token_hash.replace(/^pkce_/, "");
    } else if (typeof params.token === "string" && params.token !== "" && typeof params.email === "string") {
      email = params.email.trim().toLowerCase();
      hash = tokenHashFor(email, params.token);
    } else {
      throw validationFailed("Verify requires either a token or a token hash");
    }
    const now = Date.now();
    const otp = this.otps.find((o) => o.tokenHash === hash && purposes.includes(o.type) && (email === null || o.email === email));
    const user = otp ? this.users.get(otp.userId) : undefined;
    if (!otp || !user || otp.expiresAt <= now) throw otpExpired();
    this.otps = this.otps.filter((o) => !(o.userId === otp.userId && o.type === otp.type));

    const at = new Date(now);
    if (otp.type === "email_change") {
      this.setEmail(user, otp.email);
    } else if (!user.emailConfirmedAt) {
      // Following a recovery link proves the address as much as a confirmation link does.
      user.emailConfirmedAt = at;
      user.userMetadata.email_verified = true;
    }
    user.updatedAt = at;
    return { user, method: AMR_FOR[otp.type], flow: otp.flow };
  }

  /** The `?code=` a PKCE email link redirects with. */
  issueAuthCode(flow: FlowState): string {
    flow.authCode = randomUUID();
    return flow.authCode;
  }

  exchangeAuthCode(authCode: unknown, verifier: unknown): { user: UserRecord; session: SessionRecord } {
    if (typeof authCode !== "string" || typeof verifier !== "string" || authCode === "" || verifier === "") {
      throw validationFailed("invalid request: both auth code and code verifier should be non-empty");
    }
    const index = this.flows.findIndex((f) => f.authCode === authCode);
    const flow = this.flows[index];
    const user = flow ? this.users.get(flow.userId) : undefined;
    if (!flow || !user) throw new AuthError(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
    const expected = flow.method === "s256" ? s256(verifier) : verifier;
    if (expected !== flow.codeChallenge) {
      throw new AuthError(403, "bad_code_verifier", "code challenge does not match previously saved code verifier");
    }
    this.flows.splice(index, 1);
    return { user, session: this.createSession(user, flow.amrMethod) };
  }

  // -------------------------------------------------------------------------------------------
  // Internals
  // -------------------------------------------------------------------------------------------

  private validEmail(raw: string): string {
    const email = raw.trim().toLowerCase();
    if (!EMAIL_PATTERN.test(email)) throw validationFailed("Unable to validate email address: invalid format");
    return email;
  }

  private checkPassword(password: string): void {
    if (password.length < this.config.minPasswordLength) {
      throw new AuthError(422, "weak_password", `Password should be at least ${this.config.minPasswordLength} characters.`, {
        weak_password: { reasons: ["length"] },
      });
    }
  }

  private setEmail(user: UserRecord, email: string): void {
    user.email = email;
    user.newEmail = null;
    user.userMetadata.email = email;
  }

  private deleteSession(id: string): void {
    this.sessions.delete(id);
    for (const [token, record] of this.refreshTokens) if (record.sessionId === id) this.refreshTokens.delete(token);
  }

  private flowFor(pkce: PkceParams, userId: string, amrMethod: AmrEntry["method"]): FlowState | null {
    if (!pkce.codeChallenge) return null;
    const method = pkce.method?.toLowerCase() === "plain" ? "plain" : "s256";
    const flow: FlowState = { codeChallenge: pkce.codeChallenge, method, userId, amrMethod, authCode: null };
    this.flows.push(flow);
    return flow;
  }

  private sendEmail(type: EmailType, user: UserRecord, to: string, redirectTo: string | null, flow: FlowState | null): void {
    const now = new Date();
    const otp = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const tokenHash = tokenHashFor(to, otp);
    // A new email replaces the previous token of the same purpose, as GoTrue keeps one per purpose.
    this.otps = this.otps.filter((o) => !(o.userId === user.id && o.type === type));
    this.otps.push({ type, userId: user.id, email: to, tokenHash, expiresAt: now.getTime() + this.config.otpTtlSeconds * 1000, flow });
    if (type === "signup") user.confirmationSentAt = now;
    else if (type === "recovery") user.recoverySentAt = now;
    else user.emailChangeSentAt = now;

    const target = redirectTo ?? this.config.siteUrl;
    const linkToken = flow ? `pkce_${tokenHash}` : tokenHash;
    const link = `${this.config.authUrl}/verify?${new URLSearchParams({ token: linkToken, type, redirect_to: target })}`;
    this.emails.push({ id: randomUUID(), type, to, token: otp, tokenHash: linkToken, link, redirectTo: target, sentAt: now.toISOString() });
  }

  private obfuscatedCopy(user: UserRecord): UserRecord {
    const now = new Date();
    return {
      ...user,
      id: randomUUID(),
      identityId: "",
      emailConfirmedAt: null,
      userMetadata: {},
      createdAt: now,
      updatedAt: now,
      lastSignInAt: null,
      confirmationSentAt: now,
    };
  }
}
