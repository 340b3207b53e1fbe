// The one model registry: every window, output limit, price and tokenizer lookup goes
// through here so capacity, cost and calibration can never disagree about a model.

/**
 * Which Claude tokenizer a model uses. Claude 4.7 and later ("claude-2026") count about
 * 30% more tokens than Haiku 4.5 for the same text, so calibration starts per family.
 */
export type TokenizerFamily = "claude-legacy" | "claude-2026";

export interface ModelInfo {
  id: string;
  label: string;
  contextWindow: number;
  maxOutput: number;
  price: Price;
  /**
   * Where a model prices long prompts higher: a request whose input (cache reads and writes
   * included) exceeds `aboveInputTokens` is billed at `price` for all its tokens.
   */
  longContext?: { aboveInputTokens: number; price: Price };
  /** The shortest prefix the API caches for this model; a breakpoint before it is wasted. */
  minCacheTokens: number;
  tokenizer: TokenizerFamily;
}

/** USD per million tokens. */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Writes with the default 5-minute lifetime. */
  cacheWritePerMTok: number;
  cacheReadPerMTok: number;
}

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

// Anthropic prices cache writes (5-minute TTL) at 1.25x input and cache reads at 0.1x,
// so only input and output need to be stated per model.
function price(inputPerMTok: number, outputPerMTok: number): Price {
  return {
    inputPerMTok,
    outputPerMTok,
    cacheWritePerMTok: inputPerMTok * 1.25,
    cacheReadPerMTok: inputPerMTok * 0.1,
  };
}

const ONE_MILLION = 1_000_000;
const TWO_HUNDRED_K = 200_000;

// The price table: edit a row here when Anthropic's prices change. Recorded calls keep the
// cost computed when they were made. Sonnet 4 and 4.5 bill prompts over 200K input tokens
// at the long-context rate (when their 1M window is enabled).
const REGISTRY: ModelInfo[] = [
  { id: "claude-haiku-5-5", label: "Claude Haiku 5.5", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(1, 5), minCacheTokens: 4096, tokenizer: "claude-2026" },
  { id: "claude-sonnet-5-5", label: "Claude Sonnet 5.5", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(3, 15), minCacheTokens: 1024, tokenizer: "claude-2026" },
  { id: "claude-opus-5-5", label: "Claude Opus 5.5", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(5, 25), minCacheTokens: 512, tokenizer: "claude-2026" },
  { id: "claude-fable-5-1", label: "Claude Fable 5.1", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(3, 15), minCacheTokens: 512, tokenizer: "claude-2026" },
  { id: "claude-sonnet-4-5", label: "Claude Sonnet 4.5", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(3, 15), longContext: { aboveInputTokens: TWO_HUNDRED_K, price: price(6, 22.5) }, minCacheTokens: 1024, tokenizer: "claude-legacy" },
  { id: "claude-haiku-4-5", label: "Claude Haiku 4.5", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(1, 5), minCacheTokens: 4096, tokenizer: "claude-legacy" },
  { id: "claude-opus-4-5", label: "Claude Opus 4.5", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(5, 25), minCacheTokens: 4096, tokenizer: "claude-legacy" },
  { id: "claude-opus-4-1", label: "Claude Opus 4.1", contextWindow: TWO_HUNDRED_K, maxOutput: 32_000, price: price(15, 75), minCacheTokens: 1024, tokenizer: "claude-legacy" },
  { id: "claude-sonnet-4", label: "Claude Sonnet 4", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(3, 15), longContext: { aboveInputTokens: TWO_HUNDRED_K, price: price(6, 22.5) }, minCacheTokens: 1024, tokenizer: "claude-legacy" },
];

// Frozen because every caller shares these objects; a stray write would change limits app-wide.
export const MODELS: readonly ModelInfo[] = Object.freeze(REGISTRY.map((m) => deepFreeze(m)));

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v && typeof v === "object") deepFreeze(v as object);
  return Object.freeze(o);
}

const BY_ID: ReadonlyMap<string, ModelInfo> = new Map(MODELS.map((m) => [m.id, m]));

export const DEFAULT_MODEL = "claude-sonnet-5-5";
export const DEFAULT_SUMMARY_MODEL = "claude-haiku-5-5";

export function getModel(id: string): ModelInfo | undefined {
  return BY_ID.get(id);
}

export function requireModel(id: string): ModelInfo {
  const model = BY_ID.get(id);
  if (!model) throw new Error(`Unknown model "${id}". Known models: ${MODELS.map((m) => m.id).join(", ")}`);
  return model;
}

/** Input tokens of a request as billed: cache reads and writes are reported apart from `input_tokens`. */
export function billedInputTokens(usage: TokenUsage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** Cost of one request in USD, at the long-context rate when its input is over the model's tier. */
export function costUsd(model: ModelInfo, usage: TokenUsage): number {
  const p =
    model.longContext && billedInputTokens(usage) > model.longContext.aboveInputTokens ? model.longContext.price : model.price;
  const micro =
    usage.input_tokens * p.inputPerMTok +
    usage.output_tokens * p.outputPerMTok +
    (usage.cache_creation_input_tokens ?? 0) * p.cacheWritePerMTok +
    (usage.cache_read_input_tokens ?? 0) * p.cacheReadPerMTok;
  return micro / ONE_MILLION;
}
