import "server-only";
import type { SendEvent } from "@/lib/contract";
import type { MessageRow } from "@/lib/db/messages";

export type Emit = (e: SendEvent) => void;

/** One send in progress: who, where, the turn lease it holds and the user message it answers. */
export interface TurnHandle {
  userId: string;
  sessionId: string;
  leaseId: string;
  userMessage: MessageRow;
  /** Aborted when the user stops the reply (on this instance or, through the session row, another). */
  stop: AbortController;
}
