// The one model registry: every window, output limit, price and tokenizer lookup goes
// through here so capacity, cost and calibration can never disagree about a model.

/**
 * Which Claude tokenizer a model uses. Claude 4.7 and later ("claude-2026") count about
 * 30% more tokens than Haiku 4.5 for the same text, so calibration starts per family.
 */
export type TokenizerFamily = "claude-legacy" | "claude-2026";

export interface ModelInfo {
  id: string;
  /**
   * Other ids the API accepts for this same model (dated snapshots). They resolve to this row so
   * a stored or SDK-supplied dated id gets the same window, price and tokenizer.
   */
  aliases?: readonly string[];
  label: string;
  /** Public release date (YYYY-MM-DD); `GET /v1/models` reports it as `created_at`. */
  released: string;
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
  thinking: ThinkingInfo;
  /**
   * The day the API stops serving the model (YYYY-MM-DD), as the Anthropic SDK's table of
   * deprecated models announces it (tests/unit/model-retirement.test.ts keeps the two agreeing).
   */
  retires?: string;
}

/**
 * How a model thinks, from platform.claude.com/docs/en/build-with-claude/extended-thinking,
 * /adaptive-thinking, /preserved-thinking (and its prefix-checks page) and each model's
 * "what's new" page.
 */
export interface ThinkingInfo {
  /** Claude thinks when a request says nothing of thinking (the 5 family: "thinking on by default"). */
  defaultOn: boolean;
  /** `thinking: {type: "disabled"}` is refused ("thinking can't be disabled": Fable 5.1, Opus 5.5 and later). */
  alwaysOn: boolean;
  /** `thinking: {type: "adaptive"}` (Claude 4.6 on); before it only a `budget_tokens` budget. */
  adaptive: boolean;
  /**
   * Thinking blocks of earlier turns stay in Claude's context, billed as input (Opus 4.5 on:
   * "thinking block preservation"). Older models drop them from every turn but the current
   * tool loop, which must be sent back unchanged.
   */
  keepsEarlier: boolean;
  /**
   * A thinking block sent back is checked against the prefix it was produced under (system,
   * tools and every message before it); a changed prefix invalidates it and every later one
   * (the prefix-checks page lists these models).
   */
  prefixCheck: boolean;
}

const LEGACY_THINKING: ThinkingInfo = { defaultOn: false, alwaysOn: false, adaptive: false, keepsEarlier: false, prefixCheck: false };
const KEEPS_THINKING: ThinkingInfo = { ...LEGACY_THINKING, keepsEarlier: true };
const ADAPTIVE_THINKING: ThinkingInfo = { ...KEEPS_THINKING, adaptive: true };
const DEFAULT_THINKING: ThinkingInfo = { ...ADAPTIVE_THINKING, defaultOn: true };
const BOUND_THINKING: ThinkingInfo = { ...DEFAULT_THINKING, prefixCheck: true };
const ALWAYS_THINKING: ThinkingInfo = { ...BOUND_THINKING, alwaysOn: true };

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

// Anthropic prices cache writes (5-minute TTL) at 1.25x input and, on most models, cache reads
// at 0.1x, so a row states input and output and only a cache-read ratio that departs from 0.1.
function price(inputPerMTok: number, outputPerMTok: number, cacheReadRatio = 0.1): Price {
  return {
    inputPerMTok,
    outputPerMTok,
    cacheWritePerMTok: inputPerMTok * 1.25,
    cacheReadPerMTok: inputPerMTok * cacheReadRatio,
  };
}

// Fable and Mythos from 5.1 on read the cache at a quarter of the usual rate (release notes,
// 2026-09-01: $0.25 on a $10 input).
const FABLE_CACHE_READ = 0.025;

const ONE_MILLION = 1_000_000;
const TWO_HUNDRED_K = 200_000;

// The price table: edit a row here when Anthropic's prices change. Recorded calls keep the
// cost computed when they were made. Sonnet 4 and 4.5 bill prompts over 200K input tokens
// at the long-context rate (when their 1M window is enabled).
// A row's facts come from its model page under platform.claude.com/docs/en/models/, the
// pricing page, the release notes and the prompt-caching page; a trailing comment names any
// fact taken from elsewhere, or borrowed from a documented sibling because the docs give none.
const REGISTRY: ModelInfo[] = [
  { id: "claude-haiku-5-5", label: "Claude Haiku 5.5", released: "2026-10-07", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(1, 5), minCacheTokens: 4096, thinking: BOUND_THINKING, tokenizer: "claude-2026" },
  { id: "claude-sonnet-5-5", label: "Claude Sonnet 5.5", released: "2026-09-28", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(3, 15), minCacheTokens: 1024, thinking: BOUND_THINKING, tokenizer: "claude-2026" }, // release date: partner listings, no docs page found
  { id: "claude-opus-5-5", label: "Claude Opus 5.5", released: "2026-09-22", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(5, 25), minCacheTokens: 512, thinking: ALWAYS_THINKING, tokenizer: "claude-2026" }, // release date: Anthropic's launch post
  { id: "claude-fable-5-1", label: "Claude Fable 5.1", released: "2026-09-01", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(3, 15), minCacheTokens: 512, thinking: ALWAYS_THINKING, tokenizer: "claude-2026" },
  { id: "claude-fable-5-2", label: "Claude Fable 5.2", released: "2026-11-09", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(8, 40, FABLE_CACHE_READ), minCacheTokens: 512, thinking: ALWAYS_THINKING, tokenizer: "claude-2026" }, // cache-read ratio and cache minimum: sibling Fable 5.1
  { id: "claude-mythos-5-2", label: "Claude Mythos 5.2", released: "2026-11-09", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(8, 40, FABLE_CACHE_READ), minCacheTokens: 512, thinking: ALWAYS_THINKING, tokenizer: "claude-2026" }, // same model as Fable 5.2; cache-read ratio and minimum: sibling Fable 5.1
  { id: "claude-mythos-5-1", label: "Claude Mythos 5.1", released: "2026-09-01", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(10, 50, FABLE_CACHE_READ), minCacheTokens: 512, thinking: ALWAYS_THINKING, tokenizer: "claude-2026" }, // cache minimum: sibling Fable 5.1
  { id: "claude-opus-5", label: "Claude Opus 5", released: "2026-07-24", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(5, 25), minCacheTokens: 512, thinking: DEFAULT_THINKING, tokenizer: "claude-2026" },
  { id: "claude-sonnet-5", label: "Claude Sonnet 5", released: "2026-06-30", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(2, 10), minCacheTokens: 1024, thinking: DEFAULT_THINKING, tokenizer: "claude-2026" },
  { id: "claude-fable-5", label: "Claude Fable 5", released: "2026-06-09", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(10, 50), minCacheTokens: 512, thinking: DEFAULT_THINKING, tokenizer: "claude-2026" },
  { id: "claude-mythos-5", label: "Claude Mythos 5", released: "2026-06-09", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(10, 50), minCacheTokens: 512, thinking: DEFAULT_THINKING, tokenizer: "claude-2026" },
  { id: "claude-opus-4-8", label: "Claude Opus 4.8", released: "2026-05-28", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(5, 25), minCacheTokens: 1024, thinking: ADAPTIVE_THINKING, tokenizer: "claude-2026" },
  { id: "claude-opus-4-7", label: "Claude Opus 4.7", released: "2026-04-16", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(5, 25), minCacheTokens: 2048, thinking: ADAPTIVE_THINKING, tokenizer: "claude-2026" }, // window, output, date: Bedrock model card (no docs page found)
  { id: "claude-mythos-preview", label: "Claude Mythos Preview", released: "2026-04-07", retires: "2026-06-30", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(10, 50), minCacheTokens: 2048, thinking: ADAPTIVE_THINKING, tokenizer: "claude-2026" }, // docs give no window, output or price: those of its successor Mythos 5; date: launch announcement
  { id: "claude-sonnet-4-6", label: "Claude Sonnet 4.6", released: "2026-02-17", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(3, 15), minCacheTokens: 1024, thinking: ADAPTIVE_THINKING, tokenizer: "claude-legacy" },
  { id: "claude-opus-4-6", label: "Claude Opus 4.6", released: "2026-02-05", contextWindow: ONE_MILLION, maxOutput: 128_000, price: price(5, 25), minCacheTokens: 4096, thinking: ADAPTIVE_THINKING, tokenizer: "claude-legacy" },
  { id: "claude-sonnet-4-5", aliases: ["claude-sonnet-4-5-20250929"], label: "Claude Sonnet 4.5", released: "2025-09-29", retires: "2026-11-30", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(3, 15), longContext: { aboveInputTokens: TWO_HUNDRED_K, price: price(6, 22.5) }, minCacheTokens: 1024, thinking: LEGACY_THINKING, tokenizer: "claude-legacy" },
  { id: "claude-haiku-4-5", aliases: ["claude-haiku-4-5-20251001"], label: "Claude Haiku 4.5", released: "2025-10-15", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(1, 5), minCacheTokens: 4096, thinking: LEGACY_THINKING, tokenizer: "claude-legacy" },
  { id: "claude-opus-4-5", aliases: ["claude-opus-4-5-20251101"], label: "Claude Opus 4.5", released: "2025-11-24", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(5, 25), minCacheTokens: 4096, thinking: KEEPS_THINKING, tokenizer: "claude-legacy" },
  { id: "claude-opus-4-1", label: "Claude Opus 4.1", released: "2025-08-05", contextWindow: TWO_HUNDRED_K, maxOutput: 32_000, price: price(15, 75), minCacheTokens: 1024, thinking: LEGACY_THINKING, tokenizer: "claude-legacy" }, // release date: Anthropic's launch post
  { id: "claude-sonnet-4", label: "Claude Sonnet 4", released: "2025-05-22", contextWindow: TWO_HUNDRED_K, maxOutput: 64_000, price: price(3, 15), longContext: { aboveInputTokens: TWO_HUNDRED_K, price: price(6, 22.5) }, minCacheTokens: 1024, thinking: LEGACY_THINKING, tokenizer: "claude-legacy" }, // release date: Anthropic's launch post
];

// Frozen because every caller shares these objects; a stray write would change limits app-wide.
export const MODELS: readonly ModelInfo[] = Object.freeze(REGISTRY.map((m) => deepFreeze(m)));

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v && typeof v === "object") deepFreeze(v as object);
  return Object.freeze(o);
}

// Ids and aliases share one namespace; a repeat would silently shadow a row, so fail at load.
const BY_ID: ReadonlyMap<string, ModelInfo> = (() => {
  const byId = new Map<string, ModelInfo>();
  for (const m of MODELS) {
    for (const id of [m.id, ...(m.aliases ?? [])]) {
      if (byId.has(id)) throw new Error(`Model id "${id}" appears twice in the registry`);
      byId.set(id, m);
    }
  }
  return byId;
})();

// Registry order is the model pickers' display order (the current lineup first); listings want
// newest first. The sort is stable, so models released the same day keep their registry order.
const BY_RELEASE: readonly ModelInfo[] = Object.freeze([...MODELS].sort((a, b) => b.released.localeCompare(a.released)));

export const DEFAULT_MODEL = "claude-sonnet-5-5";
export const DEFAULT_SUMMARY_MODEL = "claude-haiku-5-5";

/** The model an id or one of its aliases names; a dated alias gets the undated id's row. */
export function getModel(id: string): ModelInfo | undefined {
  return BY_ID.get(id);
}

/** Every model once, newest release first (the order `GET /v1/models` lists them in). */
export function modelList(): readonly ModelInfo[] {
  return BY_RELEASE;
}

/** Still served; served until a known day; no longer served. */
export type ModelLifecycle = "current" | "retiring" | "retired";

export function modelLifecycle(model: ModelInfo, now: Date = new Date()): ModelLifecycle {
  if (!model.retires) return "current";
  return now.getTime() >= Date.parse(`${model.retires}T00:00:00Z`) ? "retired" : "retiring";
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A model as a picker lists it: "Claude Sonnet 4.5 · retires 30 Nov 2026", "… · retired".
 * Written out by hand, not by the locale, so the server's render and the browser's agree.
 */
export function modelOptionLabel(model: ModelInfo, now: Date = new Date()): string {
  const state = modelLifecycle(model, now);
  if (state === "current" || !model.retires) return model.label;
  if (state === "retired") return `${model.label} · retired`;
  const [y, m, d] = model.retires.split("-").map(Number);
  return `${model.label} · retires ${d} ${MONTHS[m - 1]} ${y}`;
}

/**
 * What a model picker offers: every model still served, in registry order, and `selected` (a
 * session's or a setting's own model) even when retired, so it still shows, marked.
 */
export function pickableModels(selected: string | null, now: Date = new Date()): readonly ModelInfo[] {
  const own = selected ? getModel(selected) : undefined;
  return MODELS.filter((m) => m === own || modelLifecycle(m, now) !== "retired");
}

/** Why a new session or a new choice cannot use this model; null while it is served. */
export function retiredReason(id: string, now: Date = new Date()): string | null {
  const model = BY_ID.get(id);
  if (!model?.retires || modelLifecycle(model, now) !== "retired") return null;
  const choices = pickableModels(null, now).map((m) => m.id);
  return `${model.label} was retired on ${model.retires}: Anthropic no longer serves it. Choose another model: ${choices.join(", ")}.`;
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
