import { z } from "zod";
import { E } from "../error-cases";
import { group } from "../endpoint";
import { historySearchQuery } from "../requests";
import { historyHit } from "../search";

export const search = group("Search", "Anything ever said, in any session, found again.", {
  searchHistory: {
    method: "GET",
    path: "/api/search",
    summary: "Search every message of your sessions",
    description:
      "Full-text search over every message fused by reciprocal rank with embedding similarity (messages are embedded in the background; until then full-text finds them). " +
      "`session_id` searches that session's whole history, inherited turns of a fork included; `project_id` the sessions of a project; `from` and `to` (ISO 8601) bound when the message was written. " +
      "Secrets are redacted in `snippet` and `text`.",
    query: historySearchQuery,
    errors: [E.notFound],
    responses: { 200: { description: "Best first.", json: z.object({ hits: z.array(historyHit) }) } },
  },
});
