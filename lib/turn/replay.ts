import "server-only";
import type { SendEvent } from "@/lib/contract";
import { withUser, type Tx } from "@/lib/db";
import { findByIdempotencyKey, messageJson, sessionMessage, turnEdits, turnMessages, type MessageRow } from "@/lib/db/messages";
import { getSession } from "@/lib/db/sessions";
import { conflict, notFound } from "@/lib/errors";
import { isReplacedTurn } from "@/lib/context/retries";
import { statusOf } from "./after-turn";

/**
 * The user message of the session's last turn, to answer again. A retry needs its reply to be
 * missing or broken; a regenerate needs a reply to replace (complete or not).
 */
export async function lastUserMessage(tx: Tx, userId: string, sessionId: string, mode: "retry" | "regenerate") {
  const session = await getSession(tx, userId, sessionId);
  const turn = await turnMessages(tx, sessionId, session.last_turn_seq);
  const last = turn[turn.length - 1];
  const first = turn[0];
  if (!first || first.role !== "user") throw conflict(`nothing_to_${mode}`, "The session has no message to answer yet");
  if (mode === "retry" && last && last.role === "assistant" && last.status === "complete") {
    throw conflict("nothing_to_retry", "The last message already has a complete reply");
  }
  if (mode === "regenerate" && !turn.some((m) => m.role === "assistant")) {
    throw conflict("nothing_to_regenerate", "The last message has no reply to regenerate yet; send it again with retry");
  }
  return first;
}

/**
 * The user message that starts the turn a new version branches from: an edited message (`edit_of`)
 * or a regenerated reply's turn (`reply_id`). Any turn of the current version will do, unless the
 * summary retells it (a new version there would contradict what Claude is told happened).
 */
export async function branchPoint(tx: Tx, userId: string, sessionId: string, messageId: string, kind: "edit" | "reply"): Promise<MessageRow> {
  const session = await getSession(tx, userId, sessionId);
  const target = await sessionMessage(tx, sessionId, messageId);
  const [first] = target ? await turnMessages(tx, sessionId, target.turn_seq) : [];
  const isOwn = kind === "edit" ? target?.id === first?.id : target?.role === "assistant";
  // Another kind of message (a tool result, a reply named as an edit) names nothing editable: a 404 like an unknown id.
  if (!target || !first || first.role !== "user" || !isOwn) throw notFound(kind === "edit" ? "Message" : "Reply", messageId);
  if (isReplacedTurn(target.turn_seq, await turnEdits(tx, sessionId)) || (kind === "reply" && replacedReply(target, await turnMessages(tx, sessionId, target.turn_seq)))) {
    throw conflict("not_current_version", "That message belongs to an earlier version of the conversation; edit the version shown now instead");
  }
  if (session.summary_id !== null && target.turn_seq <= session.summary_through_turn) {
    throw conflict("edit_summarized", "That part of the conversation was condensed into the summary; restore a checkpoint from before it to branch from there");
  }
  return first;
}

/** A reply a regeneration of its turn already replaced. */
function replacedReply(reply: MessageRow, turn: readonly MessageRow[]): boolean {
  return turn.some((m) => m.restarts_turn && m.seq > reply.seq);
}

/** The saved outcome of an earlier request with this idempotency key, replayed as events. */
export async function replayFor(userId: string, sessionId: string, key: string): Promise<{ kind: "replay"; events: SendEvent[] } | null> {
  const found = await withUser(userId, async (tx) => {
    const user = await findByIdempotencyKey(tx, userId, sessionId, key);
    if (!user) return null;
    return { user, turn: await turnMessages(tx, sessionId, user.turn_seq) };
  });
  if (!found) return null;
  const replies = found.turn.filter((m) => m.seq > found.user.seq);
  if (replies.some((m) => m.status === "streaming")) {
    throw conflict("request_in_progress", "A request with this idempotency key is still being answered");
  }
  const events: SendEvent[] = [{ event: "user_message", data: messageJson(found.user, true) }];
  for (const m of replies) {
    events.push({ event: m.role === "assistant" ? "assistant_message" : "user_message", data: messageJson(m, true) });
  }
  events.push({ event: "notice", data: { kind: "replayed", message: "Replayed the saved result of this idempotency key." } });
  events.push({ event: "status", data: await statusOf(userId, sessionId) }, { event: "done", data: {} });
  return { kind: "replay", events };
}
