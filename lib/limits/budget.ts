// The optional daily token budget per user (THREADKEEPER_DAILY_TOKEN_BUDGET): billed input and
// output tokens of every call (replies, summaries, titles) per UTC day, read from the
// llm_usage_daily rollup the same transaction as each call keeps. A send is refused once the
// day's use has reached the budget; a send started below it may finish above it, since no one
// knows a reply's length in advance.
import "server-only";
import type { Tx } from "@/lib/db";
import { tokensToday } from "@/lib/db/llm-calls";
import { limitsEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { countRefusal } from "@/lib/metrics";

export interface DailyUsage {
  tokens: number;
  /** null: no budget configured. */
  budget: number | null;
}

export function dailyBudget(): number | null {
  const b = limitsEnv().THREADKEEPER_DAILY_TOKEN_BUDGET;
  return b ? b : null;
}

export async function usageToday(tx: Tx, userId: string): Promise<DailyUsage> {
  return { tokens: await tokensToday(tx, userId), budget: dailyBudget() };
}

/** The next UTC midnight, when the day's use starts again from zero. */
export function budgetResetsAt(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** 429 budget_exhausted, with Retry-After until the next UTC day, when today's use has reached the budget. */
export function assertWithinBudget(u: DailyUsage, now = new Date()): void {
  if (u.budget === null || u.tokens < u.budget) return;
  countRefusal("budget");
  const resets = budgetResetsAt(now);
  const retryAfter = Math.max(1, Math.ceil((resets.getTime() - now.getTime()) / 1000));
  throw new AppError(
    429,
    "budget_exhausted",
    `Today's token budget is used up (${u.tokens} of ${u.budget} tokens); sends are accepted again at ${resets.toISOString()}.`,
    { tokens_today: u.tokens, daily_token_budget: u.budget, resets_at: resets.toISOString(), retry_after_seconds: retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}
