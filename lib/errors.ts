/** Marks an AppError whichever copy of this module made it (see hasInstance below). */
const APP_ERROR: unique symbol = Symbol.for("threadkeeper.AppError");

/** An error that reaches the client as `{ error: { code, message, details } }` with `status`. */
export class AppError extends Error {
  /**
   * The server's bundles (instrumentation.ts's and the routes') each carry their own copy of this
   * module, and the database the first one opened throws its copy's errors (the 507 of
   * lib/db/guarded.ts) into the routes: a class-identity check would call them unknown, and a
   * full disk would answer 500. So `instanceof` reads a brand shared through the symbol registry.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [APP_ERROR]?: unknown })[APP_ERROR] === true;
  }

  readonly [APP_ERROR] = true;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** RFC 6750's error codes for a bearer challenge (§3.1). */
export type BearerErrorCode = "invalid_request" | "invalid_token" | "insufficient_scope";

/**
 * The `WWW-Authenticate` header of an RFC 6750 challenge: `error` and `error_description` say
 * why (what MCP clients show), `scope` what is needed. A request with no credentials, or with an
 * unsupported scheme, gets no error information (§3): pass no error.
 */
export function bearerChallenge(error?: BearerErrorCode, description?: string, params: { realm?: string; scope?: string } = {}): Record<string, string> {
  const attributes = [
    params.realm && `realm="${params.realm}"`,
    error && `error="${error}"`,
    error && description && `error_description="${challengeText(description)}"`,
    params.scope && `scope="${params.scope}"`,
  ].filter(Boolean);
  return { "WWW-Authenticate": attributes.length ? `Bearer ${attributes.join(", ")}` : "Bearer" };
}

/** A quoted-string of RFC 6750's error_description: printable ASCII without `"` or `\` (a header carries no more anyway). */
function challengeText(text: string): string {
  return text
    .replace(/…/g, "...")
    .replace(/[‘’"]/g, "'")
    .replace(/\\/g, "/")
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "");
}

export const notFound = (what: string, id?: string) =>
  new AppError(404, "not_found", `${what} not found`, id ? { id } : undefined);

export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, "invalid_request", message, details);

export const conflict = (code: string, message: string, details?: unknown) =>
  new AppError(409, code, message, details);

/**
 * 507: the server's disk (the embedded database's folder, or PostgreSQL's own) has no room, so
 * whatever the request was writing was rolled back. Not a 500: retrying will not help until
 * someone frees space, and the person should know that.
 */
export const storageFull = () =>
  new AppError(
    507,
    "storage_full",
    "The server's storage is full; nothing was saved from this request. Free some disk space on the server (or ask whoever runs it to), then retry.",
  );

/**
 * 502: the file store behind the server (Supabase Storage) failed or refused it. Not a 500: the
 * fault is a service this server depends on, and a retry may well work once it answers again.
 */
export const storageUnavailable = (message: string, details?: unknown) =>
  new AppError(502, "storage_unavailable", message, details);
