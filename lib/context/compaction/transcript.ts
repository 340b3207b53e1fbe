// Turns flattened to text: what the summarizer reads and what must-keep items are drawn from.
// Secrets are redacted here, so neither the summarizer nor any must-keep item ever holds one,
// and items drawn from this text are checked against a summary of the same redacted text.
import { formatDay, saidAt } from "@/lib/context/dates";
import { redactSecrets } from "@/lib/redact";
import { blocksToText } from "@/lib/context/text";
import type { Turn } from "@/lib/context/turns";
import type { ContentBlock } from "@/lib/context/types";
import type { TranscriptTurn } from "./types";

/** Tool inputs can be whole files; the gist (paths, commands) is at the start. */
const TOOL_INPUT_CHARS = 1_000;

function blockText(block: ContentBlock): string {
  if (block.type !== "tool_use") return blocksToText([block]);
  // blocksToText shows only the tool's name; the input usually names the file or command the
  // call acted on, which is exactly what a summary must not lose.
  // Redacted before the cut: a key cut in half no longer matches its pattern.
  const json = redactSecrets(JSON.stringify(block.input) ?? "");
  const input = json.length > TOOL_INPUT_CHARS ? `${json.slice(0, TOOL_INPUT_CHARS)}…` : json;
  return input === "" || input === "{}" ? `[tool: ${block.name}]` : `[tool: ${block.name}] ${input}`;
}

export function toTranscriptTurns(turns: readonly Turn[]): TranscriptTurn[] {
  return turns.map((t) => ({
    turnSeq: t.turnSeq,
    messages: t.messages
      .map((m) => ({
        seq: m.seq,
        at: m.createdAt,
        // Tool output arrives as a user message; it is not the user speaking.
        toolResult: m.role === "user" && m.content.some((b) => b.type === "tool_result"),
        role: m.role,
        text: redactSecrets(
          m.content
            .map(blockText)
            .filter((s) => s !== "")
            .join("\n"),
        ),
      }))
      .filter((m) => m.text.trim() !== ""),
  }));
}

/** Inside a turn only the first user message is the user speaking; later ones carry tool results. */
function label(role: "user" | "assistant", index: number): string {
  if (role === "assistant") return "Assistant";
  return index === 0 ? "User" : "Tool result";
}

export function renderTurn(turn: TranscriptTurn): string {
  // The day it was said lets the summarizer write "yesterday" as a date.
  const at = saidAt("", turn.messages[0]?.at ?? null);
  const lines = [at ? `### Turn ${turn.turnSeq} (${formatDay(at)})` : `### Turn ${turn.turnSeq}`];
  turn.messages.forEach((m, i) => lines.push(`**${label(m.role, i)}:** ${m.text}`));
  return lines.join("\n");
}

export const TURN_SEPARATOR = "\n\n";

export function renderTranscript(turns: readonly TranscriptTurn[]): string {
  return turns.map(renderTurn).join(TURN_SEPARATOR);
}
