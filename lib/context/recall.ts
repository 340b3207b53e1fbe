// The recall tool's name, input limits and result format: the result is what Claude reads and
// what the chat's "Recalled from …" block parses back. One module for server and browser (it
// imports nothing), so the format cannot drift between them.

export const RECALL_TOOL_NAME = "recall";
export const RECALL_SCOPES = ["all", "this_session", "other_sessions"] as const;
export type RecallScope = (typeof RECALL_SCOPES)[number];
export const RECALL_MAX_RESULTS = 10;

export interface RecallExcerpt {
  session_id: string;
  session_title: string | null;
  seq: number;
  role: "user" | "assistant";
  created_at: string;
  text: string;
  snippet: string;
}

/** An excerpt as the chat shows it. */
export interface ParsedExcerpt {
  sessionId: string;
  /** Null: this conversation, from turns no longer in view. */
  sessionTitle: string | null;
  seq: number;
  date: string;
  role: "user" | "assistant";
  text: string;
}

const EXCERPT_CHARS = 600;
const HEADER = /^\[(\d+)\] (?:session "(.*)"|this conversation, no longer in view) \(([0-9a-f-]{36})\) · seq (\d+) · (\d{4}-\d{2}-\d{2}) · (the user said|you said):$/;

export function formatRecall(query: string, hits: readonly RecallExcerpt[], currentSessionId: string): string {
  if (hits.length === 0) {
    return `No earlier messages match "${query}" outside what you can already see. Try other words: names, numbers, distinctive terms.`;
  }
  const sessions = new Set(hits.map((h) => h.session_id)).size;
  const lines = [`Found ${hits.length} excerpt${hits.length === 1 ? "" : "s"} for "${query}" in ${sessions} session${sessions === 1 ? "" : "s"}:`];
  hits.forEach((h, i) => {
    // Titles are the user's: a quote in one must not end the header early for the parser.
    const where =
      h.session_id === currentSessionId
        ? `this conversation, no longer in view (${h.session_id})`
        : `session "${(h.session_title ?? "Untitled").replace(/["\n]/g, "'")}" (${h.session_id})`;
    const who = h.role === "user" ? "the user said" : "you said";
    const text = (h.text.length > EXCERPT_CHARS ? h.snippet : h.text).trim();
    lines.push("", `[${i + 1}] ${where} · seq ${h.seq} · ${h.created_at.slice(0, 10)} · ${who}:`, unheaded(text));
  });
  return lines.join("\n");
}

/**
 * An excerpt's text with no line that starts like an excerpt's header: quoted words must not
 * begin an excerpt of their own, put words in Claude's mouth ("you said") or the chat's parser's.
 */
function unheaded(text: string): string {
  return text.replace(/^(?=\[\d+\] )/gm, " ");
}

/** The excerpts of a recall result, in order; empty for a result that found nothing. */
export function parseRecall(result: string): ParsedExcerpt[] {
  const out: ParsedExcerpt[] = [];
  let current: ParsedExcerpt | null = null;
  const body: string[] = [];
  const flush = () => {
    if (current) out.push({ ...current, text: body.join("\n").trim() });
    body.length = 0;
  };
  for (const line of result.split("\n")) {
    const m = HEADER.exec(line);
    if (m) {
      flush();
      current = { sessionTitle: m[2] ?? null, sessionId: m[3], seq: Number(m[4]), date: m[5], role: m[6] === "you said" ? "assistant" : "user", text: "" };
    } else if (current) {
      body.push(line);
    }
  }
  flush();
  return out;
}
