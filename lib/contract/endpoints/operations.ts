import { E } from "../error-cases";
import { group } from "../endpoint";

export const operations = group("Operations", "For whoever runs the service: its metrics.", {
  getMetrics: {
    method: "GET",
    path: "/api/metrics",
    summary: "Prometheus metrics of this instance",
    description:
      "Counters and histograms of turns, Claude calls, tokens, compactions and rate-limit refusals, the webhook queue's depth, the database pool and the process (memory, CPU, event loop), in Prometheus's text format. Each instance answers for itself; the figures span all users. With `THREADKEEPER_METRICS_TOKEN` set, a scraper sends `Authorization: Bearer <that token>` in either mode (a wrong one: 401 `invalid_metrics_token`). SaaS mode answers nobody else, since every user can mint an admin key for their own account: with the token set any other request is 401 `invalid_metrics_token`, and without it every caller gets 403 `metrics_token_required`. Local mode also answers anyone on this machine, as every route there does (an API key needs the `admin` scope).",
    scope: "admin",
    operator: true,
    errors: [E.invalidMetricsToken, E.metricsTokenRequired],
    responses: { 200: { description: "The metrics.", text: "Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4`)." } },
  },
});
