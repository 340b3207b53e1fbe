// A conversation tree (ChatGPT's mapping, Claude.ai's parent links) as Threadkeeper's log: the
// branch the source shows is stored last, so it is the version shown and the one Claude is sent;
// every other branch is stored before it, as an earlier version. At a fork the branches follow
// one another, each naming, as an edit does, the turn where the one before it began. A branch
// that begins with a reply (a regenerated answer) repeats the message it answers, as
// Threadkeeper's own regeneration of an earlier turn does.
import { startsTurn } from "@/lib/context/turns";
import type { ContentBlock, Role } from "@/lib/context/types";
import type { ImportedMessage } from "./types";

export interface TreeNode {
  id: string;
  parent: string | null;
  /** Null: a node with nothing to show (the root, a hidden system message); its children still count. */
  message: { role: Role; content: ContentBlock[]; saidAt: string | null; model: string | null } | null;
  /** Sort key among siblings (the source's time, else its order). */
  order: number;
}

/**
 * The nodes in log order. `current`: the leaf of the branch the source shows (else the newest
 * leaf). Iterative, so a conversation 100,000 messages deep does not overflow the stack.
 * `reached`: filled with the turns stored before each node with nothing to show (a marker).
 */
export function linearize(nodes: readonly TreeNode[], current: string | null, reached?: Map<string, number>): ImportedMessage[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const children = new Map<string | null, TreeNode[]>();
  for (const n of nodes) {
    // A parent the file does not hold makes its child a root: kept, not dropped.
    const parent = n.parent !== null && byId.has(n.parent) && n.parent !== n.id ? n.parent : null;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent)!.push(n);
  }
  const leaf = current !== null && byId.has(current) ? current : newestLeaf(nodes, children);
  const onPath = new Set<string>();
  for (let id: string | null = leaf, guard = 0; id !== null && guard <= nodes.length; guard++) {
    if (onPath.has(id)) break; // a cycle in a broken file
    onPath.add(id);
    const p: string | null = byId.get(id)?.parent ?? null;
    id = p !== null && byId.has(p) ? p : null;
  }
  const ordered = (kids: TreeNode[]) => [...kids].sort((a, b) => Number(onPath.has(a.id)) - Number(onPath.has(b.id)) || a.order - b.order);

  const out: ImportedMessage[] = [];
  let turns = 0;
  const seen = new Set<string>();
  // Siblings share a group, where each records the turn its branch began at: the next names it.
  type Frame = { node: TreeNode; starts: number[]; index: number; inherited: number | null; asked: ImportedMessage | null };
  const stack: Frame[] = [];
  const pushChildren = (kids: readonly TreeNode[], asked: ImportedMessage | null, inherited: number | null) => {
    const starts: number[] = [];
    const list = ordered([...kids]);
    for (let i = list.length - 1; i >= 0; i--) stack.push({ node: list[i], starts, index: i, inherited: i === 0 ? inherited : null, asked });
  };
  const replacesOf = (f: Frame) => f.inherited ?? (f.index > 0 ? (f.starts[f.index - 1] ?? Math.max(turns, 1)) : null);
  pushChildren(children.get(null) ?? [], null, null);
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f.node.id)) continue;
    seen.add(f.node.id);
    const m = f.node.message;
    const replaces = replacesOf(f);
    if (!m) {
      // Nothing to show: its branch begins with its first child, which names what this one replaces.
      f.starts[f.index] = turns + 1;
      reached?.set(f.node.id, turns);
      pushChildren(children.get(f.node.id) ?? [], f.asked, replaces);
      continue;
    }
    const starts = startsTurn(m.role, m.content);
    if (replaces !== null && !starts && f.asked) {
      // A regenerated reply as a new version: its question again, naming the branch it replaces.
      turns += 1;
      out.push({ ...f.asked, supersedesTurn: replaces });
    }
    if (starts) turns += 1;
    f.starts[f.index] = Math.max(turns, 1);
    const msg: ImportedMessage = { ...m, sourceId: f.node.id, ...(starts && replaces !== null ? { supersedesTurn: replaces } : {}) };
    const prev = out[out.length - 1];
    if (prev && prev.role === msg.role && replaces === null && !starts) {
      // The same speaker twice in a row (a tool's output, a hidden node between): one message.
      // Never two messages of yours: each is a turn of its own, with its own time (a reply that
      // failed leaves two in a row), as the turns counted above and the log number them.
      out[out.length - 1] = { ...prev, content: [...prev.content, ...msg.content] };
    } else {
      out.push(msg);
    }
    pushChildren(children.get(f.node.id) ?? [], starts ? msg : f.asked, null);
  }
  return out;
}

function newestLeaf(nodes: readonly TreeNode[], children: Map<string | null, TreeNode[]>): string | null {
  let best: TreeNode | null = null;
  for (const n of nodes) if (!children.has(n.id) && (!best || n.order >= best.order)) best = n;
  return best?.id ?? null;
}
