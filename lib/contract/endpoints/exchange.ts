import { E } from "../error-cases";
import { group } from "../endpoint";
import { exportQuery, sessionExport } from "../exchange";
import { idParams } from "../requests";

export const exchange = group("Export", "Your conversations, whole, to keep or to take elsewhere.", {
  exportSession: {
    method: "GET",
    path: "/api/session/{id}/export",
    summary: "Export a session as JSON (lossless, imports back) or Markdown (to read)",
    description:
      "`format=json` (the default): every message of every version, the compactions and checkpoints, and the system prompt. `format=md`: the conversation as it stands, for people: edited and regenerated turns show their current version, thinking and tool calls fold into `<details>`, each compaction's summary sits where it happened. Both come as a download (`Content-Disposition: attachment`).",
    params: idParams,
    query: exportQuery,
    responses: {
      200: { description: "The session.", json: sessionExport, markdown: "The conversation as Markdown." },
    },
    errors: [E.notFound],
  },
});
