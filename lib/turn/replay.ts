import "server-only";
import type { SendEvent } from "@/lib/contract";
import { withUser, type Tx } from "@/lib/db";
import { findByIdempotencyKey, messageJson, turnMessages } from "@/lib/db/messages";
import { getSession } from "@/lib/db/sessions";
import { conflict } from "@/lib/errors";
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

/** The turn an edit replaces: only the session's last user message can be edited. */
export async function editedTurn(tx: Tx, userId: string, sessionId: string, messageId: string): Promise<number> {
  const session = await getSession(tx, userId, sessionId);
  const [first] = await turnMessages(tx, sessionId, session.last_turn_seq);
  if (!first || first.id !== messageId) {
    throw conflict("not_last_message", "Only the last message you sent can be edited", { last_message_id: first?.id ?? null });
  }
  return first.turn_seq;
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
