import { E } from "../error-cases";
import { group } from "../endpoint";
import { summaryQuery, usageQuery } from "../usage-query";
import { usageReport, usageSummary } from "../usage";

export const usage = group("Usage", "Tokens, cache reads and cost of every billed call, grouped for the dashboard and for export.", {
  getUsage: {
    method: "GET",
    path: "/api/usage",
    summary: "Usage grouped by day, session, model or turn (JSON, or CSV with Accept: text/csv)",
    description: "group_by=turn needs session_id and adds each turn's context fill, compactions and slides.",
    query: usageQuery,
    responses: {
      200: {
        description: "Rows and totals.",
        json: usageReport,
        csv: "The rows (with Accept: text/csv or format=csv): a header line, then one line per row; nested fields flattened.",
      },
    },
    errors: [E.notFound],
  },
  getUsageSummary: {
    method: "GET",
    path: "/api/usage/summary",
    summary: "What the dashboard shows for a range: totals, days, the most expensive sessions, compactions",
    query: summaryQuery,
    responses: { 200: { description: "The summary.", json: usageSummary } },
  },
});
