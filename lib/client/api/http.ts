// Browser-side client for the REST API. Every failure becomes an ApiError carrying the
// server's { error: { code, message, details } } so the UI can show the server's words.
import type { ApiErrorJson } from "@/lib/contract";
import { currentAccount, refreshSession, signInAgainPath } from "@/lib/client/account";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  toJson(): ApiErrorJson["error"] {
    return { code: this.code, message: this.message, ...(this.details !== undefined ? { details: this.details } : {}) };
  }
}

const STORAGE_FULL = "storage_full";
/** Dispatched on window whenever the server answers `storage_full`. */
export const STORAGE_FULL_EVENT = "threadkeeper:storage-full";

/** The storage banner rechecks at once rather than at its next look; a streamed error too. */
export function noticeStorageFull(code: string | undefined): void {
  if (code === STORAGE_FULL && typeof window !== "undefined") window.dispatchEvent(new Event(STORAGE_FULL_EVENT));
}

function isApiErrorJson(body: unknown): body is ApiErrorJson {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === "object" && error !== null && "message" in error;
}

async function errorFrom(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // A proxy or crash page is not JSON; the status text is the best we have.
  }
  if (isApiErrorJson(body)) {
    noticeStorageFull(body.error.code);
    return new ApiError(res.status, body.error.code ?? "error", body.error.message, withRetryAfter(body.error.details, res));
  }
  // Never the body itself (a proxy's page, someone else's JSON): a sentence and what to do next.
  const reason = `${res.status} ${res.statusText}`.trim();
  return new ApiError(res.status, "http_error", `The server could not answer this request (${reason}). Retry in a moment; if it keeps failing, check that Threadkeeper is running.`);
}

/** Keeps the Retry-After header with the details, so the UI can say when to try again. */
function withRetryAfter(details: unknown, res: Response): unknown {
  const header = Number(res.headers.get("retry-after"));
  if (!Number.isFinite(header) || header <= 0) return details;
  if (details !== null && typeof details === "object") {
    if ("retry_after_seconds" in details) return details;
    return { ...details, retry_after_seconds: header };
  }
  return details === undefined ? { retry_after_seconds: header } : details;
}

/** Seconds to wait before retrying, from a rate-limit error's details. */
export function retryAfterSeconds(error: ApiErrorJson["error"]): number | null {
  const d = error.details;
  if (d === null || typeof d !== "object" || !("retry_after_seconds" in d)) return null;
  const n = Number((d as { retry_after_seconds: unknown }).retry_after_seconds);
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : null;
}

/**
 * A fetch that never throws a bare TypeError: a dropped connection reads like any other API
 * error. In SaaS mode a 401 refreshes the session once and retries (the access token may
 * have expired while the tab slept); if that fails the user is sent to sign in.
 */
export async function send(path: string, init?: RequestInit): Promise<Response> {
  let res = await fetchOnce(path, init);
  if (res.status === 401 && currentAccount().mode === "supabase") {
    if (await refreshSession()) res = await fetchOnce(path, init);
    const signIn = res.status === 401 ? signInAgainPath() : null;
    if (signIn) window.location.assign(signIn);
  }
  if (!res.ok) throw await errorFrom(res);
  return res;
}

async function fetchOnce(path: string, init: RequestInit | undefined): Promise<Response> {
  try {
    return await fetch(path, { ...init, headers: requestHeaders(init) });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", "Could not reach the server. Check that it is running and retry.");
  }
}

function requestHeaders(init: RequestInit | undefined): Headers {
  const headers = new Headers(init?.headers);
  if (!headers.has("accept")) headers.set("Accept", "application/json");
  // Writes are JSON even without a body: the server refuses other browser writes (CSRF).
  const method = (init?.method ?? "GET").toUpperCase();
  // A multipart upload names its own boundary in its Content-Type: the browser writes it.
  const multipart = typeof FormData !== "undefined" && init?.body instanceof FormData;
  if (method !== "GET" && method !== "HEAD" && !multipart && !headers.has("content-type")) headers.set("Content-Type", "application/json");
  return headers;
}

export async function json<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await send(path, init);
  return (await res.json()) as T;
}

export function withBody(method: string, body: unknown, signal?: AbortSignal): RequestInit {
  return { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal };
}

/** Error shape for anything thrown, so stores keep one kind of error. */
export function describeError(err: unknown): ApiErrorJson["error"] {
  if (err instanceof ApiError) return err.toJson();
  if (err instanceof Error) return { code: "client_error", message: err.message };
  return { code: "client_error", message: String(err) };
}
