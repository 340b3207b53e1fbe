import type { EngineMessage } from "./types";

/**
 * Drops interrupted assistant messages that a later reply of the same turn replaces (a
 * retry), and those of `currentTurn`, which the request being built is about to replace.
 * Without this the API would see the broken partial reply merged with the new one.
 */
export function dropSuperseded(messages: readonly EngineMessage[], currentTurn: number | null): EngineMessage[] {
  const lastAssistantSeq = new Map<number, number>();
  for (const m of messages) if (m.role === "assistant") lastAssistantSeq.set(m.turnSeq, m.seq);
  return messages.filter(
    (m) =>
      !(
        m.role === "assistant" &&
        m.status !== "complete" &&
        (m.turnSeq === currentTurn || (lastAssistantSeq.get(m.turnSeq) ?? m.seq) > m.seq)
      ),
  );
}
