// One imported conversation stored as a session, whole or not at all: the session, its
// messages (indexed and embedded by the same triggers as a native one's, in the background),
// its compactions and, from Threadkeeper's own export, the rest of what it was
// (import-restore.ts), and the import's counts in one transaction, so a crash leaves either all
// of it or none, and a resumed import skips exactly what was stored. The same source
// conversation is never stored twice for a user (sessions_import_source_idx): importing a file
// again adds nothing.
import "server-only";
import { heuristicTitle } from "@/lib/context/titles";
import { blocksToText } from "@/lib/context/text";
import { startsTurn } from "@/lib/context/turns";
import { yieldToLoop } from "@/lib/context/yield";
import { storableValue } from "@/lib/contract/input-guard";
import { withUser } from "@/lib/db";
import { ensureProject } from "@/lib/db/projects";
import { patchSession } from "@/lib/db/sessions";
import { restoreTimes, storedSeqs } from "@/lib/db/exchange";
import { filesByIds } from "@/lib/db/files";
import { importedSession, markImported, recordOutcome } from "@/lib/db/imports";
import { appendMessages, type ImportedMessage as StoredMessage } from "@/lib/db/message-batch";
import { fileIdsOf, remapFiles } from "@/lib/import/threadkeeper";
import type { ImportedConversation } from "@/lib/import/types";
import { countMessagesOffThread } from "@/lib/tokens/off-thread";
import { restoreSession, settleWindow, storeMarkers, type ImportLinks } from "./import-restore";
import { createSessionIn } from "./sessions";

/** Messages per statement: a statement's rows travel as one JSON parameter. */
const BATCH = 64;

export type StoreOutcome = { outcome: "imported"; sessionId: string } | { outcome: "skipped"; sessionId: string };

/**
 * Stores `read` for the user as part of import `importId`; `bytesRead`: how far into the file it
 * ended. `links`: what the import restored before it (files, checkpoints), by the export's ids.
 */
export async function storeConversation(
  userId: string,
  importId: string,
  read: ImportedConversation,
  bytesRead: number,
  links: ImportLinks = { files: new Map(), checkpoints: new Map() },
): Promise<StoreOutcome> {
  // An export's text may hold what PostgreSQL cannot store (a NUL in a tool's output, half a
  // surrogate pair): dropped or replaced, rather than the conversation lost for it.
  const conv = storableValue(read);
  const known = await withUser(userId, (tx) => importedSession(tx, userId, conv.format, conv.sourceId));
  if (known) {
    await withUser(userId, (tx) => recordOutcome(tx, importId, { format: conv.format, bytesRead, outcome: "skipped" }));
    return { outcome: "skipped", sessionId: known };
  }
  // Any format: a block may name a stored file only if it is this account's (a crafted transcript could name another's).
  const messages = await withFiles(userId, conv.messages, links.files);
  // Counted before the transaction, off the event loop: a long conversation is megabytes of text.
  const tokens = messages.every((m) => m.tokenCount !== undefined) ? messages.map((m) => m.tokenCount!) : await countMessagesOffThread(messages);
  const rows: StoredMessage[] = messages.map((m, i) => ({
    role: m.role,
    content: m.content,
    text: blocksToText(m.content),
    tokenCount: tokens[i],
    startsTurn: startsTurn(m.role, m.content),
    supersedesTurn: m.supersedesTurn,
    restartsTurn: m.restartsTurn,
    saidAt: m.saidAt,
    ...(m.searchAt !== undefined ? { searchAt: m.searchAt } : {}),
    ...(m.role === "assistant" && m.model ? { model: m.model } : {}),
  }));
  // Found by name, or made, in a transaction of its own: the conversation's would hold the name's
  // index entry until it ends, and another import bringing the same project would wait on it.
  const { project } = conv;
  const projectId = project ? await withUser(userId, (tx) => ensureProject(tx, userId, project.name, project.createdAt)) : null;
  const firstUser = rows.find((r) => r.startsTurn)?.text ?? "";
  const title = (conv.title?.trim() || heuristicTitle(firstUser) || "Imported conversation").slice(0, 200);
  const sessionId = await withUser(userId, async (tx) => {
    const session = await createSessionIn(tx, userId, { title }, conv.systemPrompt);
    if (projectId) await patchSession(tx, userId, session.id, { projectId });
    for (let from = 0; from < rows.length; from += BATCH) {
      await appendMessages(tx, userId, session.id, rows.slice(from, from + BATCH));
      await yieldToLoop();
    }
    if (conv.restore || conv.compactions.length > 0) {
      const stored = await storedSeqs(tx, session.id);
      if (conv.restore) await restoreSession(tx, userId, session.id, conv.restore, stored, links);
      else await storeMarkers(tx, userId, session.id, conv.compactions, stored);
    }
    if (conv.restore || conv.compactions.length > 0 || rows.some((r) => r.supersedesTurn !== undefined || r.restartsTurn)) await settleWindow(tx, userId, session.id);
    // After the messages, whose append stamps the session with now.
    await markImported(tx, session.id, conv, importId);
    if (conv.restore) await restoreTimes(tx, session.id, conv.restore.session);
    await recordOutcome(tx, importId, { format: conv.format, bytesRead, outcome: "imported" });
    return session.id;
  });
  return { outcome: "imported", sessionId };
}

/** The messages with their files as this account's: restored ones, or its own (the same account's export). */
async function withFiles(userId: string, messages: ImportedConversation["messages"], files: ReadonlyMap<string, string> = new Map()): Promise<ImportedConversation["messages"]> {
  const named = [...new Set(messages.flatMap((m) => fileIdsOf(m.content)))];
  if (named.length === 0) return messages;
  const map = new Map(files);
  const unknown = named.filter((id) => !map.has(id));
  if (unknown.length > 0) for (const f of await withUser(userId, (tx) => filesByIds(tx, userId, unknown))) map.set(f.id, f.id);
  return messages.map((m) => ({ ...m, content: remapFiles(m.content, map) }));
}
