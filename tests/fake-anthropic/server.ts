/**
 * A fake Anthropic Messages API: a real HTTP server that the real `@anthropic-ai/sdk` talks to
 * through `baseURL` (or `ANTHROPIC_BASE_URL`), so tests exercise the SDK's own SSE parsing,
 * retries and error mapping instead of a mocked client.
 *
 * In-process use (vitest):
 *   const fake = await startFakeAnthropic();
 *   const client = new Anthropic({ apiKey: "test", baseURL: fake.url });
 *   fake.enqueue({ kind: "error", status: 429 }, { kind: "reply", text: "hi" });
 *
 * Standalone use (Playwright webServer):
 *   FAKE_ANTHROPIC_PORT=4010 npx tsx tests/fake-anthropic/server.ts
 *   → prints "fake-anthropic listening on http://127.0.0.1:4010"; drive it over HTTP with
 *     POST /__control/enqueue (JSON array of FakeStep), POST /__control/reset,
 *     POST /__control/cache/expire, GET /__control/requests, GET /health (see ./control.ts).
 * Usage reports prompt-cache reads and writes for requests with `cache_control` breakpoints
 * (see ./prompt-cache.ts).
 *
 * Endpoints: POST /v1/messages (streaming and not), POST /v1/messages/count_tokens.
 * Behaviour per /v1/messages call: first queued step (FIFO) → else `[[...]]` directives in the
 * last user message (see DirectiveInterpreter in ./steps.ts) → else the echo reply
 * "Echo: <last user text, first 200 chars>".
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { setTimeout as sleepFor } from "node:timers/promises";
import { runIfEntry } from "./standalone";
import { DirectiveInterpreter, parseSteps } from "./steps";
import { BreakpointLimitError, FakePromptCache, type CacheSplit } from "./prompt-cache";
import { contentText, countOutputTokens, countRequestTokens } from "./tokenizer";
import type { AnthropicErrorType, ErrorStatus, FakeStep, OutputBlock, RecordedRequest, StopReason } from "./types";
import { flattenHeaders, parseJson, readBody } from "../fake-http";

export { countRequestTokens, fakeTokenCount } from "./tokenizer";

export interface FakeAnthropic {
  /** e.g. http://127.0.0.1:54321 (use as ANTHROPIC_BASE_URL / `baseURL`). */
  url: string;
  /** Every API request received (control and health endpoints excluded), oldest first. */
  requests: RecordedRequest[];
  /** Queue behaviours for the next calls to /v1/messages (FIFO); when empty, directives or the echo reply. */
  enqueue(...steps: FakeStep[]): void;
  /** Clear the queue, the recorded requests, the prompt cache and the "fault already fired" memory of directives. */
  reset(): void;
  /** Empty the prompt cache, as if its five minutes had passed. */
  expireCache(): void;
  close(): Promise<void>;
}

export interface StartFakeAnthropicOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

/** Context window quoted by too_long errors and enforced on real input counts. */
const FAKE_CONTEXT_LIMIT = 200_000;
const ECHO_PREFIX = "Echo: ";
const ECHO_MAX_CHARS = 200;
const DEFAULT_DROP_AFTER_CHUNKS = 2;

// ---------------------------------------------------------------------------------------------
// Request validation
// ---------------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: AnthropicErrorType,
    message: string,
  ) {
    super(message);
  }
}

interface InputMessage {
  role: "user" | "assistant";
  content: unknown;
}

interface ValidatedRequest {
  model: string;
  stream: boolean;
  system: unknown;
  messages: InputMessage[];
  tools: unknown[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string): ApiError {
  return new ApiError(400, "invalid_request_error", message);
}

/** A minimal subset of the real API's validation, with its wording where it matters. */
function validateRequest(body: Record<string, unknown> | null, opts: { requireMaxTokens: boolean }): ValidatedRequest {
  if (body === null) throw invalid("Request body must be a JSON object");
  if (typeof body.model !== "string" || body.model === "") throw invalid("model: Field required");
  if (opts.requireMaxTokens) {
    if (body.max_tokens === undefined) throw invalid("max_tokens: Field required");
    if (typeof body.max_tokens !== "number" || !Number.isInteger(body.max_tokens)) {
      throw invalid("max_tokens: Input should be a valid integer");
    }
    if (body.max_tokens < 1) throw invalid("max_tokens: Input should be greater than or equal to 1");
  }
  if (body.stream !== undefined && typeof body.stream !== "boolean") {
    throw invalid("stream: Input should be a valid boolean");
  }
  const rawMessages = body.messages;
  if (!Array.isArray(rawMessages)) throw invalid("messages: Field required");
  if (rawMessages.length === 0) throw invalid("messages: at least one message is required");

  const messages = rawMessages.map((raw: unknown, i): InputMessage => {
    if (!isRecord(raw)) throw invalid(`messages.${i}: Input should be a valid dictionary`);
    if (raw.role !== "user" && raw.role !== "assistant") {
      throw invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    }
    if (typeof raw.content !== "string" && !Array.isArray(raw.content)) {
      throw invalid(`messages.${i}.content: Input should be a valid list`);
    }
    if (Array.isArray(raw.content)) {
      for (const block of raw.content) {
        if (isRecord(block) && block.type === "text" && block.text === "") {
          throw invalid("messages: text content blocks must be non-empty");
        }
      }
    }
    // The real API rejects empty turns (a classic symptom of persisting a failed, empty reply);
    // only the final assistant message (a prefill) may be empty.
    const isFinalAssistant = i === rawMessages.length - 1 && raw.role === "assistant";
    if (raw.content.length === 0 && !isFinalAssistant) {
      throw invalid(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    return { role: raw.role, content: raw.content };
  });
  if (messages[0].role !== "user") throw invalid('messages: first message must use the "user" role');

  if (body.tools !== undefined && !Array.isArray(body.tools)) throw invalid("tools: Input should be a valid list");
  return {
    model: body.model,
    stream: body.stream === true,
    system: body.system,
    messages,
    tools: Array.isArray(body.tools) ? body.tools : [],
  };
}

/** Text blocks only: directives are read from what the user typed, never from tool results. */
function typedText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is { type: "text"; text: string } => isRecord(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n");
}

// ---------------------------------------------------------------------------------------------
// Planning a response
// ---------------------------------------------------------------------------------------------

interface MessagePlan {
  kind: "message";
  content: OutputBlock[];
  stopReason: StopReason;
  /** Total duration of the response. */
  delayMs: number;
  /** Destroy the socket after this many deltas (null: complete normally). */
  dropAfterChunks: number | null;
}

interface ErrorPlan {
  kind: "error";
  status: number;
  type: AnthropicErrorType;
  message: string;
  /** Seconds for `retry-after` (null: header omitted). */
  retryAfter: number | null;
}

type Plan = MessagePlan | ErrorPlan;

const DEFAULT_ERROR: Record<ErrorStatus, { type: AnthropicErrorType; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request (fake)" },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  429: { type: "rate_limit_error", message: "This request would exceed your organization's rate limit. Please try again later." },
  500: { type: "api_error", message: "Internal server error" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

function newId(prefix: string): string {
  return `${prefix}_fake${randomBytes(10).toString("hex")}`;
}

function tooLongPlan(inputTokens: number, max: number): ErrorPlan {
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

function planFor(step: FakeStep | null, echo: string, inputTokens: number): Plan {
  const message = (content: OutputBlock[], stopReason: StopReason, extra?: Partial<MessagePlan>): Plan => ({
    kind: "message",
    content,
    stopReason,
    delayMs: 0,
    dropAfterChunks: null,
    ...extra,
  });
  if (step === null) return message([{ type: "text", text: echo }], "end_turn");
  switch (step.kind) {
    case "reply":
      return message([{ type: "text", text: step.text }], step.stopReason ?? "end_turn");
    case "tool_use": {
      const blocks: OutputBlock[] = step.text ? [{ type: "text", text: step.text }] : [];
      blocks.push({ type: "tool_use", id: step.id ?? newId("toolu"), name: step.name, input: step.input });
      return message(blocks, "tool_use");
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
      return tooLongPlan(inputTokens, step.max ?? FAKE_CONTEXT_LIMIT);
    case "drop":
      return message([{ type: "text", text: step.text ?? echo }], "end_turn", {
        dropAfterChunks: step.afterChunks ?? DEFAULT_DROP_AFTER_CHUNKS,
      });
    case "slow":
      return message([{ type: "text", text: step.text ?? echo }], "end_turn", { delayMs: step.delayMs });
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

interface SseFrame {
  event: string;
  data: Record<string, unknown>;
}

function usage(input: CacheSplit, outputTokens: number): Record<string, unknown> {
  return { ...input, output_tokens: outputTokens, service_tier: "standard" };
}

/** Word-sized pieces (each keeps its trailing whitespace) so streaming is visible in the UI. */
function textChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Up to three pieces of the serialized JSON, like the real API's input_json_delta fragments. */
function jsonChunks(json: string): string[] {
  const size = Math.max(1, Math.ceil(json.length / 3));
  const chunks: string[] = [];
  for (let i = 0; i < json.length; i += size) chunks.push(json.slice(i, i + size));
  return chunks;
}

/** The exact event sequence the real API streams for one message. */
function streamFrames(id: string, model: string, plan: MessagePlan, input: CacheSplit): SseFrame[] {
  const frames: SseFrame[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          stop_details: null,
          // As in the real API, message_start reports output_tokens: 1; message_delta has the final count.
          usage: usage(input, 1),
        },
      },
    },
  ];
  plan.content.forEach((block, index) => {
    if (block.type === "text") {
      frames.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } });
      if (index === 0) frames.push({ event: "ping", data: { type: "ping" } });
      for (const text of textChunks(block.text)) {
        frames.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "text_delta", text } } });
      }
    } else {
      frames.push({
        event: "content_block_start",
        data: { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } },
      });
      if (index === 0) frames.push({ event: "ping", data: { type: "ping" } });
      for (const partial_json of jsonChunks(JSON.stringify(block.input))) {
        frames.push({
          event: "content_block_delta",
          data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } },
        });
      }
    }
    frames.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  frames.push(
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: plan.stopReason, stop_sequence: null, stop_details: null },
        usage: { output_tokens: countOutputTokens(plan.content) },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  );
  return frames;
}

/** Frames up to the Nth delta of a dropped stream — never reaching a stop event. */
function truncateForDrop(frames: SseFrame[], afterChunks: number): SseFrame[] {
  const kept: SseFrame[] = [];
  let deltas = 0;
  for (const frame of frames) {
    if (frame.event === "content_block_delta" && deltas >= afterChunks) break;
    if (frame.event === "content_block_stop" || frame.event === "message_delta" || frame.event === "message_stop") break;
    kept.push(frame);
    if (frame.event === "content_block_delta") deltas++;
  }
  return kept;
}

function encodeFrame(frame: SseFrame): string {
  return `event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

/** Resolves false instead of throwing when the wait is cut short (client gone, server closing). */
async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleepFor(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

class FakeAnthropicServer implements FakeAnthropic {
  url = "";
  readonly requests: RecordedRequest[] = [];
  private readonly queue: FakeStep[] = [];
  private readonly directives = new DirectiveInterpreter();
  private readonly cache = new FakePromptCache();
  /** Aborted on close() so slow responses stop waiting. */
  private readonly lifetime = new AbortController();
  private readonly server: http.Server;

  constructor() {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        if (!res.headersSent) this.sendError(res, 500, "api_error", `fake-anthropic crashed: ${message}`);
        else res.destroy();
      });
    });
  }

  async listen(port: number, host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
    this.url = `http://${urlHost}:${address.port}`;
  }

  enqueue(...steps: FakeStep[]): void {
    this.queue.push(...steps);
  }

  reset(): void {
    // Mutate in place: tests may hold a reference to `fake.requests`.
    this.queue.length = 0;
    this.requests.length = 0;
    this.directives.reset();
    this.cache.reset();
  }

  expireCache(): void {
    this.cache.expireAll();
  }

  async close(): Promise<void> {
    this.lifetime.abort();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Keep-alive sockets (the SDK's fetch pools connections) would otherwise hold close() open.
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname } = new URL(req.url ?? "/", "http://fake.invalid");
    const method = req.method ?? "GET";
    const rawBody = await readBody(req);
    const json = parseJson(rawBody);

    if (pathname === "/health") return this.sendJson(res, 200, { ok: true });
    if (pathname.startsWith("/__control/")) return this.handleControl(method, pathname, json, res);

    const body = isRecord(json) ? json : null;
    this.requests.push({ method, path: pathname, headers: flattenHeaders(req), body });

    // Either credential header is accepted: the real API takes `x-api-key`, but SDK 1.12.0 sends
    // `apiKey` as `Authorization: Bearer …`. `anthropic-version` is deliberately not checked:
    // SDK releases move it forward (1.12.0 sends 2026-10-21) and a strict fake would break on
    // every upgrade.
    if (!req.headers["x-api-key"] && !req.headers.authorization) {
      return this.sendError(res, 401, "authentication_error", "x-api-key header is required");
    }

    if (method === "POST" && pathname === "/v1/messages") return this.handleMessages(body, res);
    if (method === "POST" && pathname === "/v1/messages/count_tokens") return this.handleCountTokens(body, res);
    return this.sendError(res, 404, "not_found_error", `Not found: ${method} ${pathname}`);
  }

  private handleCountTokens(body: Record<string, unknown> | null, res: ServerResponse): void {
    let request: ValidatedRequest;
    try {
      request = validateRequest(body, { requireMaxTokens: false });
    } catch (err) {
      return this.sendApiError(res, err);
    }
    this.sendJson(res, 200, { input_tokens: countRequestTokens(request) });
  }

  private async handleMessages(body: Record<string, unknown> | null, res: ServerResponse): Promise<void> {
    let request: ValidatedRequest;
    try {
      request = validateRequest(body, { requireMaxTokens: true });
    } catch (err) {
      return this.sendApiError(res, err);
    }

    const inputTokens = countRequestTokens(request);
    // Like the real API, an over-long prompt is rejected before anything else (no step consumed).
    if (inputTokens > FAKE_CONTEXT_LIMIT) return this.sendPlanError(res, tooLongPlan(inputTokens, FAKE_CONTEXT_LIMIT));

    const lastUser = [...request.messages].reverse().find((m) => m.role === "user");
    const userText = typedText(lastUser?.content);
    // A tool_result-only turn has no typed text; echo the tool output instead.
    const echo = ECHO_PREFIX + (userText || contentText(lastUser?.content)).slice(0, ECHO_MAX_CHARS);
    const step = this.queue.shift() ?? this.directives.stepFor(userText);
    const plan = planFor(step, echo, inputTokens);
    if (plan.kind === "error") return this.sendPlanError(res, plan);
    let split: CacheSplit;
    try {
      split = this.cache.apply(request, inputTokens);
    } catch (err) {
      if (err instanceof BreakpointLimitError) return this.sendError(res, 400, "invalid_request_error", err.message);
      throw err;
    }

    // Stop waiting/writing when either the client goes away (e.g. an SDK timeout or abort) or the
    // server is closed mid-response (tests that kill the upstream during a stream).
    const aborted = new AbortController();
    res.on("close", () => aborted.abort());
    const signal = AbortSignal.any([aborted.signal, this.lifetime.signal]);
    const id = newId("msg");

    if (request.stream) return this.streamResponse(res, id, request.model, plan, split, signal);

    const message = {
      id,
      type: "message",
      role: "assistant",
      model: request.model,
      content: plan.content,
      stop_reason: plan.stopReason,
      stop_sequence: null,
      stop_details: null,
      usage: usage(split, countOutputTokens(plan.content)),
    };
    if (!(await wait(plan.delayMs, signal))) return;
    if (plan.dropAfterChunks !== null) {
      // Non-streaming drop: promise a full body, deliver half of it, then cut the connection.
      const payload = Buffer.from(JSON.stringify(message));
      res.writeHead(200, this.baseHeaders({ "content-type": "application/json", "content-length": String(payload.length) }));
      res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => res.socket?.destroy());
      return;
    }
    this.sendJson(res, 200, message);
  }

  private async streamResponse(
    res: ServerResponse,
    id: string,
    model: string,
    plan: MessagePlan,
    input: CacheSplit,
    signal: AbortSignal,
  ): Promise<void> {
    const all = streamFrames(id, model, plan, input);
    const frames = plan.dropAfterChunks === null ? all : truncateForDrop(all, plan.dropAfterChunks);
    res.writeHead(
      200,
      this.baseHeaders({ "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" }),
    );
    res.flushHeaders();
    // A slow step sends message_start at once and spreads its delay over the remaining frames.
    const gap = frames.length > 1 ? plan.delayMs / (frames.length - 1) : plan.delayMs;
    for (const [i, frame] of frames.entries()) {
      if (i > 0 && !(await wait(gap, signal))) return;
      if (signal.aborted || res.destroyed) return;
      const isLast = i === frames.length - 1;
      if (isLast && plan.dropAfterChunks !== null) {
        // Once the last frame is flushed, kill the socket without message_stop or the terminating
        // chunk, like a connection lost mid-stream (the short pause lets the client read it first).
        res.write(encodeFrame(frame), () => {
          setTimeout(() => res.socket?.destroy(), 20);
        });
        return;
      }
      res.write(encodeFrame(frame));
    }
    res.end();
  }

  private handleControl(method: string, pathname: string, json: unknown, res: ServerResponse): void {
    if (method === "POST" && pathname === "/__control/enqueue") {
      try {
        const steps = parseSteps(json);
        this.enqueue(...steps);
        return this.sendJson(res, 200, { queued: this.queue.length });
      } catch (err) {
        return this.sendError(res, 400, "invalid_request_error", err instanceof Error ? err.message : String(err));
      }
    }
    if (method === "POST" && pathname === "/__control/reset") {
      this.reset();
      return this.sendJson(res, 200, { ok: true });
    }
    if (method === "POST" && pathname === "/__control/cache/expire") {
      this.expireCache();
      return this.sendJson(res, 200, { ok: true });
    }
    if (method === "GET" && pathname === "/__control/requests") return this.sendJson(res, 200, this.requests);
    if (method === "GET" && pathname === "/__control/queue") return this.sendJson(res, 200, this.queue);
    this.sendError(res, 404, "not_found_error", `Not found: ${method} ${pathname}`);
  }

  private baseHeaders(extra: Record<string, string>): Record<string, string> {
    return { "request-id": newId("req"), ...extra };
  }

  private sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(payload);
    res.writeHead(status, this.baseHeaders({ "content-type": "application/json", ...headers }));
    res.end(text);
  }

  private sendError(res: ServerResponse, status: number, type: AnthropicErrorType, message: string, headers: Record<string, string> = {}): void {
    const retryable = status === 429 || status >= 500;
    this.sendJson(res, status, { type: "error", error: { type, message } }, { "x-should-retry": String(retryable), ...headers });
  }

  private sendApiError(res: ServerResponse, err: unknown): void {
    if (!(err instanceof ApiError)) throw err;
    this.sendError(res, err.status, err.type, err.message);
  }

  private sendPlanError(res: ServerResponse, plan: ErrorPlan): void {
    const headers: Record<string, string> = {};
    if (plan.retryAfter !== null) {
      headers["retry-after"] = String(plan.retryAfter);
      // The SDK ignores `retry-after: 0` and falls back to ~0.5–1 s exponential backoff; the
      // non-standard `retry-after-ms` (which it honours first) keeps scripted retries near-instant.
      headers["retry-after-ms"] = String(Math.max(1, Math.round(plan.retryAfter * 1000)));
    } else if (plan.status >= 500) {
      headers["retry-after-ms"] = "1";
    }
    this.sendError(res, plan.status, plan.type, plan.message, headers);
  }
}

export async function startFakeAnthropic(opts: StartFakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const fake = new FakeAnthropicServer();
  await fake.listen(opts.port ?? 0, opts.host ?? "127.0.0.1");
  return fake;
}

// ---------------------------------------------------------------------------------------------
// Standalone mode: `npx tsx tests/fake-anthropic/server.ts`
// ---------------------------------------------------------------------------------------------

runIfEntry(import.meta.url, async () => {
  const port = Number(process.env.FAKE_ANTHROPIC_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0) throw new Error(`invalid FAKE_ANTHROPIC_PORT: ${process.env.FAKE_ANTHROPIC_PORT}`);
  const fake = await startFakeAnthropic({ port, host: process.env.FAKE_ANTHROPIC_HOST || "127.0.0.1" });
  console.log(`fake-anthropic listening on ${fake.url}`);
  return fake;
});
