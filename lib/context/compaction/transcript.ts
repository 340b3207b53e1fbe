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

/**
 * What the extractive engine (items, digest, facts, the extractive summary) reads of one
 * message: all of it up to ENGINE_CHARS, else its first and last ENGINE_CHARS / 2, cut at
 * lines. The engine is linear but heavy (1 MB of one-character lines took 4 s in the
 * extractive summary, on the event loop; 16 KB of them ~65 ms), and the ends of a long paste
 * are where its ask and its outcome (the error, the result) sit. The summarizer still reads
 * the whole message.
 */
export const ENGINE_CHARS = 16_000;

export function engineText(text: string): string {
  if (text.length <= ENGINE_CHARS) return text;
  const half = ENGINE_CHARS / 2;
  const headEnd = text.lastIndexOf("\n", half);
  const tailStart = text.indexOf("\n", text.length - half);
  const head = text.slice(0, headEnd > half / 2 ? headEnd : half);
  const tail = text.slice(tailStart >= 0 && tailStart < text.length - half / 2 ? tailStart + 1 : text.length - half);
  return `${head}\n…\n${tail}`;
}

/** The turns with each message's text as the extractive engine reads it (see engineText). */
export function engineTurns(turns: readonly TranscriptTurn[]): TranscriptTurn[] {
  if (turns.every((t) => t.messages.every((m) => m.text.length <= ENGINE_CHARS))) return turns as TranscriptTurn[];
  return turns.map((t) => ({ ...t, messages: t.messages.map((m) => (m.text.length <= ENGINE_CHARS ? m : { ...m, text: engineText(m.text) })) }));
}
