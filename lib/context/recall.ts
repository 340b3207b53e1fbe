// The recall tool's name, input limits and result format: the result is what Claude reads and
// what the chat's "Recalled from …" block parses back. One module for server and browser (it
// imports only the pure snippet module), so the format cannot drift between them.
import { excerptOf, queryTerms, READING_EXCERPT } from "./snippet";

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
  /** Present for a page of a file the message carries: the excerpt is from that page. */
  file?: RecalledFile;
}

export interface RecalledFile {
  id: string;
  name: string;
  page: number;
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
  file?: RecalledFile;
}

const EXCERPT_CHARS = 600;
// A message's excerpt ends "the user said:"; a file page's `the user attached "name" page N (file_id …):`.
const HEADER =
  /^\[(\d+)\] (?:session "(.*)"|this conversation, no longer in view) \(([0-9a-f-]{36})\) · seq (\d+) · (\d{4}-\d{2}-\d{2}) · (?:(the user said|you said)|(the user|you) attached "(.*)" page (\d+) \(file_id ([0-9a-f-]{36})\)):$/;

/** Titles and file names are the user's: a quote or line break in one must not end a header early for the parser. */
const quoted = (s: string) => s.replace(/["\n\r]/g, "'");

export function formatRecall(query: string, hits: readonly RecallExcerpt[], currentSessionId: string): string {
  if (hits.length === 0) {
    return `No earlier messages match "${query}" outside what you can already see. Try other words: names, numbers, distinctive terms.`;
  }
  const sessions = new Set(hits.map((h) => h.session_id)).size;
  const files = hits.filter((h) => h.file).length;
  // Said before the excerpts: a line after them would read as the last one's text.
  const hint = files === 0 ? "" : ` (${files} from files; open_file reads more of a file of this conversation by its file_id)`;
  const lines = [`Found ${hits.length} excerpt${hits.length === 1 ? "" : "s"} for "${query}" in ${sessions} session${sessions === 1 ? "" : "s"}${hint}:`];
  hits.forEach((h, i) => {
    const where =
      h.session_id === currentSessionId ? `this conversation, no longer in view (${h.session_id})` : `session "${quoted(h.session_title ?? "Untitled")}" (${h.session_id})`;
    const who = h.file
      ? `${h.role === "user" ? "the user" : "you"} attached "${quoted(h.file.name)}" page ${h.file.page} (file_id ${h.file.id})`
      : h.role === "user"
        ? "the user said"
        : "you said";
    // A page is read for what it holds around the words: as much as open_file's search shows.
    const text = (h.file ? excerptOf(h.text, queryTerms(query), READING_EXCERPT.chars, READING_EXCERPT.lead) : h.text.length > EXCERPT_CHARS ? h.snippet : h.text).trim();
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
      const file = m[8] === undefined ? {} : { file: { name: m[8], page: Number(m[9]), id: m[10] } };
      const role = m[6] === "you said" || m[7] === "you" ? "assistant" : "user";
      current = { sessionTitle: m[2] ?? null, sessionId: m[3], seq: Number(m[4]), date: m[5], role, text: "", ...file };
    } else if (current) {
      body.push(line);
    }
  }
  flush();
  return out;
}
