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
  /** USD per million tokens. */
  price: { inputPerMTok: number; outputPerMTok: number; cacheWritePerMTok: number; cacheReadPerMTok: number };
  tokenizer: TokenizerFamily;
}

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

// Anthropic prices cache writes (5-minute TTL) at 1.25x input and cache reads at 0.1x,
// so only input and output need to be stated per model.
function price(inputPerMTok: number, outputPerMTok: number): ModelInfo["price"] {
  return {
    inputPerMTok,
    outputPerMTok,
    cacheWritePerMTok: inputPerMTok * 1.25,
    cacheReadPerMTok: inputPerMTok * 0.1,
  };
}

const ONE_MILLION = 1_000_000;
const TWO_HUNDRED_K = 200_000;

const REGISTRY: ModelInfo[] = [
  { id: "claude-haiku-5-5", label: "Claude Haiku 5.5", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(1, 5), tokenizer: "claude-2026" },
  { id: "claude-sonnet-5-5", label: "Claude Sonnet 5.5", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(3, 15), tokenizer: "claude-2026" },
  { id: "claude-opus-5-5", label: "Claude Opus 5.5", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(5, 25), tokenizer: "claude-2026" },
  { id: "claude-fable-5-1", label: "Claude Fable 5.1", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(3, 15), tokenizer: "claude-2026" },
  { id: "claude-sonnet-4-5", label: "Claude Sonnet 4.5", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(3, 15), tokenizer: "claude-legacy" },
  { id: "claude-haiku-4-5", label: "Claude Haiku 4.5", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(1, 5), tokenizer: "claude-legacy" },
  { id: "claude-opus-4-5", label: "Claude Opus 4.5", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(5, 25), tokenizer: "claude-legacy" },
  { id: "claude-opus-4-1", label: "Claude Opus 4.1", contextWindow: TWO_HUNDRED_K, maxOutput: 32_000, price: price(15, 75), tokenizer: "claude-legacy" },
  { id: "claude-sonnet-4", label: "Claude Sonnet 4", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(3, 15), tokenizer: "claude-legacy" },
];

// Frozen because every caller shares these objects; a stray write would change limits app-wide.
export const MODELS: readonly ModelInfo[] = Object.freeze(
  REGISTRY.map((m) => Object.freeze({ ...m, price: Object.freeze(m.price) })),
);

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

/** Cost of one request in USD. Cache tokens are billed on top of `input_tokens`, as the API reports them separately. */
export function costUsd(model: ModelInfo, usage: TokenUsage): number {
  const p = model.price;
  const micro =
    usage.input_tokens * p.inputPerMTok +
    usage.output_tokens * p.outputPerMTok +
    (usage.cache_creation_input_tokens ?? 0) * p.cacheWritePerMTok +
    (usage.cache_read_input_tokens ?? 0) * p.cacheReadPerMTok;
  return micro / ONE_MILLION;
}
