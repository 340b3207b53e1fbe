export { EMBEDDING_DIMENSIONS, getEmbedder, toPgVector, type EmbedKind, type Embedder } from "./embedder";
export { LOCAL_EMBEDDING_MODEL, LocalLexicalEmbedder } from "./local-embedder";
export { VOYAGE_MODEL, VoyageEmbedder, VoyageError, type VoyageOptions } from "./voyage";
