// Where things go in the message list, worked out from the loaded messages alone: each
// message's place in Claude's view, the dividers after the messages they follow, the cutoff
// marker, and which messages offer Edit and Regenerate. Pure, so the list only renders.
import type { CompactionJson, MessageJson, WindowJson } from "@/lib/contract";
import { FIRST_TURN_SEQ } from "@/lib/context/turns";
import type { ToolUseBlock } from "@/lib/context/types";
import type { MessagePlacement } from "@/components/chat/MessageItem";

/** A user message the app wrote: the answers to a reply's tool calls, nothing typed. */
export function isToolResults(m: MessageJson): boolean {
  return m.role === "user" && m.content.length > 0 && m.content.every((b) => b.type === "tool_result");
}

export function toolUsesOf(m: MessageJson | undefined): ToolUseBlock[] {
  return m?.role === "assistant" ? m.content.filter((b): b is ToolUseBlock => b.type === "tool_use") : [];
}

/** `condensedThrough`: the last turn the active summary stands in for (0 when there is none). */
export function placementOf(m: MessageJson, window: WindowJson | null, condensedThrough = 0): MessagePlacement {
  const firstTurn = m.turn_seq === FIRST_TURN_SEQ;
  return {
    firstTurn,
    keptBeforeCutoff: m.in_window && window !== null && m.turn_seq < window.cutoff_turn_seq,
    condensed: !m.in_window && m.turn_seq <= condensedThrough,
  };
}

/**
 * Where each divider goes: after the message whose seq is the compaction's at_seq (or the
 * last loaded one before it). A compaction older than every loaded message waits for its
 * page, unless nothing older exists (then it goes first, at index -1).
 */
export function dividerSlots(messages: MessageJson[], compactions: CompactionJson[], hasMore: boolean): Map<number, CompactionJson[]> {
  const slots = new Map<number, CompactionJson[]>();
  for (const c of compactions) {
    let at = -2;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i].seq <= c.at_seq) {
        at = i;
        break;
      }
    }
    if (at === -2) {
      if (hasMore) continue;
      at = -1;
    }
    slots.set(at, [...(slots.get(at) ?? []), c]);
  }
  return slots;
}

/**
 * The marker goes before the first in-window message that follows slid-out ones. Pinned
 * turns before the cutoff are in the window too, but Claude's continuous view starts
 * after them, so they do not take the marker.
 */
export function cutoffIndex(messages: MessageJson[], window: WindowJson | null, replaced: ReadonlySet<string>): number {
  let sawOutOfView = false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    // An earlier version is out of view because it was replaced, not because it slid out.
    if (replaced.has(m.id)) continue;
    if (!m.in_window) sawOutOfView = true;
    else if (sawOutOfView && !placementOf(m, window).keptBeforeCutoff) return i;
  }
  return -1;
}

/** Saved messages after `seenSeq` that a reader would count as new (typed messages and replies). */
export function newSince(messages: readonly MessageJson[], seenSeq: number, hidden: ReadonlySet<string>): number {
  let n = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i].seq > seenSeq; i--) {
    if (!hidden.has(messages[i].id) && !isToolResults(messages[i])) n++;
  }
  return n;
}
