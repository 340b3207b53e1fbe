// Writing a summary: Claude (the summarizer model) when it can, the extractive summary when
// it cannot, and the whole-session summary that archiving keeps.
import "server-only";
import { extractiveSummary, extractMustKeep, extractMustKeepSliced, isPreset, PRESETS, toTranscriptTurns, verifySummary, type TranscriptTurn } from "@/lib/context/compaction";
import { redactSecrets } from "@/lib/redact";
import { dropReplaced } from "@/lib/context/retries";
import { groupTurns } from "@/lib/context/turns";
import { withUser, type Tx } from "@/lib/db";
import { recordLlmCall } from "@/lib/db/llm-calls";
import { tailMessages } from "@/lib/db/messages";
import { type SessionRow } from "@/lib/db/sessions";
import { getTemplate } from "@/lib/db/templates";
import { env } from "@/lib/env";
import { anthropicClient, type LlmUsage } from "@/lib/llm/client";
import { requireModel } from "@/lib/models";
import { summarize, SummarizeError } from "@/lib/llm/summarizer";
import { log } from "@/lib/log";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";
import { sessionContext, type SessionContext } from "./session-context";

const SUMMARY_TIMEOUT_MS = 20_000;
/** Largest transcript sent to the summarizer in one call; longer ones are summarized in parts. */
const DEFAULT_CHUNK_TOKENS = 60_000;
/** An archive's memory is loaded into later sessions beside others: it stays short. */
const MEMORY_SUMMARY_MAX_TOKENS = 1_500;

/**
 * The session's whole story as one verified summary, its active summary extended by every
 * turn since, written like a compaction's but changing nothing (the summarizer's calls are
 * recorded as billed, like a compaction's): what archiving keeps. Null when the session has
 * said nothing yet.
 */
export async function summarizeSession(
  userId: string,
  sessionId: string,
): Promise<{ session: SessionRow; summary: string | null; transcript: TranscriptTurn[] }> {
  const { ctx, template, messages } = await withUser(userId, async (tx) => {
    const ctx = await sessionContext(tx, userId, sessionId);
    return {
      ctx,
      template: await templateBody(tx, userId, ctx.settings.compaction_template),
      messages: await tailMessages(tx, sessionId, ctx.session.summary_through_turn + 1),
    };
  });
  const session = ctx.session;
  const turns = groupTurns(dropReplaced(messages));
  if (turns.length === 0) return { session, summary: session.summary_text, transcript: [] };
  const transcript = toTranscriptTurns(turns);
  const items = await extractMustKeepSliced(transcript, redactSecrets(session.summary_text));
  const model = requireModel(ctx.settings.summary_model).id;
  // A memory replaces nothing in the window: the extractive digest may fill its whole budget.
  const written = await writeSummary(ctx, { model, template, transcript, items, instructions: null, maxTokens: MEMORY_SUMMARY_MAX_TOKENS, digestShare: 1 });
  const usage = written.usage;
  if (usage) {
    await withUser(userId, (tx) => recordLlmCall(tx, userId, { sessionId, turnSeq: session.last_turn_seq, kind: "summary", model, usage }));
  }
  // Unlike a compaction's, this summary need not be smaller than what it stands for.
  const verified = verifySummary(written.text, items, { detailsBudget: MEMORY_SUMMARY_MAX_TOKENS, countTokens: estimateTextTokens });
  return { session, summary: verified.text, transcript };
}

export interface Written {
  text: string;
  method: "llm" | "extractive";
  /** What the summarizer's calls cost, also when it failed part-way and the extractive summary stands in; null when none answered. */
  usage: LlmUsage | null;
  fallbackReason: string | null;
}

/** Claude writes the summary; if it cannot (offline, error, timeout), the extractive summary stands in. */
export async function writeSummary(
  ctx: SessionContext,
  input: {
    model: string;
    template: string;
    transcript: ReturnType<typeof toTranscriptTurns>;
    items: ReturnType<typeof extractMustKeep>;
    instructions: string | null;
    maxTokens: number;
    /** The extractive digest's cap, as a share of the turns (see extractiveSummary). */
    digestShare?: number;
  },
): Promise<Written> {
  const client = anthropicClient();
  let fallbackReason = "offline: no Anthropic key is set";
  let billed: LlmUsage | null = null;
  if (client) {
    try {
      const r = await summarize(client, {
        model: input.model,
        template: input.template,
        previousSummary: ctx.session.summary_text,
        turns: input.transcript,
        instructions: input.instructions,
        maxTokens: input.maxTokens,
        chunkTokens: chunkTokens(),
        timeoutMs: summaryTimeoutMs(),
        countTokens: estimateTextTokens,
      });
      return { text: r.text, method: "llm", usage: r.usage, fallbackReason: null };
    } catch (err) {
      if (err instanceof SummarizeError && err.answered > 0) billed = err.usage;
      fallbackReason = redactSecrets(`summarizer failed: ${err instanceof Error ? err.message : String(err)}`);
      log.warn(`[threadkeeper] ${fallbackReason}; using the extractive summary`);
    }
  }
  const text = extractiveSummary({
    // The turns come redacted (toTranscriptTurns); a summary from before redaction may not.
    previousSummary: redactSecrets(ctx.session.summary_text),
    turns: input.transcript,
    items: input.items,
    maxTokens: input.maxTokens,
    countTokens: estimateTextTokens,
    digestShare: input.digestShare,
  });
  return { text, method: "extractive", usage: billed, fallbackReason };
}

function summaryTimeoutMs(): number {
  return env().THREADKEEPER_SUMMARY_TIMEOUT_MS ?? SUMMARY_TIMEOUT_MS;
}

function chunkTokens(): number {
  return env().THREADKEEPER_SUMMARY_CHUNK_TOKENS ?? DEFAULT_CHUNK_TOKENS;
}

export async function templateBody(tx: Tx, userId: string, id: string): Promise<string> {
  if (isPreset(id)) return PRESETS[id].body;
  const saved = await getTemplate(tx, userId, id);
  // A deleted template falls back to the default rather than blocking compaction.
  return saved?.body ?? PRESETS.general.body;
}
