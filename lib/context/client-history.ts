// A drop-in client (an app on the Anthropic SDK) may resend the whole conversation with each
// request, only the new message, or a history that differs from the session's. This is how the
// two are lined up: the session's messages as that client saw them, compared by a canonical
// form that survives what clients do in transit (string vs. block content, joined text blocks,
// whitespace, cache_control, thinking blocks). Pure.
import { createHash } from "node:crypto";
import { dropReplaced } from "./retries";
import type { EngineMessage, Role } from "./types";

/** The fields of a content block the comparison reads: the stored blocks and a client's alike. */
export interface KeyBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
  source?: unknown;
  block?: unknown;
  /** An image's or PDF's notes (lib/turn/media.ts): the digest of its bytes, the same before and after it is stored. */
  threadkeeper?: { sha256?: unknown };
}

/** Media by the digest of their bytes where known: a resent base64 image and the stored file it became are one. */
function sourceKey(b: KeyBlock): string {
  const sha = b.threadkeeper?.sha256;
  return typeof sha === "string" ? `#${sha}` : JSON.stringify(b.source ?? null);
}

/** One message as the client saw it: Threadkeeper's own tool rounds hidden, a turn's replies merged. */
export interface ViewEntry {
  role: Role;
  key: string;
  turnSeq: number;
  /** The first entry of its turn. */
  startsTurn: boolean;
}

// Whitespace is left out entirely: clients join a reply's text blocks with "", " " or "\n".
const squash = (text: string) => text.replace(/\s+/g, "");

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as KeyBlock[]).map((b) => (b.type === "text" ? (b.text ?? "") : sourceKey(b))).join(" ");
}

function systemText(content: unknown): string {
  return typeof content === "string" ? content : Array.isArray(content) ? (content as KeyBlock[]).map((b) => b.text ?? "").join(" ") : "";
}

/**
 * The canonical form of a message's blocks: text runs joined without whitespace, tool
 * calls by id (server tools' too), results by the id they answer and their text, images and
 * documents by the digest of their bytes (else their source), system messages by their text, unknown kinds whole. Thinking is left out: Claude's reasoning is not part of the conversation a client resends.
 */
export function canonicalKey(role: Role, blocks: readonly KeyBlock[]): string {
  const parts: string[] = [role];
  let text = "";
  const flush = () => {
    if (squash(text)) parts.push(`t${squash(text)}`);
    text = "";
  };
  for (const b of blocks) {
    if (b.type === "text") {
      text += ` ${b.text ?? ""}`;
      continue;
    }
    if (b.type === "thinking" || b.type === "redacted_thinking") continue;
    flush();
    if (b.type === "system_message") parts.push(`s${squash(systemText(b.content))}`);
    else if (b.type === "tool_result") parts.push(`r${b.tool_use_id}${b.is_error ? "!" : ""}${squash(resultText(b.content))}`);
    else if (b.type === "opaque") parts.push(`o${JSON.stringify(b.block)}`);
    else if (b.id !== undefined) parts.push(`u${b.id}`);
    else if (b.tool_use_id !== undefined) parts.push(`${b.type}${b.tool_use_id}`);
    else parts.push(`${b.type}${sourceKey(b)}`);
  }
  flush();
  return parts.join("\u0000");
}

/**
 * The session's current branch as its client saw it: replaced turns and replies, unfinished
 * replies, and calls and results of `hidden` tools (Threadkeeper's own, run inside a request)
 * are left out; consecutive messages of one role (the rounds of one reply) are merged.
 */
export function clientView(stored: readonly EngineMessage[], hidden: ReadonlySet<string>): ViewEntry[] {
  const hiddenIds = new Set<string>();
  const merged: { role: Role; blocks: KeyBlock[]; turnSeq: number }[] = [];
  for (const m of dropReplaced(stored)) {
    if (m.role === "assistant" && m.status !== "complete") continue;
    const blocks = m.content.filter((b) => {
      if (b.type === "tool_use" && hidden.has(b.name)) {
        hiddenIds.add(b.id);
        return false;
      }
      return !(b.type === "tool_result" && hiddenIds.has(b.tool_use_id));
    });
    if (blocks.length === 0) continue;
    const last = merged[merged.length - 1];
    if (last && last.role === m.role) last.blocks.push(...blocks);
    else merged.push({ role: m.role, blocks: [...blocks], turnSeq: m.turnSeq });
  }
  return merged.map((e, i) => ({
    role: e.role,
    key: canonicalKey(e.role, e.blocks),
    turnSeq: e.turnSeq,
    startsTurn: i === 0 || merged[i - 1].turnSeq !== e.turnSeq,
  }));
}

/** Consecutive messages of one role merged into one, as the API merges them. */
export function mergeConsecutive<B>(messages: readonly { role: Role; content: readonly B[] }[]): { role: Role; content: B[] }[] {
  const merged: { role: Role; content: B[] }[] = [];
  for (const m of messages) {
    const last = merged[merged.length - 1];
    if (last && last.role === m.role) last.content.push(...m.content);
    else merged.push({ role: m.role, content: [...m.content] });
  }
  return merged;
}

/**
 * What the session does with a request, given its view and the client's keyed messages (the
 * last is the message to answer):
 * - `appended`: only the new message was sent; the session supplies the rest. Given only the
 *   session's last turn as `view`, that is enough to tell an append from a retry.
 * - `matched`: the client's history is the session's (or its most recent part); the new message follows.
 * - `retried` / `regenerated`: the client sent the session's last message again, as an SDK
 *   retry does; it is answered again (its unfinished reply replaced, or its reply kept as an earlier version).
 * - `imported`: the client's history goes on past the session's: the rest is stored first.
 * - `edited`: the histories differ; the session's turns from `replacesTurn` on are replaced by
 *   the client's, which are stored from `importFrom`.
 */
export type Reconciliation =
  | { how: "appended" | "matched" | "retried" | "regenerated" }
  | { how: "imported"; importFrom: number }
  | { how: "edited"; importFrom: number; replacesTurn: number };

export function reconcile(view: readonly ViewEntry[], client: readonly { key: string }[]): Reconciliation {
  const history = client.length - 1;
  if (history === 0) {
    // The session's unanswered last message sent again alone: an SDK retrying a failed request.
    const last = view[view.length - 1];
    return { how: last?.role === "user" && last.startsTurn && last.key === client[0].key ? "retried" : "appended" };
  }
  let k = 0;
  while (k < history && k < view.length && view[k].key === client[k].key) k++;
  if (k === history) {
    if (k === view.length) return { how: "matched" };
    const next = view[k];
    const lastTurn = view[view.length - 1].turnSeq;
    if (next.startsTurn && next.turnSeq === lastTurn && next.key === client[history].key) {
      return { how: view.length === k + 1 ? "retried" : "regenerated" };
    }
  } else if (k === 0 && history <= view.length && client.slice(0, history).every((c, i) => c.key === view[view.length - history + i].key)) {
    // A client that keeps only the recent part of a long conversation.
    return { how: "matched" };
  }
  if (k === view.length) return { how: "imported", importFrom: k };
  let start = k;
  while (start > 0 && !view[start].startsTurn) start--;
  return { how: "edited", importFrom: start, replacesTurn: view[start].turnSeq };
}

/**
 * A view's digest: a chain over its entries' keys, so the view after a turn extends the one
 * before it without reading it again. The session stores it (sessions.client_view_*).
 */
export interface ViewDigest {
  len: number;
  digest: string;
}

export const EMPTY_VIEW: ViewDigest = { len: 0, digest: "" };

export function extendDigest(from: ViewDigest, keys: readonly string[]): ViewDigest {
  let digest = from.digest;
  for (const key of keys) digest = createHash("sha256").update(digest).update("\u0001").update(key).digest("hex");
  return { len: from.len + keys.length, digest };
}

/**
 * The view a turn extends and the client's entries it adds to it, so the view after the turn
 * can be recorded; null when unknown (the next request reads the session again). `view`: the
 * session's whole view as lined up, or null when only its last turn was read.
 */
export function viewBase(
  plan: Reconciliation,
  view: readonly ViewEntry[] | null,
  known: ViewDigest | null,
  client: readonly string[],
): { base: ViewDigest; added: string[] } | null {
  const last = client[client.length - 1];
  if (view === null) return known && plan.how === "appended" ? { base: known, added: [last] } : null;
  const prefix = (n: number) => extendDigest(EMPTY_VIEW, view.slice(0, n).map((v) => v.key));
  switch (plan.how) {
    case "retried":
      return { base: prefix(view.length), added: [] };
    case "regenerated":
      // The message answered again is the client's last, at the same place in the session.
      return { base: prefix(client.length), added: [] };
    case "imported":
    case "edited":
      return { base: prefix(plan.importFrom), added: client.slice(plan.importFrom) };
    default:
      return { base: prefix(view.length), added: [last] };
  }
}
