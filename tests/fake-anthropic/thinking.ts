/**
 * Extended thinking: which requests think, the blocks a reply starts with, and the checks the
 * API runs on thinking blocks that come back (sources in models.ts).
 *
 * A signature (and a redacted block's `data`) is `<payload>.<mac>`: the payload names the model
 * family and digests of the prefix the block was produced under (system, tools, the messages
 * before it; `cache_control` and null fields ignored, keys sorted); the mac is an HMAC with a
 * fake-wide key over the payload and the block's thinking text. Changing either fails the mac.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { invalid } from "./errors";
import { canRead, modelTraits, rejectionMessage, type ModelTraits, type ThinkingType } from "./models";
import type { InputTransformation, OutputBlock, ThinkingOptions } from "./types";

/** Constant so signatures survive a restart of a standalone fake, as the API's do. */
const SIGNING_KEY = "threadkeeper-fake-anthropic/thinking-signatures/v1";
const THINKING_TYPES: readonly ThinkingType[] = ["enabled", "disabled", "between_tools", "adaptive"];
const DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";
/** The beta that makes the API report `input_transformations`. */
export const BINDING_BETA = "thinking-binding-controls-2026-08-01";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface ThinkingSetup {
  traits: ModelTraits;
  type: ThinkingType;
  display: "summarized" | "omitted";
  dropOnMismatch: boolean;
}

/** Validates `thinking` against the model; `maxTokens` is null for count_tokens (no budget check there). */
export function resolveThinking(raw: unknown, model: string, maxTokens: number | null): ThinkingSetup {
  const traits = modelTraits(model);
  if (raw === undefined || raw === null) {
    return { traits, type: traits.defaultThinking === "adaptive" ? "adaptive" : "disabled", display: traits.defaultDisplay, dropOnMismatch: false };
  }
  if (!isRecord(raw)) throw invalid("thinking: Input should be a valid dictionary or object to extract fields from");
  const type = THINKING_TYPES.find((t) => t === raw.type);
  if (type === undefined) {
    throw invalid(`thinking: Input tag '${String(raw.type)}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'between_tools', 'adaptive'`);
  }
  if (traits.rejected.includes(type)) throw invalid(rejectionMessage(type));
  if (type === "enabled") {
    const budget = raw.budget_tokens;
    if (budget === undefined) throw invalid("thinking.enabled.budget_tokens: Field required");
    if (typeof budget !== "number" || !Number.isInteger(budget)) throw invalid("thinking.enabled.budget_tokens: Input should be a valid integer");
    if (budget < 1024) throw invalid("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
    if (maxTokens !== null && budget >= maxTokens) {
      throw invalid(`\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${DOCS}#max-tokens-and-context-window-size`);
    }
  }
  const display = raw.display ?? traits.defaultDisplay;
  if (display !== "summarized" && display !== "omitted" && display !== "updates") {
    throw invalid(`thinking.${type}.display: Input should be 'summarized', 'omitted' or 'updates'`);
  }
  const binding = raw.block_binding;
  const behavior = isRecord(binding) ? binding.prefix_mismatch_behavior : undefined;
  if (behavior !== undefined && behavior !== null && behavior !== "error" && behavior !== "drop_block") {
    throw invalid(`thinking.${type}.block_binding.prefix_mismatch_behavior: Input should be 'error' or 'drop_block'`);
  }
  // "updates" shows only progress text between tool calls; the fake writes none, so it hides like "omitted".
  return { traits, type, display: display === "summarized" ? "summarized" : "omitted", dropOnMismatch: behavior === "drop_block" };
}

// ---------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------

interface PrefixDigest {
  system: string;
  tools: string;
  messages: string;
}

interface Binding {
  family: string;
  prefix: PrefixDigest;
  nonce?: string;
}

/** JSON with sorted keys and without `cache_control` or nulls, string content as one text block. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    if (key === "cache_control" || v === null || v === undefined) continue;
    out[key] = key === "content" && typeof v === "string" ? [{ text: v, type: "text" }] : canonical(v);
  }
  return out;
}

function digest(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(canonical(value) ?? null)).digest("base64url").slice(0, 16);
}

export function prefixDigest(system: unknown, tools: readonly unknown[], before: readonly unknown[]): PrefixDigest {
  const systemBlocks = typeof system === "string" ? [{ type: "text", text: system }] : (system ?? []);
  return { system: digest(systemBlocks), tools: digest(tools), messages: digest(before) };
}

function mac(kind: string, text: string, payload: string): string {
  return createHmac("sha256", SIGNING_KEY).update(`${kind}\0${payload}\0${text}`).digest("base64url");
}

function seal(kind: "thinking" | "redacted", text: string, binding: Binding): string {
  const payload = Buffer.from(JSON.stringify(binding)).toString("base64url");
  return `${payload}.${mac(kind, text, payload)}`;
}

function unseal(kind: "thinking" | "redacted", text: string, sealed: unknown): Binding | null {
  if (typeof sealed !== "string") return null;
  const [payload, tag, extra] = sealed.split(".");
  if (!payload || !tag || extra !== undefined || mac(kind, text, payload) !== tag) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!isRecord(parsed) || typeof parsed.family !== "string" || !isRecord(parsed.prefix)) return null;
    return parsed as unknown as Binding;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Producing
// ---------------------------------------------------------------------------------------------

export interface ProducedThinking {
  blocks: OutputBlock[];
  /** Reasoning produced but not shown (display "omitted"); it still costs output tokens. */
  hidden: string;
}

interface RequestShape {
  system: unknown;
  tools: readonly unknown[];
  messages: readonly { role: string; content: unknown }[];
}

function endsWithToolResult(messages: RequestShape["messages"]): boolean {
  const last = messages[messages.length - 1];
  return last?.role === "user" && Array.isArray(last.content) && last.content.some((b: unknown) => isRecord(b) && b.type === "tool_result");
}

/** The thinking blocks a reply starts with (none when thinking is off for this request). */
export function produceThinking(setup: ThinkingSetup, request: RequestShape, subject: string, options: ThinkingOptions): ProducedThinking {
  const thinks = setup.type === "enabled" || setup.type === "adaptive" || (setup.type === "between_tools" && endsWithToolResult(request.messages));
  if (!thinks) return { blocks: [], hidden: "" };
  const text = options.thinking ?? `Considering: ${subject.slice(0, 200)}`;
  const shown = setup.display === "omitted" ? "" : text;
  const binding: Binding = { family: setup.traits.family, prefix: prefixDigest(request.system, request.tools, request.messages) };
  const blocks: OutputBlock[] = [];
  if (options.redactedThinking) {
    blocks.push({ type: "redacted_thinking", data: seal("redacted", "", { ...binding, nonce: randomBytes(12).toString("base64url") }) });
  }
  blocks.push({ type: "thinking", thinking: shown, signature: seal("thinking", shown, binding) });
  return { blocks, hidden: setup.display === "omitted" ? text : "" };
}

// ---------------------------------------------------------------------------------------------
// Checking what comes back
// ---------------------------------------------------------------------------------------------

function changedPart(a: PrefixDigest, b: PrefixDigest): string | null {
  if (a.system !== b.system) return "`system` prompt";
  if (a.tools !== b.tools) return "`tools` list";
  if (a.messages !== b.messages) return "conversation";
  return null;
}

/**
 * Verifies every thinking block the model will read, and applies the model and prefix checks.
 * Returns the messages without the blocks dropped, and what was dropped (the beta reports it).
 */
export function checkReturnedThinking<M extends { role: string; content: unknown }>(
  setup: ThinkingSetup,
  request: { system: unknown; tools: readonly unknown[]; messages: readonly M[] },
): { messages: M[]; transformations: InputTransformation[] } {
  const { traits } = setup;
  const transformations: InputTransformation[] = [];
  const lastAssistant = request.messages.map((m) => m.role).lastIndexOf("assistant");
  let droppingRest = false;
  const messages = request.messages.map((m, i): M => {
    if (m.role !== "assistant" || !Array.isArray(m.content)) return m;
    // Models that strip earlier turns' thinking neither read nor check it.
    if (!traits.keepsThinking && i !== lastAssistant) return m;
    const kept = m.content.filter((block: unknown, j: number) => {
      if (!isRecord(block) || (block.type !== "thinking" && block.type !== "redacted_thinking")) return true;
      const path = `messages.${i}.content.${j}`;
      const binding =
        block.type === "thinking"
          ? unseal("thinking", typeof block.thinking === "string" ? block.thinking : "", block.signature)
          : unseal("redacted", "", block.data);
      if (binding === null) {
        throw invalid(block.type === "thinking" ? `${path}: Invalid \`signature\` in \`thinking\` block` : `${path}: Invalid \`data\` in \`redacted_thinking\` block`);
      }
      if (!traits.prefixCheck) return true;
      if (droppingRest) {
        transformations.push({ type: "thinking_dropped", path, reason: "prefix_binding_mismatch" });
        return false;
      }
      if (!canRead(traits, binding.family)) {
        transformations.push({ type: "thinking_dropped", path, reason: "model_binding_mismatch" });
        return false;
      }
      const part = changedPart(binding.prefix, prefixDigest(request.system, request.tools, request.messages.slice(0, i)));
      if (part === null) return true;
      if (!setup.dropOnMismatch) {
        throw invalid(
          `${path}: The block is bound to a different conversation: the ${part} before it differs from the one it was created in. ` +
            `Send earlier turns back exactly as the API returned them, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`,
        );
      }
      droppingRest = true;
      transformations.push({ type: "thinking_dropped", path, reason: "prefix_binding_mismatch" });
      return false;
    });
    return kept.length === m.content.length ? m : { ...m, content: kept };
  });
  return { messages, transformations };
}

/**
 * With budgeted thinking, the assistant turn a tool loop continues must start with its thinking
 * (the API's check; adaptive thinking may skip thinking, so it is not held to it).
 */
export function requireThinkingInToolLoop(setup: ThinkingSetup, messages: readonly { role: string; content: unknown }[]): void {
  if (setup.type !== "enabled" || !endsWithToolResult(messages)) return;
  const i = messages.length - 2;
  const assistant = messages[i];
  if (assistant?.role !== "assistant" || !Array.isArray(assistant.content) || assistant.content.length === 0) return;
  const first: unknown = assistant.content[0];
  const type = isRecord(first) ? String(first.type) : "text";
  if (type === "thinking" || type === "redacted_thinking") return;
  throw invalid(
    `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS}`,
  );
}
