// Overflow recovery (PRD FR-004): when the API answers "prompt is too long", the request
// is shrunk and retried. Each attempt takes 25 % off what the previous attempt sent, so the
// cuts compound rather than repeating the same (already failed) reduction.

export const OVERFLOW_REDUCTION = 0.25;
export const MAX_OVERFLOW_ATTEMPTS = 3;

/**
 * The token target for overflow attempt `attempt` (1..MAX_OVERFLOW_ATTEMPTS), given what the
 * failed request held: floor(current × 0.75^attempt). Attempt 1 → 75 %, 2 → 56.25 %, 3 → 42.2 %.
 */
export function overflowTarget(currentTokens: number, attempt: number): number {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > MAX_OVERFLOW_ATTEMPTS) {
    throw new RangeError(`overflow attempt must be 1..${MAX_OVERFLOW_ATTEMPTS}, got ${attempt}`);
  }
  if (!(currentTokens > 0)) return 0;
  return Math.floor(currentTokens * (1 - OVERFLOW_REDUCTION) ** attempt);
}
