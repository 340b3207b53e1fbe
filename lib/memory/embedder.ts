// The embedding seam for cross-session memory. Rows record the model that embedded them, and
// search compares only rows of the current model, so switching providers never mixes vector
// spaces; `npm run memory:reembed` brings old rows over.
import { EMBEDDING_DIMENSIONS, type Embedder } from "./embedding";
import { LocalLexicalEmbedder } from "./local-embedder";
import { VoyageEmbedder } from "./voyage";

export { EMBEDDING_DIMENSIONS, type EmbedKind, type Embedder } from "./embedding";

// Stateless, so one instance serves every call.
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
