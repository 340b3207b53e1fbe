// A long history a drop-in client brings (its first request to a new session, an edit far back)
// is stored as work, not as a stall. PGlite runs on the main thread and one transaction holds
// it, so the history goes in short transactions of a few dozen messages, each renewing the
// turn lease, with the event loop free between them: a health check or another user's request
// waits for one batch, never for the whole history. Each batch ends before a turn starts, so a
// request cut short (the process stops, a write fails) leaves the session on whole turns, a
// prefix of the client's history that its retry lines up with and carries on from.
import "server-only";
import { blocksToText } from "@/lib/context/text";
import { yieldToLoop } from "@/lib/context/yield";
import { startsTurn } from "@/lib/context/turns";
import type { ContentBlock, Role } from "@/lib/context/types";
import { withUser, type Tx } from "@/lib/db";
import { appendMessages, type ImportedMessage } from "@/lib/db/message-batch";
import { AppError } from "@/lib/errors";
import { renewLease } from "@/lib/operations/lease";
import { countMessagesOffThread } from "@/lib/tokens/off-thread";

/**
 * How long one batch may hold the database. A stored message costs 0.7 to 1.5 ms on PGlite
 * (its search vector, word counts and embedding queue row, more on a busy machine), so each
 * batch is sized from the time the last one took per message.
 */
const BATCH_TARGET_MS = 25;
/** Bounds of a batch: at most this many messages, and about this many characters. */
const BATCH_MIN = 4;
const BATCH_MAX = 64;
const BATCH_CHARS = 48_000;

export interface ClientMessage {
  role: Role;
  content: ContentBlock[];
}

const size = (m: ClientMessage) => JSON.stringify(m.content).length;

/** The end of the batch from `from`: within both bounds, and before a turn starts when one does inside it. */
function batchEnd(ms: readonly ClientMessage[], from: number, most = BATCH_MAX): number {
  let end = from;
  for (let chars = 0; end < ms.length && end - from < most && (end === from || chars < BATCH_CHARS); end++) chars += size(ms[end]);
  if (end === ms.length) return end;
  for (let cut = end; cut > from; cut--) if (startsTurn(ms[cut].role, ms[cut].content)) return cut;
  return end;
}

/** Whether the messages are few enough to be stored with the turn's other writes, in one transaction. */
export const fitsOneBatch = (ms: readonly ClientMessage[]) => batchEnd(ms, 0, BATCH_MIN * 4) === ms.length;

/** The messages as rows, counted off the event loop when large. */
async function rows(ms: readonly ClientMessage[], model: string, supersedesTurn: number | undefined): Promise<ImportedMessage[]> {
  const counts = await countMessagesOffThread(ms);
  return ms.map((m, i) => ({
    role: m.role,
    content: m.content,
    text: blocksToText(m.content),
    tokenCount: counts[i],
    startsTurn: startsTurn(m.role, m.content),
    supersedesTurn: i === 0 ? supersedesTurn : undefined,
    ...(m.role === "assistant" ? { model } : {}),
  }));
}

/** Stores a short history in the caller's transaction (`supersedesTurn`: an edit's first replaced turn). */
export async function storeHistory(tx: Tx, where: { userId: string; sessionId: string }, ms: readonly ClientMessage[], model: string, supersedesTurn?: number) {
  if (ms.length > 0) await appendMessages(tx, where.userId, where.sessionId, await rows(ms, model, supersedesTurn));
}

const leaseLost = () =>
  new AppError(503, "lease_lost", "This request lost its hold on the session while storing its history; what was stored is kept, so retry it.", undefined, {
    "retry-after": "1",
  });

/**
 * Stores a long history in batches under the turn lease `leaseId`, which each batch renews (and
 * without which it writes nothing).
 */
export async function importHistory(
  where: { userId: string; sessionId: string; leaseId: string },
  ms: readonly ClientMessage[],
  model: string,
  supersedesTurn?: number,
): Promise<void> {
  let most = BATCH_MIN * 4;
  for (let from = 0; from < ms.length; ) {
    const to = batchEnd(ms, from, most);
    const batch = await rows(ms.slice(from, to), model, from === 0 ? supersedesTurn : undefined);
    const started = performance.now();
    await withUser(where.userId, async (tx) => {
      if (!(await renewLease(tx, where.sessionId, where.leaseId))) throw leaseLost();
      await appendMessages(tx, where.userId, where.sessionId, batch);
    });
    const perMessage = (performance.now() - started) / (to - from);
    most = Math.max(BATCH_MIN, Math.min(BATCH_MAX, Math.floor(BATCH_TARGET_MS / perMessage)));
    from = to;
    await yieldToLoop();
  }
}
