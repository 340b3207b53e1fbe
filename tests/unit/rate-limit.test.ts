import { describe, expect, it } from "vitest";
import { assertWithinBudget, budgetResetsAt } from "@/lib/limits/budget";
import { costMicros, quotaOf, rateLimitHeaders, tightest, windowMicros } from "@/lib/limits/quota";
import { AppError } from "@/lib/errors";

/** The bucket as takeFromBucket keeps it, in microseconds of debt, replayed in memory. */
function replay(limit: number, arrivalsMs: number[]) {
  let refilledAt = 0;
  return arrivalsMs.map((t) => {
    const now = t * 1000;
    const next = Math.max(refilledAt, now) + costMicros(limit);
    if (next - now <= windowMicros()) {
      refilledAt = next;
      return quotaOf({ allowed: true, debtSeconds: (next - now) / 1e6 }, limit);
    }
    return quotaOf({ allowed: false, debtSeconds: (refilledAt - now) / 1e6 }, limit);
  });
}

describe("the bucket (GCRA: a token bucket of `limit` refilling at `limit` per minute)", () => {
  it.each([1, 7, 60, 600, 7000])("allows a burst of exactly the limit (%i), then refuses", (limit) => {
    const at = replay(limit, Array.from({ length: limit + 1 }, () => 0));
    expect(at.slice(0, limit).every((q) => q.retryAfterSeconds === null)).toBe(true);
    expect(at[limit - 1].remaining).toBe(0);
    expect(at[limit].retryAfterSeconds).not.toBeNull();
  });

  it("counts remaining down from limit - 1 and reports when it is full again", () => {
    const [first, second] = replay(10, [0, 0]);
    expect(first).toEqual({ limit: 10, remaining: 9, resetSeconds: 6, retryAfterSeconds: null });
    expect(second).toEqual({ limit: 10, remaining: 8, resetSeconds: 12, retryAfterSeconds: null });
  });

  it("tells a refused client how long until one more fits, and that wait is enough", () => {
    const limit = 10; // one per 6 s
    const burst = replay(limit, Array.from({ length: 11 }, () => 0));
    const refused = burst[10];
    expect(refused).toMatchObject({ remaining: 0, resetSeconds: 60, retryAfterSeconds: 6 });
    const arrivals = [...Array.from({ length: 10 }, () => 0), 0, 5_999, 6_000];
    const out = replay(limit, arrivals);
    expect(out[11].retryAfterSeconds).toBe(1);
    expect(out[12].retryAfterSeconds).toBeNull();
  });

  it("holds a client that never stops to the limit per minute, after the first burst", () => {
    // 60/min, a request every 50 ms for three minutes: the initial burst of 60, then one a second.
    const hammer = Array.from({ length: 3600 }, (_, i) => i * 50);
    const allowed = replay(60, hammer).filter((q) => q.retryAfterSeconds === null).length;
    expect(allowed).toBe(60 + 180 - 1);
  });

  it("refills at the limit's rate: a minute idle makes the whole burst available again", () => {
    const burst = Array.from({ length: 60 }, () => 0);
    const again = Array.from({ length: 61 }, () => 60_000);
    const out = replay(60, [...burst, ...again]);
    expect(out.filter((q) => q.retryAfterSeconds === null).length).toBe(120);
  });

  it("writes the IETF draft's fields, and Retry-After only on a refusal", () => {
    expect(rateLimitHeaders({ limit: 600, remaining: 5, resetSeconds: 59, retryAfterSeconds: null })).toEqual({
      "RateLimit-Limit": "600",
      "RateLimit-Remaining": "5",
      "RateLimit-Reset": "59",
    });
    expect(rateLimitHeaders({ limit: 60, remaining: 0, resetSeconds: 60, retryAfterSeconds: 2 })["Retry-After"]).toBe("2");
  });

  it("reports the bucket closest to refusing", () => {
    const requests = { limit: 600, remaining: 500, resetSeconds: 10, retryAfterSeconds: null };
    const sends = { limit: 60, remaining: 3, resetSeconds: 57, retryAfterSeconds: null };
    expect(tightest([requests, sends])).toBe(sends);
    expect(tightest([])).toBeNull();
  });
});

describe("the daily budget", () => {
  const now = new Date("2026-03-01T22:30:00.000Z");

  it("resets at the next UTC midnight", () => {
    expect(budgetResetsAt(now).toISOString()).toBe("2026-03-02T00:00:00.000Z");
  });

  it("lets sends through below the budget or without one, and refuses at it with 429 budget_exhausted", () => {
    expect(() => assertWithinBudget({ tokens: 999, budget: 1000 }, now)).not.toThrow();
    expect(() => assertWithinBudget({ tokens: 10 ** 9, budget: null }, now)).not.toThrow();
    let err: unknown;
    try {
      assertWithinBudget({ tokens: 1000, budget: 1000 }, now);
    } catch (e) {
      err = e;
    }
    const e = err as AppError;
    expect([e.status, e.code]).toEqual([429, "budget_exhausted"]);
    expect(e.headers?.["Retry-After"]).toBe("5400");
    expect(e.details).toMatchObject({ tokens_today: 1000, daily_token_budget: 1000, resets_at: "2026-03-02T00:00:00.000Z" });
  });
});
