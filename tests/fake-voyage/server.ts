/**
 * A fake Voyage embeddings API: a real HTTP server that the real provider (lib/memory/voyage.ts)
 * talks to through VOYAGE_BASE_URL, so tests exercise its request building, batching, retries
 * and error handling over the wire instead of a mocked fetch.
 *
 *   const fake = await startFakeVoyage();
 *   process.env.VOYAGE_API_KEY = FAKE_VOYAGE_KEY;
 *   process.env.VOYAGE_BASE_URL = fake.url;
 *   fake.failNext(429);            // the next request answers 429, then normal service
 *
 * Vectors come from the local lexical embedder, so similarity between them is meaningful and
 * deterministic. input_type is validated and recorded but does not change the vector: the real
 * API's per-type instruction would only add words shared by every query here.
 *
 * Standalone: `FAKE_VOYAGE_PORT=4020 npx tsx tests/fake-voyage/server.ts`.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
// Relative, not "@/": the standalone server may run outside the tsconfig paths.
import { EMBEDDING_DIMENSIONS } from "../../lib/memory/embedder";
import { LocalLexicalEmbedder } from "../../lib/memory/local-embedder";
import { runIfEntry } from "../fake-anthropic/standalone";
import { readBody } from "../fake-http";

/** The only key the fake accepts (any other gets a 401, like a revoked key). */
export const FAKE_VOYAGE_KEY = "pa-fake-voyage-key";
const MODELS = new Set(["voyage-3.5", "voyage-3.5-lite", "voyage-3-large", "voyage-code-3"]);
const DIMENSIONS = new Set([256, 512, 1024, 2048]);
const MAX_INPUTS = 1000;

export interface RecordedVoyageRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  /** The status the fake answered with. */
  status: number;
}

export interface FakeVoyage {
  /** e.g. http://127.0.0.1:54321/v1 — use as VOYAGE_BASE_URL. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedVoyageRequest[];
  /**
   * Answer the next `times` requests (default 1) with `status` before serving normally.
   * 429 carries `retry-after: 0` unless `retryAfter` says otherwise, so retry tests stay fast.
   */
  failNext(status: number, times?: number, options?: { message?: string; retryAfter?: string }): void;
  /** Hold the response to the next request for `ms` (to exercise client timeouts). */
  delayNext(ms: number): void;
  /** Clear recorded requests, pending failures and delays. */
  reset(): void;
  close(): Promise<void>;
}

interface PendingFailure {
  status: number;
  message?: string;
  retryAfter?: string;
}

class BadRequest extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface EmbedRequest {
  input: string[];
  model: string;
  inputType: "query" | "document" | null;
  dimensions: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The subset of the real API's validation the provider could get wrong, in its `detail` style. */
function validate(body: unknown): EmbedRequest {
  if (!isRecord(body)) throw new BadRequest(400, "Request body must be a JSON object.");
  const { input, model, input_type: inputType, output_dimension: dimension } = body;
  const list = typeof input === "string" ? [input] : input;
  if (!Array.isArray(list) || !list.every((t): t is string => typeof t === "string")) {
    throw new BadRequest(400, "Input must be a string or a list of strings.");
  }
  if (list.length === 0) throw new BadRequest(400, "Input cannot be an empty list.");
  if (list.length > MAX_INPUTS) throw new BadRequest(400, `The maximum number of inputs is ${MAX_INPUTS}.`);
  if (list.some((t) => t === "")) throw new BadRequest(400, "Input cannot contain empty strings.");
  if (typeof model !== "string" || !MODELS.has(model)) {
    throw new BadRequest(400, `Model ${String(model)} is not supported. Supported models are ${[...MODELS].join(", ")}.`);
  }
  if (inputType !== undefined && inputType !== null && inputType !== "query" && inputType !== "document") {
    throw new BadRequest(400, "Value 'input_type' must be one of None, 'query', 'document'.");
  }
  if (dimension !== undefined && dimension !== null && (typeof dimension !== "number" || !DIMENSIONS.has(dimension))) {
    throw new BadRequest(400, `Value 'output_dimension' must be one of ${[...DIMENSIONS].join(", ")}.`);
  }
  return {
    input: list,
    model,
    inputType: inputType ?? null,
    dimensions: typeof dimension === "number" ? dimension : EMBEDDING_DIMENSIONS,
  };
}

const embedders = new Map<number, LocalLexicalEmbedder>();

function embed(req: EmbedRequest): number[][] {
  let embedder = embedders.get(req.dimensions);
  if (!embedder) embedders.set(req.dimensions, (embedder = new LocalLexicalEmbedder(req.dimensions)));
  const e = embedder;
  return req.input.map((t) => e.embedOne(t));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeVoyage(options: { port?: number; host?: string } = {}): Promise<FakeVoyage> {
  const requests: RecordedVoyageRequest[] = [];
  const failures: PendingFailure[] = [];
  let delayMs = 0;

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { detail: `fake-voyage: ${String(err)}` });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // recorded raw; validation rejects it below
    }
    const record: RecordedVoyageRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      authorization: req.headers.authorization,
      body,
      status: 0,
    };
    requests.push(record);
    if (delayMs > 0) {
      const ms = delayMs;
      delayMs = 0;
      await new Promise((resolve) => setTimeout(resolve, ms));
      // The client may have given up meanwhile; writing then would only raise EPIPE.
      if (res.destroyed || req.destroyed) return;
    }
    const reply = (status: number, payload: unknown, headers?: Record<string, string>) => {
      record.status = status;
      send(res, status, payload, headers);
    };

    if (req.method === "GET" && req.url === "/health") return reply(200, { ok: true });
    if (req.method !== "POST" || req.url !== "/v1/embeddings") return reply(404, { detail: "Not Found" });
    if (req.headers.authorization !== `Bearer ${FAKE_VOYAGE_KEY}`) {
      return reply(401, { detail: "Provided API key is invalid." });
    }
    const failure = failures.shift();
    if (failure) {
      const message =
        failure.message ??
        (failure.status === 429
          ? "You have exceeded your rate limit. Please slow down."
          : failure.status >= 500
            ? "Internal server error."
            : "Bad request.");
      const retryAfter = failure.retryAfter ?? (failure.status === 429 ? "0" : undefined);
      return reply(failure.status, { detail: message }, retryAfter === undefined ? {} : { "retry-after": retryAfter });
    }
    if (typeof body === "string") return reply(400, { detail: "Request body is not valid JSON." });

    let parsed: EmbedRequest;
    try {
      parsed = validate(body);
    } catch (err) {
      if (err instanceof BadRequest) return reply(err.status, { detail: err.message });
      throw err;
    }
    const vectors = embed(parsed);
    // Rough token count, as usage is only informative here.
    const tokens = parsed.input.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
    // Listed in reverse: the API promises `index`, not order, and clients must sort by it.
    const data = vectors.map((embedding, index) => ({ object: "embedding", embedding, index })).reverse();
    return reply(200, { object: "list", data, model: parsed.model, usage: { total_tokens: tokens } });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;

  return {
    url: `http://${address}:${port}/v1`,
    requests,
    failNext(status, times = 1, opts = {}) {
      for (let i = 0; i < times; i++) failures.push({ status, ...opts });
    },
    delayNext(ms) {
      delayMs = ms;
    },
    reset() {
      requests.length = 0;
      failures.length = 0;
      delayMs = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

runIfEntry(import.meta.url, async () => {
  const fake = await startFakeVoyage({ port: Number(process.env.FAKE_VOYAGE_PORT ?? 4020) });
  console.log(`fake-voyage listening on ${fake.url} (key ${FAKE_VOYAGE_KEY})`);
  return fake;
});
