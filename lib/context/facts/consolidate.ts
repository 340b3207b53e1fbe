// Consolidation: a new fact either repeats a stored one (the stored one is seen again), or
// contradicts it (same subject and attribute, another value: the stored one is superseded,
// kept and marked), or is new. Pure: the database step applies the decision.
import { normalizeWs } from "@/lib/context/compaction/prose";

export interface StoredFact {
  id: string;
  subject: string;
  attribute: string | null;
  value: string | null;
  text: string;
  /** When it was said. */
  validFrom: Date;
}

export interface NewFact {
  subject: string;
  attribute: string | null;
  value: string | null;
  text: string;
  validFrom: Date;
}

export type FactDecision =
  | { action: "insert" }
  | { action: "repeat"; id: string }
  /** The new fact replaces these. */
  | { action: "supersede"; ids: string[] }
  /** Said before the stored fact that replaced it (an older session archived late): stored already superseded. */
  | { action: "stale"; supersededBy: string };

/** Near-identical wording: this share of content words in common (Jaccard). */
export const REPEAT_SIMILARITY = 0.8;

const STOP = new Set("the a an and or but so to of in on at for with is are was were be i i'm my me we our it this that just really very".split(" "));

export function factWords(text: string): Set<string> {
  return new Set(
    normalizeWs(text.toLowerCase().replace(/[^\p{L}\p{N}$€£% ]+/gu, " "))
      .split(" ")
      .filter((w) => w !== "" && !STOP.has(w)),
  );
}

export function similarity(a: string, b: string): number {
  const x = factWords(a);
  const y = factWords(b);
  if (x.size === 0 && y.size === 0) return 1;
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  return both / (x.size + y.size - both);
}

/** What to do with `fact` given the subject's current (not superseded) stored facts. */
export function consolidateFact(fact: NewFact, current: readonly StoredFact[]): FactDecision {
  const same = current.filter((c) => c.subject === fact.subject);
  if (fact.attribute !== null) {
    const sameAttr = same.filter((c) => c.attribute === fact.attribute);
    const equal = sameAttr.find((c) => c.value === fact.value);
    if (equal) return { action: "repeat", id: equal.id };
    if (sameAttr.length > 0) {
      const newer = sameAttr.filter((c) => c.validFrom.getTime() > fact.validFrom.getTime());
      if (newer.length > 0) return { action: "stale", supersededBy: newer[0].id };
      return { action: "supersede", ids: sameAttr.map((c) => c.id) };
    }
  }
  // A sentence setting two attributes is two facts: its other attribute is not a repeat of this one.
  const close = same
    .filter((c) => fact.attribute === null || c.attribute === null || c.attribute === fact.attribute)
    .map((c) => ({ c, s: similarity(c.text, fact.text) }))
    .filter((x) => x.s >= REPEAT_SIMILARITY)
    .sort((a, b) => b.s - a.s)[0];
  return close ? { action: "repeat", id: close.c.id } : { action: "insert" };
}
