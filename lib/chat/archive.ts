import type { MemoryJson } from "@/lib/api/types";
import { conflict } from "@/lib/errors";
import { summarizeSession } from "./summary-writer";
import { rememberSummary } from "./memory";

/**
 * Archives a session into a memory: its summary extended by every turn since (by Claude
 * Haiku, or the extractive summary offline), verified against its must-keep items.
 */
export async function archiveSession(userId: string, sessionId: string): Promise<MemoryJson> {
  const { session, summary } = await summarizeSession(userId, sessionId);
  if (!summary?.trim()) throw conflict("nothing_to_remember", "The session has no messages to remember yet");
  return rememberSummary(userId, session, summary, "archive");
}
