// Every error an operation can answer, by status and code. The builder adds those every
// route shares (the edge, the caller, malformed input) and each operation lists its own, so
// the document names the codes a client can switch on.

export interface ErrorCase {
  status: number;
  code: string;
  meaning: string;
  /** Response headers that come with it (name: description). */
  headers?: Record<string, string>;
}

const RETRY_AFTER = { "Retry-After": "Seconds to wait before retrying." };

const error = (status: number, code: string, meaning: string, headers?: Record<string, string>): ErrorCase => ({
  status,
  code,
  meaning,
  headers,
});

export const E = {
  // Input: derived from an operation's query and body.
  invalidRequest: error(400, "invalid_request", "A field is missing, unknown, of the wrong type or out of range; the message names it and `details.issues` lists every problem."),
  malformedJson: error(400, "malformed_json", "The body is not valid JSON."),
  payloadTooLarge: error(413, "payload_too_large", "The body exceeds the operation's size limit (`details.max_bytes`)."),
  // Path parameters: a malformed id names nothing, so it is a 404 like an unknown one.
  notFound: error(404, "not_found", "No such object: it never existed, was deleted, or belongs to another user (answered alike, so ids reveal nothing)."),

  // The edge and the caller: every operation.
  unauthenticated: error(401, "unauthenticated", "SaaS mode: no credentials, or an Authorization header that is not `Bearer <token>`.", {
    "WWW-Authenticate": "RFC 6750's challenge: `Bearer` when no credentials came (or another scheme); `Bearer error=\"invalid_token\", error_description=\"<why>\"` when a key or token came and is not valid (malformed, unknown, revoked, expired).",
  }),
  invalidToken: error(401, "invalid_token", "The access token is not valid (forged, unknown signing key, wrong audience or issuer)."),
  tokenExpired: error(401, "token_expired", "The access token has expired; refresh it or sign in again."),
  invalidApiKey: error(401, "invalid_api_key", "The API key is malformed, fails its checksum, is unknown, revoked or expired (`details.reason`)."),
  forbiddenHost: error(403, "forbidden_host", "The Host header names a server this is not (DNS rebinding defence; THREADKEEPER_ALLOWED_HOSTS adds names)."),
  insufficientScope: error(403, "insufficient_scope", "The API key lacks the scope this operation needs (`details.required_scope`).", {
    "WWW-Authenticate": "With `insufficient_scope`: `Bearer error=\"insufficient_scope\", error_description=\"<why>\", scope=\"<the scope needed>\"`.",
  }),
  internal: error(500, "internal_error", "An unexpected failure; nothing was lost, retry."),
  authUnavailable: error(503, "auth_unavailable", "Sign-in cannot be checked right now (the project's JWKS could not be fetched).", RETRY_AFTER),
  shuttingDown: error(503, "shutting_down", "This server is shutting down (a restart or deploy); retry after `Retry-After` seconds, another instance or this one restarted answers.", RETRY_AFTER),
  // Writes only.
  storageFull: error(507, "storage_full", "The server's storage is full (its disk, or the embedded database's folder below `THREADKEEPER_STORAGE_FLOOR_MB` free): nothing of this request was saved, except on a send whose disk filled while the reply was being saved, when the message is kept and the reply marked interrupted (the message says which). Retrying helps only once space is freed; reads keep working."),
  csrfRejected: error(403, "csrf_rejected", "A browser write (cookie or local mode) that is not JSON or not same-origin. Bearer requests are exempt."),

  // Operation-specific.
  invalidMetricsToken: error(401, "invalid_metrics_token", "THREADKEEPER_METRICS_TOKEN is set and the bearer token sent is not it; in SaaS mode also no token, or a user's credential (admin API keys included).", {
    "WWW-Authenticate": "`Bearer realm=\"metrics\", error=\"invalid_token\", error_description=\"<why>\"`.",
  }),
  metricsTokenRequired: error(403, "metrics_token_required", "SaaS mode without THREADKEEPER_METRICS_TOKEN: the metrics endpoint answers no user, admin API keys included, until the operator sets a token."),
  sessionBusy: error(409, "session_busy", "Another message or compaction is running in this session; retry shortly.", RETRY_AFTER),
  nothingToRetry: error(409, "nothing_to_retry", "`retry`: the last message already has a complete reply, or there is none."),
  nothingToRegenerate: error(409, "nothing_to_regenerate", "`regenerate`: the last message has no reply yet."),
  notCurrentVersion: error(409, "not_current_version", "`edit_of` / `reply_id`: the message belongs to an earlier version (an edit replaced its turn); edit the current version's message."),
  editSummarized: error(409, "edit_summarized", "`edit_of` / `reply_id`: the message's turn was condensed into the session's summary, which still retells it; restore a checkpoint from before it (POST /api/session/{id}/checkpoints/{cid}/restore) to branch from there."),
  requestInProgress: error(409, "request_in_progress", "A send with this idempotency key is still being answered."),
  nothingToStop: error(409, "nothing_to_stop", "No reply is being written in this session."),
  keyManagedByOperator: error(403, "key_managed_by_operator", "SaaS mode: Claude is called with the operator's key; no key can be saved from the app."),
  invalidChoice: error(422, "invalid_choice", "The element is not a confirmation, or the choice is not one of its options."),
  nothingToRemember: error(409, "nothing_to_remember", "The session has no messages to remember yet."),
  importRunning: error(409, "import_running", "The import is still being read; archive its conversations once it has finished."),
  nothingToArchive: error(409, "nothing_to_archive", "The import stored no conversations to archive."),
  belowThreshold: error(409, "below_threshold", "Usage is below the compaction threshold; send `force: true` to compact anyway."),
  nothingToCompact: error(409, "nothing_to_compact", "There are no older unprotected turns to condense yet."),
  littleGain: error(409, "little_gain", "The turns that could be condensed are under 10 % of what Claude is sent: not worth a summary yet (`details` gives the tokens and percent)."),
  compactionConflict: error(409, "compaction_conflict", "The session changed while the summary was being written."),
  cannotUndo: error(409, "cannot_undo", "Only the latest applied compaction can be undone, and only while the earlier state still fits the window."),
  duplicateName: error(409, "duplicate_name", "You already have one with this name."),
  messageTooLarge: error(413, "message_too_large", "The message exceeds THREADKEEPER_MAX_MESSAGE_BYTES."),
  contextOverflow: error(413, "context_overflow", "The message does not fit the model's context window even on its own."),
  compactionRateLimited: error(429, "rate_limited", "One manual compaction per 30 s per session.", RETRY_AFTER),
  rateLimited: error(429, "rate_limited", "Over the requests (or sends) per minute of this key or user; wait `Retry-After` seconds.", {
    ...RETRY_AFTER,
    "RateLimit-Limit": "Requests allowed per window.",
    "RateLimit-Remaining": "Requests left in the window.",
    "RateLimit-Reset": "Seconds until the window resets.",
  }),
  tooManyAuthFailures: error(
    429,
    "too_many_auth_failures",
    "Too many requests with unknown, revoked or expired API keys from this client address (or on this server instance): refused before the key is looked up; wait `Retry-After` seconds. A key that already worked on this instance is not held back.",
    RETRY_AFTER,
  ),
  budgetExhausted: error(429, "budget_exhausted", "Today's token budget (THREADKEEPER_DAILY_TOKEN_BUDGET) is used up; sends resume at the next UTC day.", RETRY_AFTER),
  fileTooLarge: error(413, "file_too_large", "The file exceeds its kind's limit: images 5 MB, PDFs 32 MB (600 pages), text files 5 MB (`details.max_bytes`)."),
  quotaExceeded: error(413, "quota_exceeded", "The file would take your stored files past this server's quota (`details.used_bytes`, `details.quota_bytes`); delete files or sessions you no longer need."),
  unsupportedFileType: error(415, "unsupported_media_type", "Not a type Claude can read: images (PNG, JPEG, GIF, WebP), PDFs and text files work."),
  invalidFile: error(400, "invalid_file", "The file is not what it says (an image whose bytes are not that image), or a PDF that is corrupt or encrypted; the message says which."),
  fileNotAttachable: error(400, "invalid_request", "An attachment names a file that is not this session's (or no longer exists)."),
  storageUnavailable: error(502, "storage_unavailable", "The file store (Supabase Storage) failed or refused the request: nothing was saved; retry shortly. The message gives the store's reason."),
  upstreamFailed: error(
    502,
    "upstream_error",
    "Claude failed: `upstream_error`, `upstream_rejected`, `upstream_auth`, `stream_interrupted`, `prompt_too_long`, or `rate_limited` / `overloaded` / `upstream_timeout` after the automatic retries. Your message is saved; `details` carries what the JSON answer would have (user_message, assistant_message kept as interrupted, status).",
  ),
} as const satisfies Record<string, ErrorCase>;

/** Statuses whose codes the document lists exhaustively; the others name codes as examples. */
export const EXACT_CODE_STATUSES: ReadonlySet<number> = new Set([400, 404, 409, 413, 429]);
