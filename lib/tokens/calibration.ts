// Calibration turns our cl100k estimates into Claude tokens: factor = what the API
// measured for a request / what we estimated for that exact request, kept per model.
import type { TokenizerFamily } from "@/lib/models";

export interface CalibrationState {
  factor: number;
  samples: number;
}

const MIN_FACTOR = 0.5;
const MAX_FACTOR = 3;
/** Weight of a new sample; 0.3 follows drift within a few requests without jumping on one odd one. */
const EMA_ALPHA = 0.3;
/** Below this many estimated tokens fixed per-request overheads dominate the ratio. */
const MIN_SAMPLE_TOKENS = 50;

/**
 * Starting points only, used until the first measurement of a model replaces them:
 * Claude's legacy tokenizer counts ~10% more than cl100k for English prose, and the
 * Claude 4.7+ tokenizer ~30% more than that. Erring high keeps first requests under C.
 */
export function initialFactor(family: TokenizerFamily): number {
  return family === "claude-2026" ? 1.4 : 1.1;
}

function clampFactor(f: number): number {
  return Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, f));
}

export function updateFactor(
  prev: CalibrationState | null,
  measured: number,
  estimated: number,
  family: TokenizerFamily,
): CalibrationState {
  const current = prev ?? { factor: initialFactor(family), samples: 0 };
  // Tiny requests and zero/NaN readings (offline replies, failed calls) say nothing about the tokenizer.
  if (!(estimated >= MIN_SAMPLE_TOKENS) || !(measured > 0) || !Number.isFinite(measured)) return current;
  const ratio = measured / estimated;
  // The initial factor is a guess, so one real measurement beats it outright; after that
  // the average smooths over language and content mix changing between requests.
  const factor = current.samples === 0 ? ratio : EMA_ALPHA * ratio + (1 - EMA_ALPHA) * current.factor;
  // A ratio outside [0.5, 3] means a bug or a mismatched request, not a tokenizer; clamping
  // keeps one bad reading from making the window wildly wrong.
  return { factor: clampFactor(factor), samples: current.samples + 1 };
}

export function calibrate(rawTokens: number, factor: number): number {
  // Rounding to 1e-6 first stops float noise (100 × 1.1 = 110.00000000000001) from adding a token.
  return Math.ceil(Math.round(rawTokens * factor * 1e6) / 1e6);
}
