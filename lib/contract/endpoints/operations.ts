import { group } from "../endpoint";

export const operations = group("Operations", "For whoever runs the service: its metrics.", {
  getMetrics: {
    method: "GET",
    path: "/api/metrics",
    summary: "Prometheus metrics of this instance",
    description:
      "Counters and histograms of turns, Claude calls, tokens, compactions and rate-limit refusals, the webhook queue's depth, the database pool and the process (memory, CPU, event loop), in Prometheus's text format. Each instance answers for itself. Local mode: anyone on this machine; SaaS mode: an API key with the `admin` scope only (a signed-in user without one gets 403 `insufficient_scope`).",
    scope: "admin",
    operator: true,
    responses: { 200: { description: "The metrics.", text: "Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4`)." } },
  },
});
