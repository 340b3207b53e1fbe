import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import type { LoadedMemoryJson, MemoryHitJson, MemoryJson } from "@/lib/contract";
import { extractMustKeep, type MustKeepItem, type TranscriptTurn } from "@/lib/context/compaction";
import { redactDeep, redactSecrets } from "@/lib/redact";
import { resolveSettings } from "@/lib/context/settings";
import { withUser } from "@/lib/db";
import {
  deleteMemory,
  getMemory,
  insertMemory,
  loadedMemories,
  memoriesOfProject,
  memoriesOfSession,
  memoryJson,
  recordLoaded,
  searchCandidates,
  setDropped,
  setPinned,
  upsertCompactionMemory,
  appendMemoryAbout,
  type NewMemory,
  type SearchFilter,
} from "@/lib/db/memories";
import { getProject } from "@/lib/db/projects";
import { getSession, markArchived, setSessionMemory, type SessionRow } from "@/lib/db/sessions";
import { getUserSettings } from "@/lib/db/settings";
import { getEmbedder, toPgVector, type EmbedKind } from "@/lib/memory/embedder";
import { fitBudget, memoryBlock, relevance, renderMemory, vectorWeight } from "@/lib/memory/rank";
import { estimateSystemTokens } from "@/lib/tokens/tokenizer";
import { defaultModelId, sessionContext } from "./session-context";
import { MAX_QUERY_CHARS, saveMemorySchema } from "@/lib/contract/requests";

const CANDIDATES_PER_LIST = 50;
const LOAD_CANDIDATES = 10;
/** Words (stop words aside) a memory shares with a first message to be loaded into it unasked. */
const MIN_SHARED_WORDS = 2;
/** Two memories whose words overlap this much say the same thing: the second is not loaded. */
const NEAR_REPEAT = 0.8;

const GREETING = new Set("hi hello hey hiya yo there thanks thank you ok okay cool great good morning afternoon evening claude".split(" "));
const greetingOnly = (text: string) => [...wordSet(text)].every((w) => GREETING.has(w));

const wordSet = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Jaccard overlap of two texts' words. */
export function nearRepeat(a: string, b: string): boolean {
  const x = wordSet(a);
  const y = wordSet(b);
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  return both / Math.max(1, x.size + y.size - both) >= NEAR_REPEAT;
}

async function ttlDays(userId: string): Promise<number> {
  return withUser(userId, async (tx) => resolveSettings(defaultModelId(), await getUserSettings(tx, userId), {}).memory_ttl_days);
}

/** The text's vector as a pgvector parameter (null when there was nothing to embed) and the model that made it. */
async function embedOne(text: string, kind: EmbedKind): Promise<{ vector: string | null; model: string }> {
  const embedder = getEmbedder();
  const [v] = await embedder.embed([text], kind);
  return { vector: v && v.some((x) => x !== 0) ? toPgVector(v) : null, model: embedder.model };
}

/** Decisions, code references and tags for a memory, found the same way compaction verifies summaries. */
function describe(items: readonly MustKeepItem[]) {
  const of = (...kinds: string[]) => [...new Set(items.filter((i) => kinds.includes(i.kind)).map((i) => i.text))];
  const tags = [...new Set(items.map((i) => i.kind))];
  return { keyDecisions: of("decision").slice(0, 50), codeReferences: of("file_path", "identifier").slice(0, 100), tags };
}

/** The most of a memory's turns its embedding reads beside the summary (the local embedder's cost grows with length). */
const EMBED_ABOUT_CHARS = 30_000;
/**
 * The turns' words go into the memory this many characters per transaction: those of a long
 * history are a megabyte, a tenth of a second of the database's one thread in one statement.
 */
const ABOUT_PART_CHARS = 100_000;

/** `text` in parts of at most about `size` characters, cut after a newline when one is near. */
export function textParts(text: string, size = ABOUT_PART_CHARS): string[] {
  const parts: string[] = [];
  let from = 0;
  while (text.length - from > size) {
    const nl = text.lastIndexOf("\n", from + size);
    const to = nl > from + size / 2 ? nl + 1 : from + size;
    parts.push(text.slice(from, to));
    from = to;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * A session's memory from its verified summary: at every compaction it replaces the
 * session's previous one; archiving adds one and marks the session archived. `turns` are the
 * turns the summary now stands for that no earlier memory of the session did: their words make
 * the memory findable by what was discussed, not only by what the summary kept.
 */
export async function rememberSummary(
  userId: string,
  session: SessionRow,
  verifiedSummary: string,
  source: "compaction" | "archive",
  turns: readonly TranscriptTurn[] = [],
): Promise<MemoryJson> {
  // Summaries come redacted; this holds for any other caller too, since memories travel into
  // other sessions' system prompts (a no-op on redacted text).
  const summary = redactSecrets(verifiedSummary);
  const about = redactSecrets(turns.flatMap((t) => t.messages.map((m) => m.text)).join("\n"));
  const { vector, model } = await embedOne(about ? `${summary}\n\n${about.slice(0, EMBED_ABOUT_CHARS)}` : summary, "document");
  const [firstAbout, ...moreAbout] = about ? textParts(about) : [""];
  const memory: NewMemory = {
    projectId: session.project_id,
    sessionId: session.id,
    source,
    summary,
    ...describe(extractMustKeep([], summary)),
    embedding: vector,
    embeddingModel: model,
    ttlDays: await ttlDays(userId),
    about: firstAbout || undefined,
  };
  const saved = await withUser(userId, async (tx) => {
    if (source === "compaction") {
      const row = await upsertCompactionMemory(tx, userId, memory);
      await audit(tx, userId, { action: "memory.saved", target: { type: "memory", id: row.id }, metadata: { source, session_id: session.id } });
      return memoryJson(row);
    }
    await markArchived(tx, session.id);
    const row = await insertMemory(tx, userId, memory);
    await audit(tx, userId, { action: "session.archived", target: { type: "session", id: session.id }, metadata: { memory_id: row.id } });
    await audit(tx, userId, { action: "memory.saved", target: { type: "memory", id: row.id }, metadata: { source, session_id: session.id } });
    return memoryJson(row);
  });
  // The rest of the turns' words, after the memory is saved: until then search finds it by the
  // summary and the first part (tsvector concatenation is how the words of successive
  // compactions accumulate anyway).
  for (const part of moreAbout) await withUser(userId, (tx) => appendMemoryAbout(tx, userId, saved.id, part));
  return saved;
}

/** `POST /api/memory/session`: a memory saved by hand (or by an integration). */
export async function saveMemory(userId: string, raw: z.infer<typeof saveMemorySchema>): Promise<MemoryJson> {
  // Often pasted from a conversation; it joins later sessions' system prompts, so no secret goes in.
  const input = redactDeep(raw);
  const project = await withUser(userId, async (tx) => {
    const session = input.session_id ? await getSession(tx, userId, input.session_id) : null;
    if (input.project_id) await getProject(tx, userId, input.project_id);
    return input.project_id ?? session?.project_id ?? null;
  });
  const { vector, model } = await embedOne(input.summary, "document");
  const ttl = await ttlDays(userId);
  return withUser(userId, async (tx) => {
    const row = await insertMemory(tx, userId, {
      projectId: project,
      sessionId: input.session_id ?? null,
      source: "manual",
      summary: input.summary,
      keyDecisions: input.key_decisions,
      codeReferences: input.code_references,
      tags: input.tags,
      embedding: vector,
      embeddingModel: model,
      ttlDays: ttl,
    });
    await audit(tx, userId, { action: "memory.saved", target: { type: "memory", id: row.id }, metadata: { source: "manual", session_id: row.session_id } });
    return memoryJson(row);
  });
}

/**
 * Hybrid search: exact cosine similarity over the user's memories (pgvector) fused with
 * full-text search by reciprocal rank, then weighted with recency and pinning.
 */
export async function searchMemories(
  userId: string,
  query: string,
  filter: SearchFilter,
  limit: number,
  excludeSessionId?: string,
): Promise<MemoryHitJson[]> {
  return (await rankedMemories(userId, query, filter, limit, excludeSessionId)).map((r) => r.hit);
}

async function rankedMemories(
  userId: string,
  query: string,
  filter: SearchFilter,
  limit: number,
  excludeSessionId?: string,
): Promise<{ hit: MemoryHitJson; sharedWords: number; queryWords: number }[]> {
  const { vector, model } = await embedOne(query, "query");
  const candidates = await withUser(userId, (tx) =>
    searchCandidates(tx, userId, { vector, text: query, model, perList: CANDIDATES_PER_LIST }, filter),
  );
  const now = new Date();
  return candidates
    .filter((c) => c.row.session_id === null || c.row.session_id !== excludeSessionId)
    .map((c) => ({
      hit: {
        ...memoryJson(c.row),
        relevance: relevance({ vectorRank: c.vectorRank, textRank: c.textRank, createdAt: c.row.created_at, pinned: c.row.pinned }, now, vectorWeight(model)),
        vector_rank: c.vectorRank,
        text_rank: c.textRank,
      },
      sharedWords: c.sharedWords,
      queryWords: c.queryWords,
    }))
    .sort((a, b) => b.hit.relevance - a.hit.relevance || a.hit.id.localeCompare(b.hit.id))
    .slice(0, limit);
}

/**
 * What a first message searches memories with: all of it, or for a long one (a pasted log or
 * file) its opening and its end, where the ask usually is. Every word of a long text would
 * match no memory by keyword, cost a query term each, and PGlite fails outright on a few
 * thousand of them.
 */
export function memoryQuery(text: string): string {
  if (text.length <= MAX_QUERY_CHARS) return text;
  const half = MAX_QUERY_CHARS / 2;
  return `${text.slice(0, half)}\n${text.slice(-half)}`;
}

/**
 * At a session's first message: the most relevant memories of the user (and the session's
 * project) go into the system prompt, within the memory budget.
 */
export async function loadMemoriesForSession(userId: string, sessionId: string, firstMessage: string): Promise<{ loaded: LoadedMemoryJson[]; tokens: number }> {
  const ctx = await withUser(userId, async (tx) => sessionContext(tx, userId, sessionId));
  if (ctx.session.memory_loaded_at) return { loaded: [], tokens: ctx.session.memory_tokens };
  const budget = Math.floor((ctx.settings.memory_budget * ctx.capacity.capacity) / ctx.calibration.factor);
  const ranked =
    budget > 0 && !greetingOnly(firstMessage)
      ? await rankedMemories(userId, memoryQuery(firstMessage), { projectId: ctx.session.project_id ?? undefined }, LOAD_CANDIDATES, sessionId)
      : [];
  // Loaded unasked, so held to more than search: it must share words with the message (two, or
  // the one of a one-word message), pinned or not; a near repeat of one already chosen adds
  // nothing. A greeting asks for nothing yet.
  const rendered: { hit: MemoryHitJson; text: string; tokens: number }[] = [];
  for (const r of ranked) {
    if (r.sharedWords === 0 || r.sharedWords < Math.min(MIN_SHARED_WORDS, r.queryWords)) continue;
    const text = renderMemory(r.hit);
    if (rendered.some((c) => nearRepeat(c.text, text))) continue;
    rendered.push({ hit: r.hit, text, tokens: estimateSystemTokens(text) });
  }
  const chosen = fitBudget(rendered, (r) => r.tokens, budget);
  const block = memoryBlock(chosen.map((c) => c.text));
  const tokens = block ? estimateSystemTokens(block) : 0;
  await withUser(userId, (tx) =>
    recordLoaded(
      tx,
      userId,
      sessionId,
      chosen.map((c) => ({ memoryId: c.hit.id, tokens: c.tokens, score: c.hit.relevance })),
      block || null,
      tokens,
    ),
  );
  return { loaded: await withUser(userId, (tx) => loadedMemories(tx, userId, sessionId)), tokens };
}

/** Drops a loaded memory from the session (or brings it back) and rebuilds the memory block. */
export async function setLoadedDropped(userId: string, sessionId: string, memoryId: string, dropped: boolean): Promise<LoadedMemoryJson[]> {
  return withUser(userId, async (tx) => {
    await getSession(tx, userId, sessionId);
    await setDropped(tx, userId, sessionId, memoryId, dropped);
    await audit(tx, userId, { action: dropped ? "memory.dropped" : "memory.restored", target: { type: "memory", id: memoryId }, metadata: { session_id: sessionId } });
    const loaded = await loadedMemories(tx, userId, sessionId);
    const block = memoryBlock(loaded.filter((l) => !l.dropped).map((l) => renderMemory(l.memory)));
    await setSessionMemory(tx, sessionId, block || null, block ? estimateSystemTokens(block) : 0);
    return loaded;
  });
}

export const memories = {
  ofSession: (userId: string, sessionId: string) =>
    withUser(userId, async (tx) => {
      await getSession(tx, userId, sessionId);
      return {
        memories: (await memoriesOfSession(tx, userId, sessionId)).map(memoryJson),
        loaded: await loadedMemories(tx, userId, sessionId),
        // Apart from the summaries, so that many small facts do not bury them in the panel.
        facts: (await memoriesOfSession(tx, userId, sessionId, "fact")).map(memoryJson),
      };
    }),
  ofProject: (userId: string, projectId: string) =>
    withUser(userId, async (tx) => {
      await getProject(tx, userId, projectId);
      return (await memoriesOfProject(tx, userId, projectId)).map(memoryJson);
    }),
  get: (userId: string, id: string) => withUser(userId, async (tx) => memoryJson(await getMemory(tx, userId, id))),
  pin: (userId: string, id: string, pinned: boolean) =>
    withUser(userId, async (tx) => {
      const row = await setPinned(tx, userId, id, pinned);
      await audit(tx, userId, { action: pinned ? "memory.pinned" : "memory.unpinned", target: { type: "memory", id } });
      return memoryJson(row);
    }),
  remove: (userId: string, id: string) =>
    withUser(userId, async (tx) => {
      await deleteMemory(tx, userId, id);
      await audit(tx, userId, { action: "memory.deleted", target: { type: "memory", id } });
    }),
};
