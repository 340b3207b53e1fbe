// One Claude Code session transcript (`~/.claude/projects/<project>/<sessionId>.jsonl`, its
// lines parsed): one session per file. An API message split over several lines (one per
// block, sharing `message.id`) becomes one message again; sidechains (subagents, whose answer
// the Task tool's result already carries) are folded away; meta lines are skipped; a
// `compact_boundary` with its summary becomes a compaction marker; the title is the custom one,
// else the generated one. Blocks are kept whole: tool calls and results, thinking with its
// signature. See outside-formats.md §1(c).
import { contentBlock } from "@/lib/contract/messages";
import type { ContentBlock } from "@/lib/context/types";
import { linearize, type TreeNode } from "./tree";
import { arr, ConversationError, isObject, isoTime, str, type ImportedCompaction, type ImportedConversation, type JsonObject } from "./types";

/** Whether parsed lines look like a Claude Code transcript. */
export const isClaudeCodeLine = (v: unknown): v is JsonObject => isObject(v) && typeof v.type === "string" && ("sessionId" in v || "parentUuid" in v || "leafUuid" in v);

export function claudeCodeSession(lines: readonly unknown[], fileName: string): ImportedConversation {
  const objects = lines.filter(isObject);
  const sessionId = objects.map((l) => str(l.sessionId)).find(Boolean) ?? fileName.replace(/\.jsonl$/, "");
  let customTitle: string | null = null;
  let aiTitle: string | null = null;
  let legacyTitle: string | null = null;
  const nodes: TreeNode[] = [];
  const summaries = new Map<string, { text: string; saidAt: string | null; boundary: string | null }>();
  const boundaries = new Map<string, Pick<ImportedCompaction, "trigger" | "preTokens">>();
  let last: string | null = null;
  let model: string | null = null;
  objects.forEach((l, order) => {
    const type = str(l.type);
    if (type === "custom-title") customTitle = str(l.customTitle) ?? customTitle;
    else if (type === "ai-title") aiTitle = str(l.aiTitle) ?? aiTitle;
    else if (type === "summary") legacyTitle ??= str(l.summary);
    const uuid = str(l.uuid);
    if (!uuid || l.isSidechain === true) return;
    // A boundary starts a new chain (parentUuid null); its logical parent keeps the session one conversation.
    const parent = str(l.parentUuid) ?? str(l.logicalParentUuid);
    const msg = isObject(l.message) ? l.message : null;
    let message: TreeNode["message"] = null;
    if (type === "system" && l.subtype === "compact_boundary") {
      const meta = isObject(l.compactMetadata) ? l.compactMetadata : isObject(l.compact_metadata) ? l.compact_metadata : {};
      const trigger = str(meta.trigger);
      const pre = meta.preTokens ?? meta.pre_tokens;
      boundaries.set(uuid, {
        ...(trigger === "manual" || trigger === "auto" ? { trigger } : {}),
        ...(typeof pre === "number" && Number.isInteger(pre) && pre >= 0 ? { preTokens: pre } : {}),
      });
    }
    if (l.isCompactSummary === true && msg) {
      summaries.set(uuid, { text: textOf(msg.content), saidAt: isoTime(l.timestamp), boundary: parent });
    } else if ((type === "user" || type === "assistant") && msg && l.isMeta !== true) {
      const content = blocksOf(msg.content);
      if (content.length > 0) {
        const m = type === "assistant" ? str(msg.model) : null;
        if (m && m !== "<synthetic>") model = m;
        message = { role: type, content, saidAt: isoTime(l.timestamp), model: m && m !== "<synthetic>" ? m : null };
        last = uuid;
      }
    }
    nodes.push({ id: uuid, parent, message, order });
  });
  const reached = new Map<string, number>();
  const messages = linearize(nodes, last, reached);
  if (!messages.some((m) => m.role === "user")) throw new ConversationError(sessionId, "the transcript has no message of yours");
  const compactions: ImportedCompaction[] = [...summaries].flatMap(([id, s]) =>
    reached.has(id) && s.text !== "" ? [{ throughTurn: reached.get(id)!, summary: s.text, saidAt: s.saidAt, ...(s.boundary ? boundaries.get(s.boundary) : {}) }] : [],
  );
  const times = messages.map((m) => m.saidAt).filter((t): t is string => t !== null);
  // The folder Claude Code ran in is the project, as its own ~/.claude/projects/ groups sessions.
  const folder = objects.map((l) => str(l.cwd)).find(Boolean)?.split(/[\\/]/).filter(Boolean).at(-1);
  return {
    format: "claude-code",
    sourceId: sessionId,
    title: customTitle ?? aiTitle ?? legacyTitle,
    model,
    createdAt: times[0] ?? null,
    updatedAt: times.at(-1) ?? null,
    ...(folder ? { project: { name: folder, createdAt: times[0] ?? null } } : {}),
    messages,
    compactions,
  };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content)
    .flatMap((b) => (isObject(b) && str(b.text) ? [str(b.text)!] : []))
    .join("\n\n");
}

/** The message's blocks as the API gave them; a string is one text block. */
function blocksOf(content: unknown): ContentBlock[] {
  if (typeof content === "string") return content.trim() === "" ? [] : [{ type: "text", text: content }];
  return arr(content).flatMap((b): ContentBlock[] => {
    if (!isObject(b) || typeof b.type !== "string") return [];
    if (b.type === "text") return str(b.text) ? [{ type: "text", text: str(b.text)! }] : [];
    if (b.type === "thinking") return str(b.thinking) ? [{ type: "thinking", thinking: str(b.thinking)!, signature: str(b.signature) ?? "" }] : [];
    if (b.type === "tool_use" && str(b.id) && str(b.name)) return [{ type: "tool_use", id: str(b.id)!, name: str(b.name)!, input: isObject(b.input) ? b.input : {} }];
    if (b.type === "tool_result" && str(b.tool_use_id)) {
      const c = b.content;
      const out = typeof c === "string" ? c : textOf(c);
      return [{ type: "tool_result", tool_use_id: str(b.tool_use_id)!, content: out, ...(b.is_error === true ? { is_error: true } : {}) }];
    }
    if (b.type === "image") {
      // Checked against the content model: an image the API would not take is left out.
      const image = contentBlock.safeParse(b);
      return image.success ? [image.data] : [];
    }
    return [];
  });
}
