import { summaryQuery, usageQuery } from "@/lib/usage";
import { E } from "../errors";
import type { OperationGroup } from "../registry";
import { usageReport, usageSummary } from "@/lib/contract/usage";

export const usage: OperationGroup = {
  tag: "Usage",
  description: "Tokens, cache reads and cost of every billed call, grouped for the dashboard and for export.",
  operations: [
    {
      method: "GET",
      path: "/api/usage",
      operationId: "getUsage",
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
    {
      method: "GET",
      path: "/api/usage/summary",
      operationId: "getUsageSummary",
      summary: "What the dashboard shows for a range: totals, days, the most expensive sessions, compactions",
      query: summaryQuery,
      responses: { 200: { description: "The summary.", json: usageSummary } },
    },
  ],
};
