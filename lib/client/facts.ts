// How the memory panel words a fact memory: its kinds, where it was said, how often.
// Pure, so the wording is unit-tested apart from the components.
import type { MemoryFactJson, MemoryJson } from "@/lib/contract";

/**
 * Fact tags (the must-keep kinds its sentence holds) as a reader would name them, most
 * telling first: a decision or a plan says more about a fact than the date in it.
 */
const KIND_LABELS: readonly (readonly [string, string])[] = [
  ["decision", "decision"],
  ["commitment", "plan"],
  ["pending_task", "plan"],
  ["preference", "preference"],
  ["event", "event"],
  ["person", "person"],
  ["place", "place"],
  ["date_time", "date"],
  ["quantity", "number"],
];
const MAX_KINDS = 3;

/** Up to three distinct kind labels of a fact, from its tags; unknown tags are left out. */
export function factKinds(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const [tag, label] of KIND_LABELS) {
    if (tags.includes(tag) && !out.includes(label)) out.push(label);
  }
  return out.slice(0, MAX_KINDS);
}

/** "message 12" or "messages 12–14": the seq range the fact was said in. */
export function messagesLabel(fact: Pick<MemoryFactJson, "from_seq" | "through_seq">): string {
  return fact.through_seq > fact.from_seq ? `messages ${fact.from_seq}–${fact.through_seq}` : `message ${fact.from_seq}`;
}

/** "seen 3 times", or null when it was said once (saying so would be noise). */
export function seenLabel(fact: Pick<MemoryFactJson, "seen_count">): string | null {
  return fact.seen_count > 1 ? `seen ${fact.seen_count} times` : null;
}

export interface FactWithDetails extends MemoryJson {
  fact: MemoryFactJson;
}

/** A fact memory with its details (a fact row always has them; the type cannot say so). */
export function isFact(memory: MemoryJson): memory is FactWithDetails {
  return memory.kind === "fact" && memory.fact !== null;
}

/** The session's facts split into current ones and those a newer fact replaced, each in the given order. */
export function splitFacts(memories: readonly MemoryJson[]): { current: FactWithDetails[]; replaced: FactWithDetails[] } {
  const facts = memories.filter(isFact);
  return {
    current: facts.filter((f) => f.fact.superseded_by === null),
    replaced: facts.filter((f) => f.fact.superseded_by !== null),
  };
}
