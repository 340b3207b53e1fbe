/**
 * Turning untrusted input into FakeSteps: JSON posted to `/__control/enqueue`, and `[[...]]`
 * directives typed into a chat message by a browser test.
 */
import type { AnthropicErrorType, ErrorStatus, FakeStep, ThinkingOptions, WebSearchResultSpec } from "./types";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const ERROR_STATUSES: readonly ErrorStatus[] = [429, 500, 529, 400, 401];
const ERROR_TYPES: readonly AnthropicErrorType[] = [
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "request_too_large",
  "rate_limit_error",
  "api_error",
  "overloaded_error",
];

function optionalString(step: Record<string, unknown>, key: string): string | undefined {
  const value = step[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new Error(`${key} must be a string`);
  return value;
}

function optionalNonNegative(step: Record<string, unknown>, key: string): number | undefined {
  const value = step[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new Error(`${key} must be a non-negative number`);
  }
  return value;
}

function requiredString(step: Record<string, unknown>, key: string): string {
  const value = optionalString(step, key);
  if (value === undefined) throw new Error(`${key} is required`);
  return value;
}

function thinkingOptions(step: Record<string, unknown>): ThinkingOptions {
  const redacted = step.redactedThinking;
  if (redacted !== undefined && typeof redacted !== "boolean") throw new Error("redactedThinking must be a boolean");
  const options: ThinkingOptions = {};
  const thinking = optionalString(step, "thinking");
  if (thinking !== undefined) options.thinking = thinking;
  if (redacted !== undefined) options.redactedThinking = redacted;
  return options;
}

function searchResults(raw: unknown): WebSearchResultSpec[] {
  if (!Array.isArray(raw)) throw new Error("results must be an array");
  return raw.map((r: unknown, i) => {
    if (!isRecord(r)) throw new Error(`results.${i} must be an object`);
    const pageAge = r.pageAge;
    if (pageAge !== undefined && pageAge !== null && typeof pageAge !== "string") throw new Error(`results.${i}.pageAge must be a string or null`);
    return { url: requiredString(r, "url"), title: requiredString(r, "title"), pageAge, snippet: optionalString(r, "snippet") };
  });
}

/** Validates one step from JSON; throws an Error with a readable message when it is malformed. */
function parseStep(raw: unknown): FakeStep {
  if (!isRecord(raw)) throw new Error("step must be an object");
  switch (raw.kind) {
    case "reply": {
      const stopReason = raw.stopReason;
      if (stopReason !== undefined && stopReason !== "end_turn" && stopReason !== "max_tokens") {
        throw new Error('stopReason must be "end_turn" or "max_tokens"');
      }
      return { kind: "reply", text: requiredString(raw, "text"), stopReason, ...thinkingOptions(raw) };
    }
    case "tool_use": {
      const input = raw.input ?? {};
      if (!isRecord(input)) throw new Error("input must be an object");
      return {
        kind: "tool_use",
        name: requiredString(raw, "name"),
        input,
        id: optionalString(raw, "id"),
        text: optionalString(raw, "text"),
        ...thinkingOptions(raw),
      };
    }
    case "web_search":
      return { kind: "web_search", query: requiredString(raw, "query"), results: searchResults(raw.results), text: optionalString(raw, "text"), ...thinkingOptions(raw) };
    case "cited_reply":
      return { kind: "cited_reply", document: optionalNonNegative(raw, "document"), text: optionalString(raw, "text"), ...thinkingOptions(raw) };
    case "error": {
      const status = ERROR_STATUSES.find((s) => s === raw.status);
      if (status === undefined) throw new Error(`status must be one of ${ERROR_STATUSES.join(", ")}`);
      const type = raw.type === undefined ? undefined : ERROR_TYPES.find((t) => t === raw.type);
      if (raw.type !== undefined && type === undefined) throw new Error(`unknown error type ${String(raw.type)}`);
      return {
        kind: "error",
        status,
        type,
        message: optionalString(raw, "message"),
        retryAfter: optionalNonNegative(raw, "retryAfter"),
      };
    }
    case "too_long":
      return { kind: "too_long", max: optionalNonNegative(raw, "max") };
    case "drop":
      return { kind: "drop", afterChunks: optionalNonNegative(raw, "afterChunks"), text: optionalString(raw, "text") };
    case "slow": {
      const delayMs = optionalNonNegative(raw, "delayMs");
      if (delayMs === undefined) throw new Error("delayMs is required");
      return { kind: "slow", delayMs, text: optionalString(raw, "text") };
    }
    default:
      throw new Error(`unknown step kind ${JSON.stringify(raw.kind)}`);
  }
}

/** Accepts an array of steps (or a single step object) as posted to `/__control/enqueue`. */
export function parseSteps(raw: unknown): FakeStep[] {
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((step, i) => {
    try {
      return parseStep(step);
    } catch (err) {
      throw new Error(`step ${i}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Directives
// ---------------------------------------------------------------------------------------------

/**
 * `[[name:argument]]`. The argument is matched lazily up to the first `]]`, so it may contain
 * spaces, single brackets and JSON objects (but not `]]`).
 */
const DIRECTIVE_RE = /\[\[(fault|slow|reply|tool_use|web_search|cite):([\s\S]*?)\]\]/g;

/** Faults that fire only once per distinct message text so the SDK's automatic retry succeeds. */
const ONE_SHOT_FAULTS: ReadonlyMap<string, ErrorStatus> = new Map([
  ["500", 500],
  ["429", 429],
  ["529", 529],
]);

/**
 * Translates directives in the last user message into a step, so a browser test can provoke
 * behaviours just by typing (the fake sits behind the app server, out of the browser's reach):
 *
 *   [[fault:500]] [[fault:429]] [[fault:529]]  HTTP error — ONCE per distinct message text (see below)
 *   [[fault:drop]]                             stream starts, then the socket is destroyed
 *   [[fault:too_long]]                         400 "prompt is too long: …"
 *   [[slow:2000]]                              response takes ~2000 ms
 *   [[reply:some text]]                        reply with exactly "some text"
 *   [[tool_use:name]] / [[tool_use:name {"k":1}]]  tool_use block (input {} or the given JSON)
 *   [[web_search:query]]                       a web search with one result (needs a web_search tool)
 *   [[cite:0]]                                 a reply citing document 0 (needs citations enabled on it)
 *
 * Every directive applies on every request whose last user message contains it, EXCEPT the
 * 500/429/529 faults: those are retryable, and the SDK retries automatically, so they fire only
 * for the first request carrying a given message text (tracked in a Set, cleared by reset()).
 * The retry — and any later request with the same text — then gets the normal reply, which is
 * what lets a test observe "error, retry, success" end to end. Use queued `error` steps when a
 * test needs an error that persists across retries.
 *
 * Precedence when several are present: fault > web_search > cite > tool_use > slow > reply; a `[[reply:…]]` text is
 * also used as the text of slow/drop/tool_use responses.
 */
export class DirectiveInterpreter {
  private readonly firedFaults = new Set<string>();

  reset(): void {
    this.firedFaults.clear();
  }

  stepFor(userText: string): FakeStep | null {
    const directives = new Map<string, string>();
    for (const match of userText.matchAll(DIRECTIVE_RE)) {
      // First occurrence of each directive wins.
      if (!directives.has(match[1])) directives.set(match[1], match[2].trim());
    }
    if (directives.size === 0) return null;

    const replyText = directives.get("reply");
    const fault = directives.get("fault");
    if (fault !== undefined) {
      const status = ONE_SHOT_FAULTS.get(fault);
      if (status !== undefined) {
        if (!this.firedFaults.has(userText)) {
          this.firedFaults.add(userText);
          return { kind: "error", status };
        }
        // Already fired for this text: fall through to the remaining directives / default reply.
      } else if (fault === "drop") {
        return { kind: "drop", text: replyText };
      } else if (fault === "too_long") {
        return { kind: "too_long" };
      }
    }

    const search = directives.get("web_search");
    if (search !== undefined) {
      const query = search || "search";
      const results = [{ url: `https://example.com/search?q=${encodeURIComponent(query)}`, title: `About ${query}`, snippet: `A page about ${query}.` }];
      return { kind: "web_search", query, results, text: replyText };
    }
    const cite = directives.get("cite");
    if (cite !== undefined) {
      const document = Number(cite);
      return { kind: "cited_reply", document: cite !== "" && Number.isInteger(document) && document >= 0 ? document : undefined, text: replyText };
    }

    const toolUse = directives.get("tool_use");
    if (toolUse !== undefined) {
      const [, name = "", json] = /^(\S*)\s*([\s\S]*)$/.exec(toolUse) ?? [];
      let input: Record<string, unknown> = {};
      if (json) {
        try {
          const parsed: unknown = JSON.parse(json);
          if (isRecord(parsed)) input = parsed;
        } catch {
          // Malformed JSON typed by a test: keep the empty input rather than failing the request.
        }
      }
      return { kind: "tool_use", name: name || "tool", input, text: replyText };
    }

    const slow = directives.get("slow");
    if (slow !== undefined) {
      const delayMs = Number(slow);
      if (Number.isFinite(delayMs) && delayMs >= 0) return { kind: "slow", delayMs, text: replyText };
    }

    if (replyText !== undefined) return { kind: "reply", text: replyText };
    return null;
  }
}
