// Who said a line and when. A message is its author's, said when it was stored, except where
// a line opens like a pasted or imported chat log ("[8 May 2023 13:56] Ann: …"): that line is
// Ann's, said then, and so are the lines after it until the next such prefix. The user's own
// lines may name a speaker without a time ("Ann: see you at 8", pasted from a chat).
import { saidAt, transcriptPrefix } from "@/lib/context/dates";
import type { TranscriptTurn } from "./types";

type Message = TranscriptTurn["messages"][number];

export interface Utterance {
  /** The name a transcript line gives, else "User" or "Assistant". */
  speaker: string;
  /** Whether the speaker was named by the line (a person in a pasted log) rather than by role. */
  named: boolean;
  /** When it was said; null when neither the line nor the message says. */
  at: Date | null;
  /** The line without its prefix. */
  text: string;
  /** Offset of `text` in the message's text. */
  index: number;
}

/** Inside a turn only the first user message is the user speaking; later ones carry tool results. */
export function isToolOutput(m: Message, index: number): boolean {
  return m.toolResult ?? (m.role === "user" && index > 0);
}

/** The message's lines with their speaker and date (blank lines skipped). */
export function utterancesOf(m: Message): Utterance[] {
  const out: Utterance[] = [];
  let speaker = m.role === "user" ? "User" : "Assistant";
  let named = false;
  let at = saidAt("", m.at ?? null);
  let offset = 0;
  let inFence = false;
  for (const line of m.text.split("\n")) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    const prefix = inFence || line.trim() === "" ? null : transcriptPrefix(line);
    // An assistant's "Echo: …" or "Result: …" names no one: in its messages only a log line
    // with its own time (pasted or imported) names who spoke.
    if (prefix?.speaker && (m.role === "user" || prefix.at)) {
      speaker = prefix.speaker;
      named = true;
    }
    if (prefix?.at) at = prefix.at;
    const cut = prefix?.length ?? 0;
    const text = line.slice(cut);
    if (text.trim() !== "") out.push({ speaker, named, at, text, index: offset + cut });
    offset += line.length + 1;
  }
  return out;
}

/**
 * The text with every line's transcript prefix blanked (same length), so offsets still hold.
 * `bullets`: a summary's digest lines ("- Ann: …") count as prefixed too.
 */
export function withoutPrefixes(text: string, bullets = false): string {
  if (!/^[ \t]*(?:\[|\d|\p{Lu}|- \p{Lu})/mu.test(text)) return text;
  let inFence = false;
  return text
    .split("\n")
    .map((line) => {
      // Inside fenced code a "Name: " is code or log output, never a speaker.
      if (/^\s*```/.test(line)) inFence = !inFence;
      const bullet = bullets ? (/^[ \t]*- /.exec(line)?.[0] ?? "") : "";
      const prefix = inFence || line.trim() === "" ? null : transcriptPrefix(line.slice(bullet.length));
      return prefix ? bullet + " ".repeat(prefix.length) + line.slice(bullet.length + prefix.length) : line;
    })
    .join("\n");
}

/** When the text at `index` of the message was said (its line's timestamp, else the message's). */
export function dateAt(m: Message): (index: number) => Date | null {
  const lines = utterancesOf(m);
  const fallback = saidAt("", m.at ?? null);
  return (index) => {
    let at = lines.length > 0 ? lines[0].at : fallback;
    for (const u of lines) {
      if (u.index > index) break;
      at = u.at;
    }
    return at;
  };
}
