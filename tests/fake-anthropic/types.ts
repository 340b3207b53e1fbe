/**
 * Shared types of the fake Anthropic Messages API used by integration and browser tests.
 * Kept free of runtime code so both the server and test helpers can import it cheaply.
 */

/** Error `type` strings the real API puts in `{"type":"error","error":{"type": ...}}`. */
export type AnthropicErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "request_too_large"
  | "rate_limit_error"
  | "api_error"
  | "overloaded_error";

export type ErrorStatus = 429 | 500 | 529 | 400 | 401;

/**
 * One scripted behaviour of the fake. Each step is consumed by exactly ONE `POST /v1/messages`
 * call (FIFO); `count_tokens` calls never consume steps. Every kind except `error` and `too_long`
 * (which are plain HTTP errors) works for both streaming and non-streaming requests.
 */
export type FakeStep =
  | { kind: "reply"; text: string; stopReason?: "end_turn" | "max_tokens" }
  | {
      kind: "tool_use";
      name: string;
      input: Record<string, unknown>;
      /** Defaults to a generated `toolu_…` id. */
      id?: string;
      /** Optional assistant text emitted before the tool_use block. */
      text?: string;
    }
  | {
      kind: "error";
      status: ErrorStatus;
      /** Defaults by status: 429 rate_limit_error, 500 api_error, 529 overloaded_error, 400 invalid_request_error, 401 authentication_error. */
      type?: AnthropicErrorType;
      message?: string;
      /** Seconds, sent as `retry-after` (default 0, so the SDK's retry is nearly instant). */
      retryAfter?: number;
    }
  | {
      kind: "too_long";
      /** Context limit quoted in the message (default 200000). */
      max?: number;
    }
  | {
      kind: "drop";
      /** Number of content_block_delta frames sent before the socket is destroyed (default 2). */
      afterChunks?: number;
      /** Text that would have been streamed (default: the echo reply). */
      text?: string;
    }
  | {
      kind: "slow";
      /** Total time the response takes, spread over the stream when streaming. */
      delayMs: number;
      /** Reply text (default: the echo reply). */
      text?: string;
    };

/** One HTTP request the fake received (control and health endpoints are not recorded). */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Lower-cased header names, as node:http reports them; multi-valued headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON body; `null` when the body was empty or not valid JSON. */
  body: Record<string, unknown> | null;
}

/** Content blocks the fake produces in assistant messages. */
export type OutputBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export type StopReason = "end_turn" | "max_tokens" | "tool_use";
