// The embedding seam for cross-session memory. Rows record the model that embedded them, and
// search compares only rows of the current model, so switching providers never mixes vector
// spaces; `npm run memory:reembed` brings old rows over.
import { LocalLexicalEmbedder } from "./local-embedder";
import { VoyageEmbedder } from "./voyage";

/** Fixed by the `vector(1024)` column; both providers are configured to produce exactly this. */
export const EMBEDDING_DIMENSIONS = 1024;

/** Voyage prepends a different instruction for each; the local embedder is symmetric and ignores it. */
export type EmbedKind = "document" | "query";

export interface Embedder {
  /** Recorded with each row; search compares only rows of the current model. */
  readonly model: string;
  /**
   * One vector per text, in order, each of length EMBEDDING_DIMENSIONS and L2-normalized — except
   * that a text with nothing to embed (empty, or only stopwords and punctuation for the local
   * embedder) yields an all-zero vector, which callers store as NULL so vector search skips it.
   */
  embed(texts: readonly string[], kind: EmbedKind): Promise<number[][]>;
}

// Stateless, so one instance serves every call. The provider modules import only types from
// here and take the dimension as a parameter: no import cycle, whichever module loads first.
const locals = new Map<number, LocalLexicalEmbedder>();

function setting(name: string): string | undefined {
  const v = process.env[name]?.trim();
  return v ? v : undefined;
}

/**
 * Voyage when VOYAGE_API_KEY is set, else the local lexical embedder. Reads the environment on
 * every call (constructing a Voyage client is free) so tests and scripts can switch providers.
 * `dimensions` is the width of the column the vectors go to (memories 1024, history 256).
 */
export function getEmbedder(dimensions: number = EMBEDDING_DIMENSIONS): Embedder {
  const apiKey = setting("VOYAGE_API_KEY");
  if (!apiKey) {
    let local = locals.get(dimensions);
    if (!local) locals.set(dimensions, (local = new LocalLexicalEmbedder(dimensions)));
    return local;
  }
  return new VoyageEmbedder({ apiKey, baseUrl: setting("VOYAGE_BASE_URL"), dimensions });
}

/**
 * The text form pgvector parses, for a `$1::vector` parameter. Six significant digits keep a
 * 1024-dim vector near 9 KB of SQL text; rounding by at most 5e-7 relative is far below any
 * difference that decides a similarity ranking (pgvector stores float4, ~7 digits, anyway).
 */
export function toPgVector(v: readonly number[]): string {
  const parts = new Array<string>(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    // pgvector rejects NaN and infinities; failing here names the cause instead of a SQL error.
    if (!Number.isFinite(x)) throw new Error(`toPgVector: component ${i} is not a finite number (${x})`);
    // `+` drops trailing zeros and the sign of -0; exponents like 1e-7 are accepted by pgvector.
    parts[i] = String(+x.toPrecision(6));
  }
  return `[${parts.join(",")}]`;
}
