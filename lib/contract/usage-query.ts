// The query strings of GET /api/usage and GET /api/usage/summary.
import { z } from "zod";
import { GROUP_BYS } from "./usage";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const isoDateTime = z.iso.datetime({ offset: true });

/** An ISO 8601 instant with its offset (2026-11-01T09:30:00Z, …+01:00) or a date (UTC midnight). */
const instant = z.string().transform((s, ctx) => {
  const ok = DATE_ONLY.test(s) ? z.iso.date().safeParse(s).success : isoDateTime.safeParse(s).success;
  const t = ok ? Date.parse(DATE_ONLY.test(s) ? `${s}T00:00:00Z` : s) : Number.NaN;
  if (Number.isNaN(t)) {
    ctx.addIssue({ code: "custom", message: "expected an ISO 8601 timestamp with offset (2026-11-01T00:00:00Z) or a date (2026-11-01)" });
    return z.NEVER;
  }
  return new Date(t);
});

export const MAX_LIMIT = 10_000;
export const DEFAULT_LIMIT = 1_000;

export const usageQuery = z
  .object({
    group_by: z.enum(GROUP_BYS).default("day"),
    from: instant.optional(),
    to: instant.optional(),
    session_id: z.string().uuid().optional(),
    /** Groups to return: the latest days or turns, the most expensive sessions or models. */
    limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
    /** For download links, which cannot set Accept: text/csv. */
    format: z.enum(["json", "csv"]).optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.group_by === "turn" && !q.session_id) {
      ctx.addIssue({ code: "custom", path: ["session_id"], message: "required when group_by is turn" });
    }
  });

export type UsageQuery = z.infer<typeof usageQuery>;

export const summaryQuery = z
  .object({
    from: instant.optional(),
    to: instant.optional(),
    /** How many of the most expensive sessions. */
    limit: z.coerce.number().int().min(1).max(100).default(10),
    /** How many of the range's latest compactions. */
    compaction_limit: z.coerce.number().int().min(1).max(1000).default(200),
  })
  .strict();

export type SummaryQuery = z.infer<typeof summaryQuery>;
