import "server-only";
import type Anthropic from "@anthropic-ai/sdk";
import { chunkTurnsSliced } from "@/lib/context/compaction/chunk";
import { buildMergeRequest, buildSummaryRequest } from "@/lib/context/compaction/templates";
import { renderTranscript } from "@/lib/context/compaction/transcript";
import type { CountTokens, TranscriptTurn } from "@/lib/context/compaction/types";
import { countBilledTokens, timeClaudeCall } from "@/lib/metrics";
import { redactSecrets } from "@/lib/redact";
import { inSpan } from "@/lib/tracing";
import { genAiAttributes, type LlmUsage } from "./client";

export interface SummarizeInput {
  model: string;
  template: string;
  previousSummary: string | null;
  turns: readonly TranscriptTurn[];
  instructions: string | null;
  maxTokens: number;
  /** Largest transcript (raw tokens) sent in one call; larger ones are summarized in parts and merged. */
  chunkTokens: number;
  timeoutMs: number;
  countTokens: CountTokens;
}

export interface SummarizeResult {
  text: string;
  usage: LlmUsage;
}

/** The summarizer failed; `usage` is what its calls that did answer cost (they are billed all the same). */
export class SummarizeError extends Error {
  constructor(
    cause: unknown,
    readonly usage: LlmUsage,
    readonly answered: number,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "SummarizeError";
  }
}

/**
 * Condenses turns with Claude: one call when the transcript fits, otherwise map-reduce
 * (each part summarized, then the partial summaries merged). The whole operation shares
 * one deadline, so a slow summarizer falls back instead of stalling the session.
 *
 * Secrets never cross this boundary in either direction: whatever the caller passed (a
 * previous summary written before redaction existed, instructions typed after /compact) is
 * redacted on the way out, and the summary on the way back.
 *
 * A failure part-way (a part answered, the merge timed out) throws a SummarizeError that
 * carries the cost of what did answer.
 */
export async function summarize(client: Anthropic, input: SummarizeInput): Promise<SummarizeResult> {
  const usage: LlmUsage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const tally = { answered: 0 };
  try {
    return { text: await summarizeCounting(client, input, usage, tally), usage };
  } catch (err) {
    throw new SummarizeError(err, usage, tally.answered);
  }
}

async function summarizeCounting(
  client: Anthropic,
  input: SummarizeInput,
  usage: LlmUsage,
  tally: { answered: number },
): Promise<string> {
  const deadline = AbortSignal.timeout(input.timeoutMs);
  const call = async (req: { system: string; user: string }): Promise<string> => {
    const res = await inSpan("claude", genAiAttributes("summary", input.model), () =>
      timeClaudeCall("summary", () =>
        client.messages.create(
          {
            model: input.model,
            max_tokens: input.maxTokens,
            system: redactSecrets(req.system),
            messages: [{ role: "user", content: redactSecrets(req.user) }],
          },
          { signal: deadline, maxRetries: 1 },
        ),
      ),
    );
    countBilledTokens(res.usage);
    tally.answered++;
    usage.input_tokens += res.usage.input_tokens;
    usage.output_tokens += res.usage.output_tokens;
    usage.cache_creation_input_tokens += res.usage.cache_creation_input_tokens ?? 0;
    usage.cache_read_input_tokens += res.usage.cache_read_input_tokens ?? 0;
    const text = redactSecrets(res.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n").trim());
    if (!text) throw new Error("the summarizer returned no text");
    return text;
  };

  const chunks = await chunkTurnsSliced(input.turns, input.chunkTokens, input.countTokens);
  const base = { template: input.template, instructions: input.instructions };
  if (chunks.length === 1) {
    return call(buildSummaryRequest({ ...base, previousSummary: input.previousSummary, transcript: renderTranscript(chunks[0]) }));
  }
  const partials: string[] = [];
  for (const [i, chunk] of chunks.entries()) {
    partials.push(
      await call(
        buildSummaryRequest({
          ...base,
          previousSummary: i === 0 ? input.previousSummary : null,
          transcript: renderTranscript(chunk),
          part: { index: i + 1, of: chunks.length },
        }),
      ),
    );
  }
  return call(buildMergeRequest({ ...base, partials }));
}
