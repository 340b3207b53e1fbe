/** Turning a scripted step (or none) into what the fake answers: a message or an error. */
import { randomBytes } from "node:crypto";
import { webSearchBlocks } from "./server-tools";
import type { ProducedThinking } from "./thinking";
import type { AnthropicErrorType, Citation, ErrorStatus, FakeStep, InputTransformation, OutputBlock, StopReason, ThinkingOptions } from "./types";

/** Context window quoted by too_long errors and enforced on real input counts. */
export const FAKE_CONTEXT_LIMIT = 200_000;
const DEFAULT_DROP_AFTER_CHUNKS = 2;

export interface MessagePlan {
  kind: "message";
  content: OutputBlock[];
  stopReason: StopReason;
  /** Total duration of the response. */
  delayMs: number;
  /** Destroy the socket after this many deltas (null: complete normally). */
  dropAfterChunks: number | null;
  /** Reasoning produced but not shown; counted in output tokens. */
  hiddenThinking: string;
  webSearchRequests: number;
  /** Reported as `input_transformations` (null: not reported, the beta is off). */
  transformations: InputTransformation[] | null;
}

export interface ErrorPlan {
  kind: "error";
  status: number;
  type: AnthropicErrorType;
  message: string;
  /** Seconds for `retry-after` (null: header omitted). */
  retryAfter: number | null;
}

export type Plan = MessagePlan | ErrorPlan;

export interface PlanContext {
  echo: string;
  inputTokens: number;
  /** The reply's text when no step gives one: the echo, or JSON for a structured-output request. */
  defaultText: string;
  think(options: ThinkingOptions): ProducedThinking;
  cite(document: number | undefined): Citation | null;
  hasWebSearchTool: boolean;
  transformations: InputTransformation[] | null;
}

const DEFAULT_ERROR: Record<ErrorStatus, { type: AnthropicErrorType; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request (fake)" },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  429: { type: "rate_limit_error", message: "This request would exceed your organization's rate limit. Please try again later." },
  500: { type: "api_error", message: "Internal server error" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

export function newId(prefix: string): string {
  return `${prefix}_fake${randomBytes(10).toString("hex")}`;
}

export function tooLongPlan(inputTokens: number, max: number): ErrorPlan {
  // Quote the real count when it really exceeds the limit; a scripted too_long on a small prompt
  // quotes a plausible over-limit figure so the message stays self-consistent.
  const reported = inputTokens > max ? inputTokens : max + 15_000;
  return {
    kind: "error",
    status: 400,
    type: "invalid_request_error",
    message: `prompt is too long: ${reported} tokens > ${max} maximum`,
    retryAfter: null,
  };
}

function scriptError(message: string): ErrorPlan {
  return { kind: "error", status: 400, type: "invalid_request_error", message: `fake-anthropic: ${message}`, retryAfter: null };
}

export function planFor(step: FakeStep | null, ctx: PlanContext): Plan {
  const message = (content: OutputBlock[], stopReason: StopReason, options: ThinkingOptions = {}, extra?: Partial<MessagePlan>): Plan => {
    const thinking = ctx.think(options);
    return {
      kind: "message",
      content: [...thinking.blocks, ...content],
      stopReason,
      delayMs: 0,
      dropAfterChunks: null,
      hiddenThinking: thinking.hidden,
      webSearchRequests: 0,
      transformations: ctx.transformations,
      ...extra,
    };
  };
  if (step === null) return message([{ type: "text", text: ctx.defaultText }], "end_turn");
  switch (step.kind) {
    case "reply":
      return message([{ type: "text", text: step.text }], step.stopReason ?? "end_turn", step);
    case "tool_use": {
      const blocks: OutputBlock[] = step.text ? [{ type: "text", text: step.text }] : [];
      blocks.push({ type: "tool_use", id: step.id ?? newId("toolu"), name: step.name, input: step.input });
      return message(blocks, "tool_use", step);
    }
    case "web_search":
      if (!ctx.hasWebSearchTool) return scriptError("a web_search step needs a web_search_* tool in the request's tools");
      return message(webSearchBlocks(step.query, step.results, step.text), "end_turn", step, { webSearchRequests: 1 });
    case "cited_reply": {
      const citation = ctx.cite(step.document);
      if (citation === null) return scriptError("a cited_reply step needs a document with citations: {enabled: true} and text to quote");
      const blocks: OutputBlock[] = [
        { type: "text", text: `${step.text ?? "The document says:"} ` },
        { type: "text", text: citation.cited_text, citations: [citation] },
      ];
      return message(blocks, "end_turn", step);
    }
    case "error": {
      const defaults = DEFAULT_ERROR[step.status];
      return {
        kind: "error",
        status: step.status,
        type: step.type ?? defaults.type,
        message: step.message ?? defaults.message,
        // 429s always carry retry-after in the real API; default 0 keeps tests fast.
        retryAfter: step.retryAfter ?? (step.status === 429 ? 0 : null),
      };
    }
    case "too_long":
      return tooLongPlan(ctx.inputTokens, step.max ?? FAKE_CONTEXT_LIMIT);
    case "drop":
      return message([{ type: "text", text: step.text ?? ctx.defaultText }], "end_turn", {}, {
        dropAfterChunks: step.afterChunks ?? DEFAULT_DROP_AFTER_CHUNKS,
      });
    case "slow":
      return message([{ type: "text", text: step.text ?? ctx.defaultText }], "end_turn", {}, { delayMs: step.delayMs });
  }
}
