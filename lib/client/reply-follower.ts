// A reply still being written when the session opens (a reload, another tab, another device
// mid-reply): shown as in progress and followed until the server has finished it. The server
// saves a streaming reply every second, so reading the newest messages that often shows it grow
// on whichever instance writes it.
import type { MessageJson, WindowJson } from "@/lib/contract";
import * as messagesApi from "@/lib/client/api/messages";

const POLL_MS = 1_000;
/** A reply whose text has not moved for this long is no longer followed (its writer is gone). */
const STALL_MS = 60_000;
const TAIL = 10;

export interface FollowHooks {
  /** The session is still the open one and nothing else took over the reply. */
  stillFollowing(): boolean;
  /** The reply's text so far. */
  progress(text: string): void;
  /** The reply is saved for good (complete, interrupted) or no longer followed: the newest messages. */
  done(messages: MessageJson[], window: WindowJson): void;
}

/** The reply being written among a page's messages, if any. */
export function replyInProgress(messages: readonly MessageJson[]): MessageJson | null {
  const last = messages.at(-1);
  return last?.role === "assistant" && last.status === "streaming" ? last : null;
}

export async function followReply(sessionId: string, reply: MessageJson, hooks: FollowHooks): Promise<void> {
  let text = reply.text;
  let movedAt = Date.now();
  hooks.progress(text);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (!hooks.stillFollowing()) return;
    let page: Awaited<ReturnType<typeof messagesApi.listMessages>>;
    try {
      page = await messagesApi.listMessages(sessionId, { limit: TAIL });
    } catch {
      continue; // A failed read is retried at the next tick.
    }
    if (!hooks.stillFollowing()) return;
    const now = page.messages.find((m) => m.id === reply.id);
    if (!now || now.status !== "streaming" || Date.now() - movedAt > STALL_MS) {
      hooks.done(page.messages, page.window);
      return;
    }
    if (now.text !== text) {
      text = now.text;
      movedAt = Date.now();
      hooks.progress(text);
    }
  }
}
