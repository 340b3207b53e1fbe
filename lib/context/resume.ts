// What the MCP prompt resume_session carries of a session into another conversation, within a
// token budget: how it began (the first turn), what was condensed (the summary) and learned (the
// facts), and as many of the latest turns as fit, newest first. A message too long for its share
// is cut with a marker; what was left out is said, with the tool that finds it. Pure.
import { estimateTextTokens } from "@/lib/tokens/tokenizer";
import { dropReplaced } from "./retries";
import type { MessageStatus, Role } from "./types";

export const RESUME_DEFAULT_TOKENS = 8_000;
export const RESUME_MIN_TOKENS = 1_000;
// A resumed thread should leave the new conversation most of its window, even a 200K one.
export const RESUME_MAX_TOKENS = 50_000;

/** A stored message as the resume reads it: its plain text and what decides whether it is current. */
export interface ResumeMessage {
  seq: number;
  turnSeq: number;
  role: Role;
  text: string;
  status: MessageStatus;
  supersedesTurn?: number | null;
  restartsTurn?: boolean;
}

export interface ResumeInput {
  sessionId: string;
  summary: string | null;
  facts: readonly string[];
  /** The first turn's messages, in order. */
  first: readonly ResumeMessage[];
  /** The latest messages, in order, as far back as the loader read (they may reach the first turn). */
  recent: readonly ResumeMessage[];
  /** The session's last seq: seqs run from 1 to it, so what lies between two shown messages is counted by them. */
  lastSeq: number;
  budget: number;
}

export interface Resume {
  text: string;
  /** The seqs of the messages shown, in order. */
  shown: number[];
  /** The seqs of the messages shown cut short. */
  cut: number[];
  /** Messages of the session not shown (earlier versions and empty ones included). */
  omitted: number;
}

// Shares of the budget each part may take at most; what one leaves unused goes to the latest turns.
const SUMMARY_SHARE = 0.4;
const FACTS_SHARE = 0.1;
const FIRST_TURN_SHARE = 0.2;
// No one message may take more than this share, so a huge paste leaves room for the turns around it.
const MESSAGE_SHARE = 0.25;
// Below this, a cut message would be little more than its marker.
const MIN_PIECE = 40;

const HEADER = "We are continuing a conversation from Threadkeeper. What it established so far:";
const FIRST_HEADING = "## How it began\n";
const LATEST_HEADING = "## The latest turns\n";

const tokens = (text: string) => estimateTextTokens(text);
const marker = (rest: number) => `\n[… ${rest.toLocaleString("en-US")} more characters not shown]`;

/** The start of `text` up to `end`, never inside a surrogate pair, at a space when one is near. */
function head(text: string, end: number): string {
  let at = Math.max(0, Math.min(end, text.length));
  if (at > 0 && at < text.length && /[\uD800-\uDBFF]/.test(text[at - 1])) at--;
  const space = text.lastIndexOf(" ", at);
  return text.slice(0, space > at * 0.9 ? space : at);
}

/** `text` whole if it fits in `max` tokens, else its start and a marker; null when not even that fits. */
export function fitText(text: string, max: number): { text: string; cut: boolean } | null {
  // Counting is linear, but a megabyte paste needs counting only as far as could fit.
  if (text.length <= max * 16 && tokens(text) <= max) return { text, cut: false };
  if (max < MIN_PIECE) return null;
  let end = Math.min(text.length, max * 4);
  for (let tries = 0; tries < 8 && end > 0; tries++) {
    const start = head(text, end);
    const piece = start + marker(text.length - start.length);
    const n = tokens(piece);
    if (n <= max) return { text: piece, cut: true };
    end = Math.floor(end * (max / n) * 0.9);
  }
  return null;
}

const line = (m: ResumeMessage, text: string) => `**${m.role}:** ${text}`;

/** Messages rendered within `room` tokens, each within `each`, in order; stops at the first that no longer fits. */
function fitMessages(messages: readonly ResumeMessage[], room: number, each: number) {
  const out: { m: ResumeMessage; text: string; cut: boolean }[] = [];
  let used = 0;
  for (const m of messages) {
    const fitted = fitText(m.text, Math.min(each, room - used - tokens(line(m, ""))));
    if (!fitted) break;
    const text = line(m, fitted.text);
    used += tokens(text) + 1;
    out.push({ m, text, cut: fitted.cut });
  }
  return { out, used };
}

/** What was shown of the messages taken: the current versions with words in them. */
function current(messages: readonly ResumeMessage[]): ResumeMessage[] {
  return dropReplaced(messages).filter((m) => m.text.trim() !== "");
}

export function resumeText(input: ResumeInput): Resume {
  const { budget, sessionId } = input;
  const parts: string[] = [HEADER];
  // The headings and the omission note are written last but paid for first (the note at its
  // longest), with a little slack for the blank lines between parts.
  let left = budget - tokens(HEADER) - tokens(FIRST_HEADING) - tokens(LATEST_HEADING) - tokens(omissionNote(input.lastSeq, sessionId)) - 16;

  if (input.summary) {
    const fitted = fitText(input.summary, Math.min(left, Math.floor(budget * SUMMARY_SHARE)));
    if (fitted) parts.push(`## Summary of the earlier turns\n${fitted.text}`);
    left -= tokens(parts.at(-1) ?? "");
  }
  if (input.facts.length > 0) {
    const room = Math.min(left, Math.floor(budget * FACTS_SHARE));
    const facts: string[] = [];
    let used = tokens("## Facts\n");
    for (const f of input.facts) {
      const n = tokens(`- ${f}\n`);
      if (used + n > room) break;
      facts.push(`- ${f}`);
      used += n;
    }
    const more = input.facts.length - facts.length;
    if (facts.length > 0) parts.push(`## Facts\n${facts.join("\n")}${more > 0 ? `\n(${more} more: get_session_context)` : ""}`);
    left -= tokens(parts.at(-1) ?? "");
  }

  const each = Math.max(MIN_PIECE * 4, Math.floor(budget * MESSAGE_SHARE));
  const firstTurn = current(input.first);
  const firstSeqs = new Set(firstTurn.map((m) => m.seq));
  const lastFirstTurn = firstTurn.at(-1)?.turnSeq ?? 0;
  const first = fitMessages(firstTurn, Math.min(left, Math.floor(budget * FIRST_TURN_SHARE)), each);
  left -= first.used;

  // The latest turns, newest first, each whole or not at all; the newest is cut to fit if need be.
  const later = current(input.recent).filter((m) => m.turnSeq > lastFirstTurn && !firstSeqs.has(m.seq));
  const turns: ResumeMessage[][] = [];
  for (const m of later) {
    const last = turns.at(-1);
    if (last && last[0].turnSeq === m.turnSeq) last.push(m);
    else turns.push([m]);
  }
  turns.reverse();
  const taken: { m: ResumeMessage; text: string; cut: boolean }[][] = [];
  for (const turn of turns) {
    const fitted = fitMessages(turn, left, each);
    if (fitted.out.length === turn.length) {
      taken.push(fitted.out);
      left -= fitted.used;
      continue;
    }
    // Not even the newest turn fits whole: its last messages, cut to what is left.
    if (taken.length === 0) taken.push(fitMessages([...turn].reverse(), left, Math.min(each, left)).out.reverse());
    break;
  }
  const recent = taken.reverse().flat();

  const shownFirst = first.out;
  const gapStart = shownFirst.at(-1)?.m.seq ?? 0;
  const gapEnd = recent[0]?.m.seq ?? input.lastSeq + 1;
  const shown = [...shownFirst, ...recent];
  const omitted = input.lastSeq - shown.length;
  if (shownFirst.length > 0) parts.push(`${FIRST_HEADING}${shownFirst.map((s) => s.text).join("\n\n")}`);
  const between = gapEnd - gapStart - 1;
  if (between > 0) parts.push(omissionNote(between, sessionId));
  if (recent.length > 0) parts.push(`${LATEST_HEADING}${recent.map((s) => s.text).join("\n\n")}`);
  return { text: parts.join("\n\n"), shown: shown.map((s) => s.m.seq), cut: shown.filter((s) => s.cut).map((s) => s.m.seq), omitted };
}

function omissionNote(count: number, sessionId: string): string {
  return `[… ${count.toLocaleString("en-US")} earlier message${count === 1 ? "" : "s"} not shown; use search_history with session_id ${sessionId} to find what they said, or get_session_context for the session's summary and facts]`;
}
