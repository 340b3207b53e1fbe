// Fact memories: at a compaction and at an archive, the atomic facts of the turns are stored
// beside the session's summary memory, consolidated against what the user's memory already
// holds: a repeat updates the stored fact, a contradiction supersedes it (kept, marked).
import "server-only";
import { audit } from "@/lib/audit/record";
import type { TranscriptTurn } from "@/lib/context/compaction";
import { consolidateFact, extractFactsSliced, type StoredFact } from "@/lib/context/facts";
import { redactSecrets } from "@/lib/redact";
import { resolveSettings } from "@/lib/context/settings";
import { withUser } from "@/lib/db";
import { currentFacts, insertFact, messageTimes, supersedeFacts, touchFact } from "@/lib/db/memory-facts";
import type { SessionRow } from "@/lib/db/sessions";
import { getUserSettings } from "@/lib/db/settings";
import { getEmbedder, toPgVector } from "@/lib/memory/embedder";
import { defaultModelId } from "./session-context";

/** More than this many facts from one compaction is a transcript, not facts: the first ones are kept. */
const MAX_FACTS = 200;

export interface RememberedFacts {
  inserted: number;
  repeated: number;
  superseded: number;
}

/**
 * Extracts the facts of `turns` (deterministically, so the offline path stores the same) and
 * consolidates them into the user's memory with their provenance (session, seq range) and
 * the time they were said. Each fact is decided against the facts stored before it, earlier
 * ones of the same batch included, so a fact said twice in one session is one row seen twice.
 */
export async function rememberFacts(
  userId: string,
  session: Pick<SessionRow, "id" | "project_id">,
  turns: readonly TranscriptTurn[],
  source: "compaction" | "archive",
): Promise<RememberedFacts> {
  const facts = (await extractFactsSliced(turns))
    .filter((f) => f.fromSeq !== null)
    .slice(0, MAX_FACTS)
    .map((f) => ({ ...f, text: redactSecrets(f.text) }));
  const counts: RememberedFacts = { inserted: 0, repeated: 0, superseded: 0 };
  if (facts.length === 0) return counts;
  const embedder = getEmbedder();
  // One call for the batch: a hosted embedder bills per request as much as per text.
  const vectors = await embedder.embed(facts.map((f) => f.text), "document");
  return withUser(userId, async (tx) => {
    const ttlDays = resolveSettings(defaultModelId(), await getUserSettings(tx, userId), {}).memory_ttl_days;
    const times = await messageTimes(tx, session.id, facts.map((f) => f.fromSeq as number));
    const stored: StoredFact[] = await currentFacts(tx, userId, facts.map((f) => f.subject));
    for (const [i, f] of facts.entries()) {
      const fromSeq = f.fromSeq as number;
      const throughSeq = f.throughSeq ?? fromSeq;
      // A pasted log's line was said when its timestamp says, not when it was pasted.
      const said = f.saidAt ?? times.get(fromSeq) ?? new Date();
      const decision = consolidateFact({ ...f, validFrom: said }, stored);
      if (decision.action === "repeat") {
        await touchFact(tx, userId, decision.id, { sessionId: session.id, throughSeq, at: said, ttlDays });
        counts.repeated++;
        continue;
      }
      const v = vectors[i];
      const row = await insertFact(tx, userId, {
        projectId: session.project_id,
        sessionId: session.id,
        source,
        subject: f.subject,
        attribute: f.attribute,
        value: f.value,
        text: f.text,
        tags: ["fact", ...f.kinds],
        fromSeq,
        throughSeq,
        validFrom: said,
        supersededBy: decision.action === "stale" ? decision.supersededBy : null,
        embedding: v && v.some((x) => x !== 0) ? toPgVector(v) : null,
        embeddingModel: embedder.model,
        ttlDays,
      });
      counts.inserted++;
      if (decision.action === "supersede") {
        await supersedeFacts(tx, userId, decision.ids, row.id, said);
        counts.superseded += decision.ids.length;
        for (const id of decision.ids) stored.splice(stored.findIndex((s) => s.id === id), 1);
      }
      if (decision.action !== "stale") stored.unshift({ id: row.id, subject: f.subject, attribute: f.attribute, value: f.value, text: f.text, validFrom: said });
    }
    await audit(tx, userId, { action: "memory.facts_saved", target: { type: "session", id: session.id }, metadata: { source, ...counts } });
    return counts;
  });
}
