// A session as Markdown that reads well on its own: the title and what it ran on, then the
// conversation as it stands (the current version of every edited or regenerated turn, with a
// note where an earlier one exists), thinking and tool calls folded into <details>, and each
// compaction's summary where it happened. The JSON export keeps everything; this is for people.
import type { CompactionJson, MessageJson, SessionJson } from "@/lib/contract";
import { dropReplaced } from "@/lib/context/retries";
import type { ContentBlock } from "@/lib/context/types";

export interface SessionForExport {
  session: SessionJson;
  /** Every message, every version, oldest first. */
  messages: readonly MessageJson[];
  compactions: readonly CompactionJson[];
  project?: { name: string } | null;
}

/** A fence longer than any run of backticks in `body`, so the body cannot close it. */
function fenced(body: string, lang = ""): string {
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${body.replace(/\n$/, "")}\n${fence}`;
}

const details = (summary: string, body: string) => `<details>\n<summary>${summary}</summary>\n\n${body}\n\n</details>`;
const when = (iso: string | null | undefined) => (iso ? iso.slice(0, 16).replace("T", " ") + " UTC" : "");
const quote = (text: string) => text.split("\n").map((l) => `> ${l}`.trimEnd()).join("\n");

function block(b: ContentBlock): string {
  switch (b.type) {
    case "text":
      return b.text;
    case "thinking":
      return details("Thinking", b.thinking);
    case "redacted_thinking":
      return "_(Claude's thinking here is redacted by the API.)_";
    case "tool_use":
      return details(`Tool call: ${b.name}`, fenced(JSON.stringify(b.input, null, 2), "json"));
    case "tool_result": {
      const content = typeof b.content === "string" ? b.content : (b.content ?? []).map((c) => ("text" in c && typeof c.text === "string" ? c.text : `[${c.type}]`)).join("\n");
      return details(b.is_error ? "Tool error" : "Tool result", fenced(content));
    }
    case "system_message":
      return quote(`System: ${"text" in b && typeof b.text === "string" ? b.text : ""}`);
    case "image":
      return "_[image]_";
    case "document":
      return `_[document${"title" in b && typeof b.title === "string" ? `: ${b.title}` : ""}]_`;
    case "file_reference":
      return `_[file${"name" in b && typeof b.name === "string" ? `: ${b.name}` : ""}]_`;
    default:
      return `_[${b.type}]_`;
  }
}

export function sessionMarkdown({ session, messages, compactions, project }: SessionForExport): string {
  const engine = messages.map((m) => ({ ...m, turnSeq: m.turn_seq, supersedesTurn: m.supersedes_turn, restartsTurn: m.restarts_turn }));
  const shown = dropReplaced(engine);
  const replacedTurns = new Set(engine.filter((m) => m.supersedesTurn !== null).map((m) => m.turnSeq));
  const regenerated = new Set(engine.filter((m) => m.restartsTurn).map((m) => m.turnSeq));
  const applied = compactions.filter((c) => c.status === "applied").sort((a, b) => a.at_seq - b.at_seq);
  const out: string[] = [`# ${session.title}`, "", `_${[...(project ? [`project ${project.name}`] : []), session.model, `started ${when(session.created_at)}`, `${session.message_count} messages`].join(" · ")}_`];
  let nextCompaction = 0;
  for (const m of shown) {
    while (nextCompaction < applied.length && applied[nextCompaction].at_seq <= m.seq) {
      const c = applied[nextCompaction++];
      const what = c.summary === null ? `slid out of Claude's view` : `were condensed into a summary`;
      out.push("", "---", "", `**Turns ${c.from_turn}–${c.through_turn} ${what}** (${when(c.created_at)})${c.summary === null ? "" : ":"}`, ...(c.summary === null ? [] : ["", quote(c.summary)]), "", "---");
    }
    const toolResults = m.role === "user" && m.content.every((b) => b.type === "tool_result");
    const who = m.role === "user" ? (toolResults ? "Tool results" : "You") : "Claude";
    const notes = [
      when(m.created_at),
      m.status === "interrupted" ? "interrupted" : "",
      m.role === "user" && replacedTurns.has(m.turn_seq) && m.supersedes_turn !== null ? "edited (the earlier version is in the JSON export)" : "",
      m.role === "assistant" && m.restarts_turn && regenerated.has(m.turn_seq) ? "regenerated" : "",
    ].filter(Boolean);
    out.push("", `### ${who}${notes.length > 0 ? ` · ${notes.join(" · ")}` : ""}`, "", m.content.map(block).filter((t) => t !== "").join("\n\n"));
  }
  return out.join("\n") + "\n";
}
