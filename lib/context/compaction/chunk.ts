// Map-reduce input: a transcript too long for one summarizer call is cut into parts, each
// summarized on its own and then merged. Cuts fall between turns; only a turn that alone
// exceeds the limit is cut inside, between or within its messages.
import { renderTranscript, renderTurn, TURN_SEPARATOR } from "./transcript";
import type { CountTokens, TranscriptTurn } from "./types";
import { runAll, runSliced, type Steps } from "@/lib/context/yield";

/** Starts every piece of a cut turn after the first, so the summarizer knows it is mid-turn. */
export const CONTINUED = "(continued) ";

/** When even an empty turn heading exceeds the limit, pieces still advance by this much. */
const MIN_PROGRESS_CHARS = 64;

type Message = TranscriptTurn["messages"][number];

/**
 * Consecutive groups of whole turns, each rendering (renderTranscript) to ≤ maxTokens. A turn
 * over the limit becomes several pieces with the same turnSeq, marked "(continued)"; all of
 * the turn's text is in them, in order. Never returns an empty group. A limit smaller than a
 * bare turn heading cannot be met; pieces then still carry text, so nothing is lost.
 */
export function chunkTurns(turns: readonly TranscriptTurn[], maxTokens: number, countTokens: CountTokens): TranscriptTurn[][] {
  return runAll(chunkSteps(turns, maxTokens, countTokens));
}

/**
 * chunkTurns with the event loop let in between turns: counting the tokens of a long history
 * (hundreds of thousands) is half a second of the server's one thread.
 */
export function chunkTurnsSliced(turns: readonly TranscriptTurn[], maxTokens: number, countTokens: CountTokens): Promise<TranscriptTurn[][]> {
  return runSliced(chunkSteps(turns, maxTokens, countTokens));
}

function* chunkSteps(turns: readonly TranscriptTurn[], maxTokens: number, countTokens: CountTokens): Steps<TranscriptTurn[][]> {
  const pieces: { turn: TranscriptTurn; tokens: number }[] = [];
  for (const turn of turns) {
    yield;
    const tokens = countTokens(renderTurn(turn));
    if (tokens <= maxTokens) pieces.push({ turn, tokens });
    else for (const p of splitTurn(turn, maxTokens, countTokens)) pieces.push({ turn: p, tokens: countTokens(renderTurn(p)) });
  }

  const sep = countTokens(TURN_SEPARATOR);
  const groups: TranscriptTurn[][] = [];
  let current: TranscriptTurn[] = [];
  let currentTokens = 0;
  for (const p of pieces) {
    if (current.length > 0 && currentTokens + sep + p.tokens > maxTokens) {
      groups.push(current);
      current = [];
      currentTokens = 0;
    }
    currentTokens += (current.length > 0 ? sep : 0) + p.tokens;
    current.push(p.turn);
  }
  if (current.length > 0) groups.push(current);
  // Token counts are not exactly additive across a join; re-check and halve the rare group over.
  const out: TranscriptTurn[][] = [];
  for (const g of groups) out.push(...(yield* enforce(g, maxTokens, countTokens)));
  return out;
}

function* enforce(group: TranscriptTurn[], maxTokens: number, countTokens: CountTokens): Steps<TranscriptTurn[][]> {
  yield;
  if (group.length < 2 || countTokens(renderTranscript(group)) <= maxTokens) return [group];
  const mid = Math.ceil(group.length / 2);
  return [...(yield* enforce(group.slice(0, mid), maxTokens, countTokens)), ...(yield* enforce(group.slice(mid), maxTokens, countTokens))];
}

function splitTurn(turn: TranscriptTurn, maxTokens: number, countTokens: CountTokens): TranscriptTurn[] {
  const out: TranscriptTurn[] = [];
  let piece: Message[] = [];
  const close = () => {
    out.push({ turnSeq: turn.turnSeq, messages: piece });
    piece = [];
  };
  const fits = (messages: Message[]) => countTokens(renderTurn({ turnSeq: turn.turnSeq, messages })) <= maxTokens;

  for (const m of turn.messages) {
    let rest = m.text;
    let segment = 0;
    while (rest !== "") {
      const prefix = segment > 0 || (piece.length === 0 && out.length > 0) ? CONTINUED : "";
      if (fits([...piece, { role: m.role, text: prefix + rest }])) {
        piece.push({ role: m.role, text: prefix + rest });
        break;
      }
      let n = fittingPrefix(turn.turnSeq, piece, m.role, prefix, rest, maxTokens, countTokens);
      if (n === 0 && piece.length > 0) {
        close();
        continue;
      }
      if (n === 0) n = forcedProgress(rest);
      piece.push({ role: m.role, text: prefix + rest.slice(0, n) });
      rest = rest.slice(n);
      segment++;
      close();
    }
  }
  if (piece.length > 0) close();
  return out;
}

/** Chars of `rest` that fit after `piece` as a new message, ending at whitespace when one is near. */
function fittingPrefix(
  turnSeq: number,
  piece: Message[],
  role: Message["role"],
  prefix: string,
  rest: string,
  maxTokens: number,
  countTokens: CountTokens,
): number {
  const render = (n: number) => renderTurn({ turnSeq, messages: [...piece, { role, text: prefix + rest.slice(0, n) }] });
  const base = countTokens(render(0));
  const budget = maxTokens - base;
  if (budget <= 0) return 0;
  // Tokens per character are roughly even within one text, so a proportional guess lands
  // close; shrinking by 10 % until it fits takes a handful of counts, not a binary search.
  const restTokens = Math.max(1, countTokens(rest));
  let n = Math.min(rest.length - 1, Math.floor((rest.length * budget) / restTokens));
  while (n > 0 && countTokens(render(n)) > maxTokens) n = Math.floor(n * 0.9);
  if (n <= 0) return 0;
  // Prefer to cut after a newline, else after a space, if one is in the last fifth.
  const floor = Math.floor(n * 0.8);
  const nl = rest.lastIndexOf("\n", n - 1);
  if (nl >= floor) return nl + 1;
  const sp = rest.lastIndexOf(" ", n - 1);
  if (sp >= floor) return sp + 1;
  return n;
}

function forcedProgress(rest: string): number {
  const sp = rest.indexOf(" ", 1);
  return Math.min(rest.length, sp > 0 && sp < MIN_PROGRESS_CHARS ? sp + 1 : MIN_PROGRESS_CHARS);
}
