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
 * "Echo: <last user text, first 200 chars>" (or, with `output_config.format`, JSON satisfying
 * the schema: ./structured.ts).
 * Like the API it also: starts replies with signed thinking blocks and checks those that come
 * back (./thinking.ts, per-model rules in ./models.ts); validates and counts documents and images
 * (./documents.ts, ./images.ts; the counting rules head ./tokenizer.ts); scripts web searches
 * (./server-tools.ts); accepts `role: "system"` messages after the first; refuses content block
 * types outside the SDK's ContentBlockParam union (./validate.ts). Unknown top-level fields are
 * accepted and recorded with the body.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { setTimeout as sleepFor } from "node:timers/promises";
import { runIfEntry } from "./standalone";
import { DirectiveInterpreter, parseSteps } from "./steps";
import { BreakpointLimitError, FakePromptCache, type CacheSplit } from "./prompt-cache";
import { citeDocument, preparePdfs } from "./documents";
import { ApiError } from "./errors";
import { FAKE_CONTEXT_LIMIT, newId, planFor, tooLongPlan, type ErrorPlan, type MessagePlan } from "./plan";
import { encodeFrame, messageBody, streamFrames, truncateForDrop } from "./render";
import { hasWebSearchTool } from "./server-tools";
import { valueForSchema } from "./structured";
import { BINDING_BETA, checkReturnedThinking, produceThinking, requireThinkingInToolLoop } from "./thinking";
import { contentText, countRequestTokens } from "./tokenizer";
import type { AnthropicErrorType, FakeStep, RecordedRequest } from "./types";
import { validateRequest, type ValidatedRequest } from "./validate";
import { flattenHeaders, listenOn, parseJson, readBody } from "../fake-http";

export { countRequestTokens, fakeTokenCount } from "./tokenizer";
export { makePdf } from "./pdf-fixture";
/** Counting a body with PDFs outside the server: await this on its messages before countRequestTokens. */
export { preparePdfs } from "./documents";

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
  /** Body of the last POST /v1/messages (or count_tokens when `path` says so); null when none came. */
  lastBody(path?: string): Record<string, unknown> | null;
  close(): Promise<void>;
}

export interface StartFakeAnthropicOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

const ECHO_PREFIX = "Echo: ";
const ECHO_MAX_CHARS = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
    this.url = await listenOn(this.server, port, host);
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

  lastBody(path = "/v1/messages"): Record<string, unknown> | null {
    return this.requests.findLast((r) => r.path === path)?.body ?? null;
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

    if (method === "POST" && pathname === "/v1/messages") return this.handleMessages(body, req, res);
    if (method === "POST" && pathname === "/v1/messages/count_tokens") return this.handleCountTokens(body, req, res);
    return this.sendError(res, 404, "not_found_error", `Not found: ${method} ${pathname}`);
  }

  /** Validation shared by both endpoints: the body, thinking blocks sent back, documents and images. */
  private async accept(body: Record<string, unknown> | null, headers: IncomingMessage["headers"], requireMaxTokens: boolean) {
    const request = validateRequest(body, { requireMaxTokens });
    const checked = checkReturnedThinking(request.thinking, request);
    requireThinkingInToolLoop(request.thinking, request.messages);
    await preparePdfs(request.messages);
    const betas = String(headers["anthropic-beta"] ?? "").split(",").map((b) => b.trim());
    const transformations = betas.includes(BINDING_BETA) ? checked.transformations : null;
    // Dropped thinking blocks are gone for the model: they count for nothing.
    const counted: ValidatedRequest = { ...request, messages: checked.messages };
    return { request, counted, transformations };
  }

  private async handleCountTokens(body: Record<string, unknown> | null, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let counted: ValidatedRequest;
    try {
      ({ counted } = await this.accept(body, req.headers, false));
    } catch (err) {
      return this.sendApiError(res, err);
    }
    this.sendJson(res, 200, { input_tokens: countRequestTokens(counted) });
  }

  private async handleMessages(body: Record<string, unknown> | null, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let accepted: Awaited<ReturnType<FakeAnthropicServer["accept"]>>;
    try {
      accepted = await this.accept(body, req.headers, true);
    } catch (err) {
      return this.sendApiError(res, err);
    }
    const { request, counted, transformations } = accepted;

    const inputTokens = countRequestTokens(counted);
    // Like the real API, an over-long prompt is rejected before anything else (no step consumed).
    if (inputTokens > FAKE_CONTEXT_LIMIT) return this.sendPlanError(res, tooLongPlan(inputTokens, FAKE_CONTEXT_LIMIT));

    const lastUser = [...request.messages].reverse().find((m) => m.role === "user");
    const userText = typedText(lastUser?.content);
    // A tool_result-only turn has no typed text; echo the tool output instead.
    const subject = (userText || contentText(lastUser?.content)).slice(0, ECHO_MAX_CHARS);
    const echo = ECHO_PREFIX + subject;
    const at = this.queue.findIndex((q) => q.forModel === undefined || q.forModel === request.model);
    const step = (at >= 0 ? this.queue.splice(at, 1)[0] : undefined) ?? this.directives.stepFor(userText);
    const plan = planFor(step, {
      echo,
      inputTokens,
      defaultText: request.schema ? JSON.stringify(valueForSchema(request.schema, subject)) : echo,
      think: (options) => produceThinking(request.thinking, request, subject, options),
      cite: (document) => citeDocument(request.messages, document),
      hasWebSearchTool: hasWebSearchTool(request.tools),
      transformations,
    });
    if (plan.kind === "error") return this.sendPlanError(res, plan);
    let split: CacheSplit;
    try {
      split = this.cache.apply(counted, inputTokens);
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

    const message = messageBody(id, request.model, plan, split);
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
