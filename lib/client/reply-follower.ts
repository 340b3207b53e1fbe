// A reply another request is writing (another tab, another device, this tab before a reload):
// shown as in progress, grown by the live stream's deltas (lib/client/live-session.ts) and by
// the text the server saves every second, and ended in the same update that shows it saved, so
// it is never shown twice, and never as an empty saved reply while the server still writes it.
import type { LiveEvent, MessageJson, WindowJson } from "@/lib/contract";
import * as messagesApi from "@/lib/client/api/messages";

type Delta = Extract<LiveEvent, { event: "delta" }>["data"];

const POLL_MS = 1_000;
/** A reply whose text has not moved for this long is no longer followed (its writer is gone). */
const STALL_MS = 60_000;
const TAIL = 10;
/** Pieces kept per reply not yet followed, and replies kept: a bound, not a limit met in use. */
const MAX_PIECES = 2_000;
const MAX_REPLIES = 4;

/** The reply being written among a page's messages, if any. */
export function replyInProgress(messages: readonly MessageJson[]): MessageJson | null {
  const last = messages.at(-1);
  return last?.role === "assistant" && last.status === "streaming" ? last : null;
}

/** A page without the replies still being written: they are followed, never shown as saved. */
export function settledOnly(messages: readonly MessageJson[]): MessageJson[] {
  return messages.filter((m) => m.status !== "streaming");
}

/**
 * Text heard for replies, by message id, at its offset: applied exactly once whatever the order
 * (a delta heard before the reply's row was read, or after a gap the saved text later fills).
 */
export class HeardText {
  private pieces = new Map<string, Delta[]>();

  hear(d: Delta): void {
    let list = this.pieces.get(d.message_id);
    if (!list) {
      if (this.pieces.size >= MAX_REPLIES) this.pieces.delete(this.pieces.keys().next().value ?? "");
      this.pieces.set(d.message_id, (list = []));
    }
    if (list.length < MAX_PIECES) list.push(d);
  }

  /** `text` continued by every piece heard that starts within it and reaches past its end. */
  extend(messageId: string, text: string): string {
    const list = this.pieces.get(messageId);
    if (!list) return text;
    for (let grew = true; grew; ) {
      grew = false;
      for (const d of list) {
        if (d.offset <= text.length && d.offset + d.text.length > text.length) {
          text += d.text.slice(text.length - d.offset);
          grew = true;
        }
      }
    }
    this.pieces.set(
      messageId,
      list.filter((d) => d.offset + d.text.length > text.length),
    );
    return text;
  }

  forget(messageId?: string): void {
    if (messageId === undefined) this.pieces.clear();
    else this.pieces.delete(messageId);
  }
}

export interface FollowView {
  /** The session is still the open one and no send of this tab holds the composer. */
  free(sessionId: string): boolean;
  /** The followed reply's text so far. */
  progress(text: string): void;
  /** It is saved (or no longer followed): the newest page, merged in the same update that ends it. */
  done(messages: MessageJson[], window: WindowJson): void;
}

export interface Follower {
  /** Follows `reply` (a no-op when it already is); the caller has shown it as streaming. */
  start(sessionId: string, reply: MessageJson): void;
  /** A page of the newest messages: ends the reply if it is saved, else takes its saved text. */
  settle(page: { messages: MessageJson[]; window: WindowJson }): void;
  delta(d: Delta): void;
  following(): string | null;
  reset(): void;
}

export function createFollower(view: FollowView): Follower {
  const heard = new HeardText();
  let current: { sessionId: string; id: string; text: string; movedAt: number } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const stop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (current) heard.forget(current.id);
    current = null;
  };

  const grow = (text: string) => {
    if (!current) return;
    const next = heard.extend(current.id, text.length > current.text.length ? text : current.text);
    if (next.length === current.text.length) return;
    current.text = next;
    current.movedAt = Date.now();
    view.progress(next);
  };

  // The saved text, every second: what a delta missed (a gap, no live stream) still arrives.
  const poll = () => {
    timer = setTimeout(async () => {
      const mine = current;
      if (!mine) return;
      if (!view.free(mine.sessionId)) return stop();
      try {
        const page = await messagesApi.listMessages(mine.sessionId, { limit: TAIL });
        if (current === mine) settle(page);
      } catch {
        // Retried at the next tick.
      }
      if (current === mine) poll();
    }, POLL_MS);
  };

  function settle(page: { messages: MessageJson[]; window: WindowJson }): void {
    if (!current) return;
    const now = page.messages.find((m) => m.id === current?.id);
    if (!now || now.status !== "streaming" || Date.now() - current.movedAt > STALL_MS) {
      stop();
      view.done(page.messages, page.window);
      return;
    }
    grow(now.text);
  }

  return {
    start(sessionId, reply) {
      if (current?.id === reply.id) return grow(reply.text);
      stop();
      current = { sessionId, id: reply.id, text: "", movedAt: Date.now() };
      view.progress("");
      grow(reply.text);
      poll();
    },
    settle,
    delta(d) {
      heard.hear(d);
      if (current?.id === d.message_id && view.free(current.sessionId)) grow(current.text);
    },
    following: () => current?.id ?? null,
    reset() {
      stop();
      heard.forget();
    },
  };
}
