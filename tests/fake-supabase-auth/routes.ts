/**
 * The `/auth/v1` endpoints supabase-js calls, as GoTrue answers them. Transport concerns (CORS,
 * the gateway's apikey check, rendering errors, recording) belong to ./server.ts.
 */
import type { IncomingHttpHeaders } from "node:http";
import { AuthError, OAuthError, badJwt, noAuthorization } from "./errors";
import { TokenRejected, type KeyRing } from "./keys";
import { userJson } from "./shapes";
import type { AuthStore, PkceParams, SessionRecord, UserRecord } from "./store";
import type { TokenIssuer } from "./tokens";

export interface AuthRequest {
  method: string;
  /** Path below `/auth/v1`, e.g. `/token`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The JSON body when it is an object, else null. */
  body: Record<string, unknown> | null;
}

export type AuthReply =
  | { kind: "json"; status: number; body: unknown }
  | { kind: "empty"; status: number }
  | { kind: "redirect"; location: string };

/** Raised for an unknown route; the gateway in front of GoTrue answers it, not GoTrue. */
export class NoRoute extends Error {}

const json = (body: unknown, status = 200): AuthReply => ({ kind: "json", status, body });

function pkceOf(body: Record<string, unknown>): PkceParams {
  return {
    codeChallenge: typeof body.code_challenge === "string" && body.code_challenge !== "" ? body.code_challenge : null,
    method: typeof body.code_challenge_method === "string" ? body.code_challenge_method : null,
  };
}

export class AuthRoutes {
  constructor(
    private readonly store: AuthStore,
    private readonly issuer: TokenIssuer,
    private readonly keys: KeyRing,
    private readonly settings: { confirmEmail: boolean; siteUrl: string },
  ) {}

  async handle(req: AuthRequest): Promise<AuthReply> {
    const body = req.body ?? {};
    const redirectTo = req.query.get("redirect_to");
    const route = `${req.method} ${req.path}`;
    switch (route) {
      case "GET /.well-known/jwks.json":
        return json(this.keys.jwks());
      case "GET /settings":
        return json({
          external: { email: true, phone: false, anonymous_users: false },
          disable_signup: false,
          mailer_autoconfirm: !this.settings.confirmEmail,
          phone_autoconfirm: false,
          sms_provider: "",
          saml_enabled: false,
        });
      case "POST /signup": {
        const { user, session } = this.store.signUp({ email: body.email, password: body.password, data: body.data }, redirectTo, pkceOf(body));
        // Without auto-confirm GoTrue answers with the bare user; supabase-js then reports session: null.
        return json(session ? await this.issuer.sessionJson(user, session) : userJson(user));
      }
      case "POST /token":
        return this.token(req.query.get("grant_type"), body);
      case "GET /user": {
        const { user } = await this.authenticate(req);
        return json(userJson(user));
      }
      case "PUT /user": {
        const { user, session } = await this.authenticate(req);
        this.store.updateUser(user, session?.id ?? null, body, redirectTo, pkceOf(body));
        return json(userJson(user));
      }
      case "POST /logout": {
        const scope = req.query.get("scope") ?? "global";
        if (scope !== "global" && scope !== "local" && scope !== "others") {
          throw new AuthError(400, "validation_failed", `Unsupported logout scope ${JSON.stringify(scope)}`);
        }
        const { user, session } = await this.authenticate(req);
        this.store.logout(user, session?.id ?? null, scope);
        return { kind: "empty", status: 204 };
      }
      case "POST /recover":
        this.store.recover(body.email, redirectTo, pkceOf(body));
        return json({});
      case "POST /verify": {
        // A POST verify answers with a session whatever flow the email was sent under.
        const { user, method } = this.store.verify({ type: body.type, token: body.token, token_hash: body.token_hash, email: body.email });
        return json(await this.issuer.sessionJson(user, this.store.createSession(user, method)));
      }
      case "GET /verify":
        return this.followEmailLink(req.query);
      default:
        throw new NoRoute(route);
    }
  }

  private async token(grantType: string | null, body: Record<string, unknown>): Promise<AuthReply> {
    switch (grantType) {
      case "password": {
        const { user, session } = this.store.passwordGrant(body.email, body.password);
        return json(await this.issuer.sessionJson(user, session));
      }
      case "refresh_token": {
        const { user, session } = this.store.refresh(body.refresh_token);
        return json(await this.issuer.sessionJson(user, session));
      }
      case "pkce": {
        const { user, session } = this.store.exchangeAuthCode(body.auth_code, body.code_verifier);
        return json(await this.issuer.sessionJson(user, session));
      }
      default:
        throw new OAuthError("unsupported_grant_type", "");
    }
  }

  /**
   * An email's `{{ .ConfirmationURL }}` clicked in a browser: redirect to `redirect_to` with the
   * session in the fragment (implicit flow) or a `?code=` to exchange (PKCE), errors likewise.
   */
  private async followEmailLink(query: URLSearchParams): Promise<AuthReply> {
    const token = query.get("token") ?? "";
    const type = query.get("type") ?? "";
    const target = new URL(query.get("redirect_to") ?? this.settings.siteUrl);
    const pkce = token.startsWith("pkce_");
    try {
      const { user, method, flow } = this.store.verify({ type, token_hash: token });
      if (flow) {
        target.searchParams.set("code", this.store.issueAuthCode(flow));
      } else {
        target.hash = await this.issuer.sessionFragment(user, this.store.createSession(user, method), type);
      }
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      const params = new URLSearchParams({
        error: "access_denied",
        error_code: err.code,
        error_description: err.code === "otp_expired" ? "Email link is invalid or has expired" : err.message,
      });
      if (pkce) for (const [k, v] of params) target.searchParams.set(k, v);
      else target.hash = params.toString();
    }
    return { kind: "redirect", location: target.toString() };
  }

  /** GoTrue's requireAuthentication: a valid bearer JWT whose user and session still exist. */
  private async authenticate(req: AuthRequest): Promise<{ user: UserRecord; session: SessionRecord | null }> {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    if (!match) throw noAuthorization();
    let claims: Awaited<ReturnType<KeyRing["verify"]>>;
    try {
      claims = await this.keys.verify(match[1]);
    } catch (err) {
      if (err instanceof TokenRejected) throw badJwt(err.message);
      throw err;
    }
    const user = typeof claims.sub === "string" ? this.store.user(claims.sub) : undefined;
    if (!user) throw new AuthError(403, "user_not_found", "User from sub claim in JWT does not exist");
    let session: SessionRecord | null = null;
    if (typeof claims.session_id === "string") {
      session = this.store.session(claims.session_id) ?? null;
      // supabase-js turns this code into AuthSessionMissingError (signed out elsewhere).
      if (!session || session.userId !== user.id) {
        throw new AuthError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
      }
    }
    return { user, session };
  }
}
