// One colour per token kind across every chart, readable on light and dark backgrounds.
export const KIND_COLORS = {
  input: "#0ea5e9",
  cache_write: "#f59e0b",
  cache_read: "#10b981",
  output: "#8b5cf6",
} as const;

export const KIND_LABELS = {
  input: "Input",
  cache_write: "Cache write",
  cache_read: "Cache read",
  output: "Output",
} as const;

export type TokenKind = keyof typeof KIND_COLORS;
export const TOKEN_KINDS: TokenKind[] = ["input", "cache_write", "cache_read", "output"];

export const METHOD_COLORS: Record<string, string> = { llm: "#6366f1", extractive: "#14b8a6", sliding: "#f97316" };
export const MEASURED_COLOR = "#0ea5e9";
export const ESTIMATE_COLOR = "#a1a1aa";
export const SLIDE_COLOR = "#ef4444";
export const COMPACTION_COLOR = "#6366f1";
