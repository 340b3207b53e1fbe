// A session of Threadkeeper's own export (lib/contract/exchange.ts) as an imported
// conversation: every message of every version, as it was numbered, with its times and models,
// and (in `restore`) everything else the session was: compactions, window, checkpoints, canvas.
// Ids are the old database's: the store gives each row a new one and remaps references to it.
import type { ContentBlock } from "@/lib/context/types";
import { sessionExport } from "@/lib/contract/exchange";
import { ConversationError, isObject, type ImportedConversation } from "./types";

export const isThreadkeeperExport = (v: unknown): boolean => isObject(v) && v.format === "threadkeeper-export";

export function threadkeeperSession(raw: unknown): ImportedConversation {
  const parsed = sessionExport.safeParse(raw);
  const id = isObject(raw) && isObject(raw.session) && typeof raw.session.id === "string" ? raw.session.id : "(no id)";
  if (!parsed.success) throw new ConversationError(id, `not a valid Threadkeeper export: ${parsed.error.issues[0]?.path.join(".") ?? ""} ${parsed.error.issues[0]?.message ?? ""}`.trim());
  const { messages: all, format: _f, version: _v, exported_at: _e, system_prompt, ...rest } = parsed.data;
  // A reply still streaming when exported was never finished: left out, as a fork leaves it.
  const messages = all.filter((m) => m.status !== "streaming");
  return {
    format: "threadkeeper",
    sourceId: rest.session.id,
    title: rest.session.title,
    model: rest.session.model,
    createdAt: rest.session.created_at,
    updatedAt: rest.session.last_message_at ?? rest.session.updated_at,
    ...(rest.project ? { project: { name: rest.project.name, createdAt: rest.project.created_at } } : {}),
    systemPrompt: system_prompt,
    messages: messages.map((m) => ({
      role: m.role,
      content: m.content,
      saidAt: m.created_at,
      model: m.model ?? null,
      sourceId: m.id,
      ...(m.supersedes_turn !== null ? { supersedesTurn: m.supersedes_turn } : {}),
      ...(m.restarts_turn ? { restartsTurn: true } : {}),
      ...(m.said_at !== undefined ? { searchAt: m.said_at } : {}),
      tokenCount: m.token_count,
    })),
    compactions: [],
    restore: {
      ...rest,
      seqs: messages.map((m) => m.seq),
      protectedSeqs: messages.filter((m) => m.protected).map((m) => m.seq),
      interruptedSeqs: messages.filter((m) => m.status === "interrupted").map((m) => m.seq),
    },
  };
}

/** The file ids blocks name (a stored file's source, a reference, Threadkeeper's note on a block). */
export function fileIdsOf(content: readonly ContentBlock[]): string[] {
  const ids = new Set<string>();
  walk(content, (key, value) => {
    if (key === "file_id" && typeof value === "string") ids.add(value);
    return value;
  });
  return [...ids];
}

/**
 * The content with each file id replaced by the importing account's (`map`); a block naming a
 * file the export did not carry becomes a line saying so, since its bytes are nowhere here.
 */
export function remapFiles(content: readonly ContentBlock[], map: ReadonlyMap<string, string>): ContentBlock[] {
  return content.map((block) => {
    const missing = fileIdsOf([block]).find((id) => !map.has(id));
    if (missing !== undefined) {
      const name = (block as { threadkeeper?: { name?: unknown }; title?: unknown }).threadkeeper?.name ?? (block as { title?: unknown }).title;
      return { type: "text", text: `[A file that was not imported${typeof name === "string" ? `: ${name}` : ""}]` };
    }
    return walk(block, (key, value) => (key === "file_id" && typeof value === "string" ? (map.get(value) ?? value) : value)) as ContentBlock;
  });
}

/** A copy of `v` with every property passed through `fn` (iterative: content may nest deeply). */
function walk(v: unknown, fn: (key: string, value: unknown) => unknown): unknown {
  const copy = (x: unknown): unknown => (Array.isArray(x) ? [...x] : isObject(x) ? { ...x } : x);
  const root = copy(v);
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        node[i] = copy(node[i]);
        stack.push(node[i]);
      }
    } else if (isObject(node)) {
      const o = node as Record<string, unknown>;
      for (const key of Object.keys(o)) {
        o[key] = copy(fn(key, o[key]));
        stack.push(o[key]);
      }
    }
  }
  return root;
}
