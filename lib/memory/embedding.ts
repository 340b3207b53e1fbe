// What an embedder is; the providers (local-embedder.ts, voyage.ts) implement it and embedder.ts picks one.

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
