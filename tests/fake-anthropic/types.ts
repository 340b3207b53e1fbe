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
/** Which request a step is for: a step naming a model waits for a request of that model (Threadkeeper's own title and summary calls use another). */
export interface StepTarget {
  forModel?: string;
}

export type FakeStep = StepTarget & (
  | ({ kind: "reply"; text: string; stopReason?: "end_turn" | "max_tokens" } & ThinkingOptions)
  | ({
      kind: "tool_use";
      name: string;
      input: Record<string, unknown>;
      /** Defaults to a generated `toolu_…` id. */
      id?: string;
      /** Optional assistant text emitted before the tool_use block. */
      text?: string;
    } & ThinkingOptions)
  | ({
      /**
       * A server-side web search (needs a `web_search_*` tool in the request): server_tool_use,
       * web_search_tool_result, then a text block citing the first result.
       */
      kind: "web_search";
      query: string;
      results: WebSearchResultSpec[];
      /** The answer text after the results (default: "According to <first title>, …"). */
      text?: string;
    } & ThinkingOptions)
  | ({
      /**
       * A reply quoting a document of the request with citations enabled: `page_location` for a
       * PDF, `char_location` for plain text, `content_block_location` for a content document.
       */
      kind: "cited_reply";
      /** Index among the request's document blocks, in order of appearance (default: the last one). */
      document?: number;
      /** Text before the cited sentence (default "The document says:"). */
      text?: string;
    } & ThinkingOptions)
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
    }
);

/** Thinking extras of a scripted step; they only apply when the request has thinking on. */
export interface ThinkingOptions {
  /** Thinking text to return instead of the default "Considering: …". */
  thinking?: string;
  /** Also return a `redacted_thinking` block (before the thinking block), as the API does for flagged reasoning. */
  redactedThinking?: boolean;
}

export interface WebSearchResultSpec {
  url: string;
  title: string;
  /** Default "2 days ago"; null for none. */
  pageAge?: string | null;
  /** The page text the model "read"; kept (encoded) in `encrypted_content` and counted when sent back. */
  snippet?: string;
}

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

export type Citation =
  | {
      type: "page_location";
      cited_text: string;
      document_index: number;
      document_title: string | null;
      start_page_number: number;
      end_page_number: number;
      file_id: null;
    }
  | {
      type: "char_location";
      cited_text: string;
      document_index: number;
      document_title: string | null;
      start_char_index: number;
      end_char_index: number;
      file_id: null;
    }
  | {
      type: "content_block_location";
      cited_text: string;
      document_index: number;
      document_title: string | null;
      start_block_index: number;
      end_block_index: number;
      file_id: null;
    }
  | { type: "web_search_result_location"; cited_text: string; encrypted_index: string; title: string | null; url: string };

export interface WebSearchResultBlock {
  type: "web_search_result";
  url: string;
  title: string;
  encrypted_content: string;
  page_age: string | null;
}

/** Content blocks the fake produces in assistant messages. */
export type OutputBlock =
  | { type: "text"; text: string; citations?: Citation[] }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "server_tool_use"; id: string; name: "web_search"; input: Record<string, unknown>; caller: { type: "direct" } }
  | { type: "web_search_tool_result"; tool_use_id: string; content: WebSearchResultBlock[] };

export type StopReason = "end_turn" | "max_tokens" | "tool_use";

/** One entry of the beta `input_transformations` array. */
export interface InputTransformation {
  type: "thinking_dropped";
  path: string;
  reason: "model_binding_mismatch" | "prefix_binding_mismatch";
}
