// Voyage AI embeddings (https://docs.voyageai.com/reference/embeddings-api) over plain fetch:
// one endpoint does not justify an SDK dependency.
import { z } from "zod";
import type { EmbedKind, Embedder } from "./embedding";

const VOYAGE_MODEL = "voyage-3.5";
const VOYAGE_DEFAULT_BASE_URL = "https://api.voyageai.com/v1";

/** The API's limit on texts per request. */
export const VOYAGE_MAX_BATCH = 128;
// voyage-3.5 also caps a request at 320K tokens. Code and non-English text can run near 3 chars
// per token, so ~600K characters per request stays under it with a margin; a single text longer
// than that still goes alone and the API truncates it (truncation defaults to true).
const MAX_BATCH_CHARS = 600_000;
const REQUEST_TIMEOUT_MS = 15_000;
const MAX_RETRIES = 2;
const BASE_BACKOFF_MS = 500;
// A retry-after beyond this means a quota problem a short wait will not fix; fail instead.
const MAX_RETRY_AFTER_MS = 60_000;

const responseSchema = z.object({
  object: z.literal("list"),
  data: z.array(
    z.object({
      object: z.literal("embedding"),
      embedding: z.array(z.number()),
      index: z.number().int().min(0),
    }),
  ),
  model: z.string(),
  usage: z.object({ total_tokens: z.number() }),
});

/** A failed Voyage request: `status` is the HTTP status, or undefined for network failures and timeouts. */
export class VoyageError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "VoyageError";
  }
}

export interface VoyageOptions {
  apiKey: string;
  /** Default https://api.voyageai.com/v1 (tests point it at a fake server). */
  baseUrl?: string;
  dimensions: number;
  /** Defaults for production; tests shorten them. */
  timeoutMs?: number;
  maxRetries?: number;
  baseBackoffMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds or an HTTP date, as the header allows; undefined when absent or unparseable. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Voyage answers errors as `{ "detail": "..." }`; other shapes are tolerated for proxies. */
async function errorMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === "object" && body !== null) {
      const b = body as { detail?: unknown; message?: unknown; error?: unknown };
      if (typeof b.detail === "string") return b.detail;
      if (typeof b.message === "string") return b.message;
      if (typeof b.error === "string") return b.error;
      if (typeof b.error === "object" && b.error !== null) {
        const m = (b.error as { message?: unknown }).message;
        if (typeof m === "string") return m;
      }
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim().slice(0, 500) || res.statusText || "no error message";
}

// undici reports every network failure as "TypeError: fetch failed"; the reason is in `cause`.
function describeFetchError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? ` (${err.cause.message})` : "";
  return `${err.message}${cause}`;
}

function normalize(v: number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  return v.map((x) => x * inv);
}

/** Consecutive slices of at most VOYAGE_MAX_BATCH texts and about MAX_BATCH_CHARS characters. */
function batches(texts: readonly string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const t of texts) {
    if (current.length > 0 && (current.length === VOYAGE_MAX_BATCH || chars + t.length > MAX_BATCH_CHARS)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(t);
    chars += t.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export class VoyageEmbedder implements Embedder {
  readonly model = VOYAGE_MODEL;
  private readonly url: string;

  constructor(private readonly options: VoyageOptions) {
    this.url = `${(options.baseUrl ?? VOYAGE_DEFAULT_BASE_URL).replace(/\/+$/, "")}/embeddings`;
  }

  async embed(texts: readonly string[], kind: EmbedKind): Promise<number[][]> {
    const out: number[][] = new Array<number[]>(texts.length);
    // The API rejects empty strings; a blank text has nothing to find anyway, so it gets the
    // zero vector (stored as no embedding) without a request.
    const wanted: number[] = [];
    for (const [i, t] of texts.entries()) {
      if (t.trim() === "") out[i] = new Array<number>(this.options.dimensions).fill(0);
      else wanted.push(i);
    }
    let done = 0;
    // Sequential on purpose: concurrent batches would mostly buy 429s from the rate limiter.
    for (const batch of batches(wanted.map((i) => texts[i]))) {
      const vectors = await this.request(batch, kind);
      for (const v of vectors) out[wanted[done++]] = v;
    }
    return out;
  }

  private async request(input: string[], kind: EmbedKind): Promise<number[][]> {
    const { apiKey, dimensions } = this.options;
    const maxRetries = this.options.maxRetries ?? MAX_RETRIES;
    const body = JSON.stringify({ input, model: VOYAGE_MODEL, input_type: kind, output_dimension: dimensions });
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(this.url, {
          method: "POST",
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? REQUEST_TIMEOUT_MS),
        });
      } catch (err) {
        // A timeout already cost the full budget; retrying would hold the caller (often a chat
        // request) for a multiple of it. Connection failures are cheap to retry.
        const timedOut = err instanceof DOMException && err.name === "TimeoutError";
        if (!timedOut && attempt < maxRetries) {
          await sleep(this.backoff(attempt));
          continue;
        }
        const why = timedOut ? `timed out after ${this.options.timeoutMs ?? REQUEST_TIMEOUT_MS} ms` : describeFetchError(err);
        throw new VoyageError(`Voyage embeddings request failed: ${why}`, undefined, { cause: err });
      }

      if (res.ok) {
        let json: unknown;
        try {
          json = await res.json();
        } catch (err) {
          throw new VoyageError(`Voyage embeddings response could not be read: ${String(err)}`, res.status, { cause: err });
        }
        return this.parse(json, input.length);
      }

      const message = await errorMessage(res);
      const retryable = res.status === 429 || res.status >= 500;
      const wait = retryAfterMs(res.headers.get("retry-after")) ?? this.backoff(attempt);
      if (retryable && attempt < maxRetries && wait <= MAX_RETRY_AFTER_MS) {
        await sleep(wait);
        continue;
      }
      let tries = "";
      if (retryable && attempt >= maxRetries && attempt > 0) tries = ` after ${attempt + 1} attempts`;
      else if (retryable && wait > MAX_RETRY_AFTER_MS) tries = ` (retry-after ${Math.round(wait / 1000)} s is too long to wait)`;
      throw new VoyageError(`Voyage embeddings request failed (HTTP ${res.status})${tries}: ${message}`, res.status);
    }
  }

  // Exponential with jitter, so clients that failed together do not retry together.
  private backoff(attempt: number): number {
    const base = (this.options.baseBackoffMs ?? BASE_BACKOFF_MS) * 2 ** attempt;
    return base / 2 + Math.random() * (base / 2);
  }

  private parse(json: unknown, expected: number): number[][] {
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) {
      throw new VoyageError(`Voyage embeddings response has an unexpected shape: ${z.prettifyError(parsed.error)}`);
    }
    const { data } = parsed.data;
    if (data.length !== expected) {
      throw new VoyageError(`Voyage returned ${data.length} embeddings for ${expected} inputs`);
    }
    // Order by `index`, not by position: the API does not promise the two agree.
    const out: number[][] = new Array<number[]>(expected);
    for (const item of data) {
      if (item.index >= expected || out[item.index] !== undefined) {
        throw new VoyageError(`Voyage returned an out-of-range or duplicate embedding index ${item.index}`);
      }
      if (item.embedding.length !== this.options.dimensions) {
        throw new VoyageError(`Voyage returned ${item.embedding.length} dimensions, expected ${this.options.dimensions}`);
      }
      out[item.index] = normalize(item.embedding);
    }
    // Every slot is filled: as many items as inputs, each index in range and none repeated.
    return out;
  }
}
