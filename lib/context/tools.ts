// The tools offered to Claude, as data: which ones a session's settings turn on and what their
// definitions add to every request. Their executors live in lib/turn (they read the database).
import type { ContextSettings } from "@/lib/contract";
import { CANVAS_TOOLS } from "@/lib/canvas/tools";
import { estimateToolsTokens, type ToolDef } from "@/lib/tokens/tokenizer";
import { OPEN_FILE_TOOL_NAME } from "./files";
import { RECALL_MAX_RESULTS, RECALL_SCOPES, RECALL_TOOL_NAME } from "./recall";

export const RECALL_TOOL: ToolDef = {
  name: RECALL_TOOL_NAME,
  description:
    "Search the verbatim history of this conversation and the user's other conversations, and the text of the files attached to them. Use it when the " +
    "user refers to something said earlier that is not in view: turns condensed into the conversation " +
    "summary, or another session (last week, another project). Returns excerpts with their session and " +
    "position. Search with the distinctive words the earlier message would contain.",
  input_schema: {
    type: "object",
    properties: {
      query: { type: "string", description: "Words to search for, e.g. a name, a number, a topic." },
      scope: {
        type: "string",
        enum: [...RECALL_SCOPES],
        description: "this_session: only turns of this conversation no longer in view; other_sessions: only other conversations; all (default): both.",
      },
      limit: { type: "integer", minimum: 1, maximum: RECALL_MAX_RESULTS, description: "How many excerpts (default 5)." },
    },
    required: ["query"],
  },
};

/** Offered while the session has files: how Claude reads one whose turn has left the window. */
export const OPEN_FILE_TOOL: ToolDef = {
  name: OPEN_FILE_TOOL_NAME,
  description:
    "Open a file shared in this conversation by its file_id (the system prompt lists the files no longer shown in full). " +
    "Give pages (\"3\" or \"2-4\"; a PDF's pages, or 200-line parts of a text file), lines (\"120-180\", text files), or search " +
    "(words to find; answers the pages that mention them). With none, the first page. At most 10 pages at once. An image comes back whole.",
  input_schema: {
    type: "object",
    properties: {
      file_id: { type: "string", description: "The file's id, as listed." },
      pages: { type: "string", description: "A page or a range, e.g. \"3\" or \"2-4\"." },
      lines: { type: "string", description: "A line range of a text file, e.g. \"120-180\"." },
      search: { type: "string", description: "Words to look for inside the file." },
    },
    required: ["file_id"],
  },
};

let openFileRaw: number | undefined;

/** Raw tokens of open_file's definition, counted once. */
export function openFileToolRaw(): number {
  openFileRaw ??= estimateToolsTokens([OPEN_FILE_TOOL]);
  return openFileRaw;
}

type ToolSettings = Pick<ContextSettings, "recall_tool" | "canvas_tools">;

/** The tool definitions a request carries under these settings, in a stable order (the prompt cache keys on it). */
export function offeredTools(settings: ToolSettings): ToolDef[] {
  return [...(settings.recall_tool ? [RECALL_TOOL] : []), ...(settings.canvas_tools ? CANVAS_TOOLS : [])];
}

const rawTokens = new Map<string, number>();

/** Raw token estimate of the offered definitions: the bar's "tools" category. Counted once per tool set. */
export function toolsRawTokens(settings: ToolSettings): number {
  const tools = offeredTools(settings);
  const key = tools.map((t) => t.name).join(",");
  let n = rawTokens.get(key);
  if (n === undefined) {
    n = estimateToolsTokens(tools);
    rawTokens.set(key, n);
  }
  return n;
}
