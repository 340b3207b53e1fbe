// One conversation of a Claude.ai export (conversations.json: a bare array; the older single
// ZIP or the 2026 manifest of ZIPs hold the same file). `content[]` is read over `text` (newer
// exports leave `text` empty); thinking stays thinking; tool calls and results are kept as
// readable text; attachments' `extracted_content` as text; files, whose bytes are not exported,
// as a line naming them; unknown block types are skipped. Branches (parent_message_uuid) are
// kept as versions (tree.ts), the newest branch shown. See outside-formats.md §1(a).
import type { ContentBlock } from "@/lib/context/types";
import { linearize, type TreeNode } from "./tree";
import { arr, ConversationError, isObject, isoTime, str, type ImportedConversation, type JsonObject } from "./types";

export const isClaudeConversation = (v: unknown): v is JsonObject => isObject(v) && Array.isArray(v.chat_messages);

export function claudeConversation(raw: JsonObject): ImportedConversation {
  const sourceId = str(raw.uuid);
  if (!sourceId) throw new ConversationError("(no id)", "the conversation has no uuid");
  const list = arr(raw.chat_messages);
  let previous: string | null = null;
  const nodes: TreeNode[] = list.flatMap((m, i) => {
    if (!isObject(m)) return [];
    const id = str(m.uuid) ?? `${sourceId}:${i}`;
    // Older exports have no parent links: each message follows the one before it.
    const parent = "parent_message_uuid" in m ? str(m.parent_message_uuid) : previous;
    previous = id;
    const content = blocksOf(m);
    const sender = str(m.sender);
    const saidAt = isoTime(m.created_at);
    const at = saidAt ? Date.parse(saidAt) / 1000 : 0;
    const order = typeof m.index === "number" ? at + m.index / 1e6 : at + i / 1e6;
    const message = content.length === 0 || (sender !== "human" && sender !== "assistant") ? null : { role: sender === "human" ? ("user" as const) : ("assistant" as const), content, saidAt, model: null };
    return [{ id, parent, message, order }];
  });
  const messages = linearize(nodes, null);
  if (!messages.some((m) => m.role === "user")) throw new ConversationError(sourceId, "the conversation has no message of yours");
  return {
    format: "claude",
    sourceId,
    title: str(raw.name) || null,
    model: str(raw.model),
    createdAt: isoTime(raw.created_at),
    updatedAt: isoTime(raw.updated_at),
    messages,
    compactions: [],
  };
}

function blocksOf(m: JsonObject): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  const content = arr(m.content);
  for (const b of content) {
    if (!isObject(b)) continue;
    const kind = str(b.type);
    if (kind === "text" && str(b.text)) blocks.push({ type: "text", text: str(b.text)! });
    else if (kind === "thinking" && str(b.thinking)) blocks.push({ type: "thinking", thinking: str(b.thinking)!, signature: "" });
    else if (kind === "voice_note" && str(b.text)) blocks.push({ type: "text", text: str(b.text)! });
    else if (kind === "tool_use") blocks.push({ type: "text", text: `Used ${str(b.name) ?? "a tool"}${b.input === undefined ? "" : `: ${JSON.stringify(b.input)}`}` });
    else if (kind === "tool_result") {
      const out = arr(b.content).map((c) => (isObject(c) ? (str(c.text) ?? str(c.title) ?? "") : typeof c === "string" ? c : "")).filter(Boolean).join("\n");
      if (out !== "") blocks.push({ type: "text", text: `${str(b.name) ?? "Tool"} result:\n${out}` });
    }
    // Anything else (injected_prompt_block, …): skipped, never fatal.
  }
  if (content.length === 0 && str(m.text)) blocks.push({ type: "text", text: str(m.text)! });
  for (const a of arr(m.attachments)) {
    if (!isObject(a)) continue;
    const extracted = str(a.extracted_content);
    if (extracted) blocks.push({ type: "text", text: `Attached ${str(a.file_name) ?? "a file"}:\n\n${extracted}` });
  }
  const files = [...arr(m.files), ...arr(m.files_v2)].flatMap((f) => (isObject(f) && str(f.file_name) ? [str(f.file_name)!] : []));
  const named = [...new Set(files)];
  if (named.length > 0) blocks.push({ type: "text", text: `[Files attached in Claude.ai, not included in its export: ${named.join(", ")}]` });
  return blocks;
}
