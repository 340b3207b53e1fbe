/**
 * What the fake knows about each model's thinking. Sources (platform.claude.com, read 2026):
 * - build-with-claude/thinking-troubleshooting: `enabled` (budget_tokens) is rejected from Claude
 *   Opus 4.7 on (4.7, 4.8, Sonnet 5, Fable 5, Mythos 5); 4.5 and earlier only have `enabled`.
 * - models/opus-5-5/whats-new-opus-5-5: on Opus 5.5 (and Fable 5.1) thinking is always on; both
 *   `disabled` and `enabled` answer 400 with the message quoted in `rejectionMessage`; the default
 *   display is "omitted".
 * - about-claude/models/whats-new-opus-5: Opus 5 thinks by default and still accepts `disabled`.
 * - build-with-claude/extended-thinking: from Claude Opus 4.5 on, thinking blocks of earlier
 *   assistant turns stay in context (and are billed); earlier models strip them and only keep
 *   the last assistant turn's thinking inside a tool loop.
 * - build-with-claude/preserved-thinking/prefix-checks: the models listed in PREFIX_CHECK bind a
 *   block to its conversation prefix; Fable 5.1 reads Opus 5 and Opus 5.5 blocks, not the reverse;
 *   Haiku 5.5 blocks replay on any model (Bedrock's block-binding page).
 * Sonnet 5.5 and Haiku 5.5 (the product's default models) are kept thinking-off by default here:
 * no page we found states their default, and turning it on would change every existing reply.
 */

export type ThinkingType = "enabled" | "disabled" | "adaptive" | "between_tools";

export interface ModelTraits {
  /** The id without a date suffix: what a signature binds a block to. */
  family: string;
  /** Thinking when the request has no `thinking` field. */
  defaultThinking: "adaptive" | "off";
  rejected: readonly ThinkingType[];
  /** Earlier turns' thinking blocks stay in context and count as input. */
  keepsThinking: boolean;
  /** Blocks are bound to their conversation prefix (preserved thinking). */
  prefixCheck: boolean;
  defaultDisplay: "summarized" | "omitted";
  /** Other families whose blocks this model can read (its own always). */
  reads: readonly string[];
}

const PREFIX_CHECK = ["claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1", "claude-mythos-5-1", "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5"];
const ALWAYS_ON = ["claude-opus-5-5", "claude-fable-5-1"];
const DEFAULT_ON = ["claude-opus-5"];
const NO_BUDGET = ["claude-opus-4-7", "claude-opus-4-8", "claude-sonnet-5", "claude-fable-5", "claude-mythos-5", "claude-opus-5", "claude-sonnet-5-5", "claude-haiku-5-5", "claude-fable-5-2", "claude-mythos-5-2", "claude-mythos-5-1"];
const BUDGET_ONLY = ["claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1", "claude-opus-4", "claude-sonnet-4", "claude-3-7-sonnet"];
const OMITTED_BY_DEFAULT = ["claude-opus-4-7", "claude-opus-4-8", "claude-mythos-preview", ...ALWAYS_ON];
const STRIPS_THINKING = ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1", "claude-opus-4", "claude-sonnet-4", "claude-3-7-sonnet"];
const READS: Record<string, readonly string[]> = { "claude-fable-5-1": ["claude-opus-5", "claude-opus-5-5"] };
/** Families whose blocks any model may read. */
const PORTABLE = new Set(["claude-haiku-5-5"]);

export function modelFamily(model: string): string {
  return model.replace(/-\d{8}$/, "");
}

export function modelTraits(model: string): ModelTraits {
  const family = modelFamily(model);
  const rejected: ThinkingType[] = [];
  if (ALWAYS_ON.includes(family)) rejected.push("disabled", "enabled");
  else if (NO_BUDGET.includes(family)) rejected.push("enabled");
  if (BUDGET_ONLY.includes(family)) rejected.push("adaptive");
  return {
    family,
    defaultThinking: ALWAYS_ON.includes(family) || DEFAULT_ON.includes(family) ? "adaptive" : "off",
    rejected,
    // Unknown ids (test models) behave as the current generation: thinking kept.
    keepsThinking: !STRIPS_THINKING.includes(family),
    prefixCheck: PREFIX_CHECK.includes(family),
    defaultDisplay: OMITTED_BY_DEFAULT.includes(family) ? "omitted" : "summarized",
    reads: READS[family] ?? [],
  };
}

export function canRead(reader: ModelTraits, producerFamily: string): boolean {
  return producerFamily === reader.family || PORTABLE.has(producerFamily) || reader.reads.includes(producerFamily);
}

/** The API's wording when a model refuses a thinking type. */
export function rejectionMessage(type: ThinkingType): string {
  if (type === "adaptive") return "adaptive thinking is not supported on this model";
  return `"thinking.type.${type}" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`;
}
