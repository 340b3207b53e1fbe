/**
 * GoTrue's two error families and their wire shapes. supabase-js reads `error.code` from the body's
 * `code` only when the response carries `X-Supabase-Api-Version` ≥ 2024-01-01, and from
 * `error_code` otherwise, so the fake renders whichever shape the request asked for, as GoTrue does.
 */

/** GoTrue's HTTPError: `{ code, msg }` (API 2024-01-01) or `{ code: <status>, error_code, msg }` (legacy). */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra top-level members, e.g. `weak_password: { reasons }`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** GoTrue's OAuthError (unsupported grant types and the like): `{ error, error_description }`, always 400. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description || error);
  }
}

export function errorBody(err: AuthError | OAuthError, api20240101: boolean): Record<string, unknown> {
  if (err instanceof OAuthError) return { error: err.error, error_description: err.description };
  if (api20240101) return { code: err.code, msg: err.message, ...err.extra };
  return { code: err.status, error_code: err.code, msg: err.message, ...err.extra };
}

export function errorStatus(err: AuthError | OAuthError): number {
  return err instanceof OAuthError ? 400 : err.status;
}

// The errors more than one module raises, with GoTrue's wording.
export const invalidCredentials = (): AuthError => new AuthError(400, "invalid_credentials", "Invalid login credentials");
export const validationFailed = (message: string, status = 400): AuthError => new AuthError(status, "validation_failed", message);
export const otpExpired = (): AuthError => new AuthError(403, "otp_expired", "Token has expired or is invalid");
export const badJwt = (reason: string): AuthError =>
  new AuthError(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${reason}`);
export const noAuthorization = (): AuthError => new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
