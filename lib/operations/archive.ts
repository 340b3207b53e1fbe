import "server-only";
import type { MemoryJson } from "@/lib/contract";
import { conflict } from "@/lib/errors";
import { summarizeSession } from "./summary-writer";
import { log } from "@/lib/log";
import { rememberFacts } from "./facts";
import { rememberSummary } from "./memory";

/**
 * Archives a session into a memory: its summary extended by every turn since (by Claude
 * Haiku, or the extractive summary offline), verified against its must-keep items, and the
 * atomic facts of those turns as fact memories.
 */
export async function archiveSession(userId: string, sessionId: string): Promise<MemoryJson> {
  const { session, summary, transcript } = await summarizeSession(userId, sessionId);
  if (!summary?.trim()) throw conflict("nothing_to_remember", "The session has no messages to remember yet");
  const memory = await rememberSummary(userId, session, summary, "archive", transcript);
  // The turns since the last compaction (earlier ones gave their facts when they were condensed).
  await rememberFacts(userId, session, transcript, "archive").catch((err: unknown) => log.error("[threadkeeper] saving the archive's facts failed", err));
  return memory;
}
