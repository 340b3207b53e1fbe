// The tree of a conversation with branches as Threadkeeper's log: the branch shown stored last,
// every other kept as an earlier version that the shown one replaces, as an edit does.
import { describe, expect, it } from "vitest";
import { dropReplaced } from "@/lib/context/retries";
import { linearize, type TreeNode } from "@/lib/import/tree";
import type { ImportedMessage } from "@/lib/import/types";

const node = (id: string, parent: string | null, role: "user" | "assistant" | null, order: number): TreeNode => ({
  id,
  parent,
  order,
  message: role ? { role, content: [{ type: "text", text: id }], saidAt: null, model: null } : null,
});
const texts = (ms: readonly Pick<ImportedMessage, "content">[]) => ms.map((m) => m.content.map((b) => (b.type === "text" ? b.text : "")).join("+"));

/** What Claude would be sent: the log numbered as appendMessages numbers it, replaced turns dropped. */
function current(ms: readonly ImportedMessage[]): string[] {
  let turn = 0;
  const numbered = ms.map((m, seq) => {
    if (m.role === "user") turn++;
    return { ...m, seq, turnSeq: Math.max(turn, 1), supersedesTurn: m.supersedesTurn ?? null, restartsTurn: false };
  });
  return texts(dropReplaced(numbered));
}

describe("linearize", () => {
  it("a straight conversation stays as it is, hidden nodes skipped, the same speaker twice joined", () => {
    const ms = linearize([node("root", null, null, 0), node("u1", "root", "user", 1), node("a1", "u1", "assistant", 2), node("t1", "a1", "assistant", 3), node("u2", "t1", "user", 4)], "u2");
    expect(texts(ms)).toEqual(["u1", "a1+t1", "u2"]);
    expect(ms.every((m) => m.supersedesTurn === undefined)).toBe(true);
  });

  it("two messages of yours in a row stay two turns, each with its own time, and a later edit still names the right turn", () => {
    // u1 → u2 (the reply to u1 failed) → a2 → (u3 → a3) | (u3' → a3')   current: a3'
    const timed = (id: string, parent: string | null, role: "user" | "assistant", order: number): TreeNode => ({
      ...node(id, parent, role, order),
      message: { role, content: [{ type: "text", text: id }], saidAt: `2023-05-0${order}T10:00:00.000Z`, model: null },
    });
    const nodes = [timed("u1", null, "user", 1), timed("u2", "u1", "user", 2), timed("a2", "u2", "assistant", 3), timed("u3", "a2", "user", 4), timed("a3", "u3", "assistant", 5), timed("u3'", "a2", "user", 6), timed("a3'", "u3'", "assistant", 7)];
    const ms = linearize(nodes, "a3'");
    expect(texts(ms)).toEqual(["u1", "u2", "a2", "u3", "a3", "u3'", "a3'"]);
    expect(ms.map((m) => m.saidAt?.slice(0, 10))).toEqual(["2023-05-01", "2023-05-02", "2023-05-03", "2023-05-04", "2023-05-05", "2023-05-06", "2023-05-07"]);
    // u3 is the third turn: the edit replaces it, not the second.
    expect(ms[5].supersedesTurn).toBe(3);
    expect(current(ms)).toEqual(["u1", "u2", "a2", "u3'", "a3'"]);
  });

  it("an edited message: the other branch first, the current one last replacing it", () => {
    // u1 → a1 → (u2 → a2 → u3 → a3) | (u2' → a2')   current: a2'
    const nodes = [
      node("u1", null, "user", 1), node("a1", "u1", "assistant", 2),
      node("u2", "a1", "user", 3), node("a2", "u2", "assistant", 4), node("u3", "a2", "user", 5), node("a3", "u3", "assistant", 6),
      node("u2'", "a1", "user", 7), node("a2'", "u2'", "assistant", 8),
    ];
    const ms = linearize(nodes, "a2'");
    expect(texts(ms)).toEqual(["u1", "a1", "u2", "a2", "u3", "a3", "u2'", "a2'"]);
    expect(ms[6].supersedesTurn).toBe(2);
    expect(current(ms)).toEqual(["u1", "a1", "u2'", "a2'"]);
    // The current branch may be the older one: it is still stored last.
    const older = linearize(nodes, "a3");
    expect(texts(older)).toEqual(["u1", "a1", "u2'", "a2'", "u2", "a2", "u3", "a3"]);
    expect(current(older)).toEqual(["u1", "a1", "u2", "a2", "u3", "a3"]);
  });

  it("a regenerated reply: its question repeated as a new version", () => {
    const nodes = [node("u1", null, "user", 1), node("a1", "u1", "assistant", 2), node("u2", "a1", "user", 3), node("a2", "u2", "assistant", 4), node("a2b", "u2", "assistant", 5)];
    const ms = linearize(nodes, "a2b");
    expect(texts(ms)).toEqual(["u1", "a1", "u2", "a2", "u2", "a2b"]);
    expect(ms[4].supersedesTurn).toBe(2);
    expect(current(ms)).toEqual(["u1", "a1", "u2", "a2b"]);
  });

  it("three versions chain, each replacing the one before; nested branches inside an old one stay old", () => {
    const nodes = [
      node("u1", null, "user", 1), node("a1", "u1", "assistant", 2),
      node("x", "a1", "user", 3), node("xa", "x", "assistant", 4), node("xa2", "x", "assistant", 5),
      node("y", "a1", "user", 6), node("ya", "y", "assistant", 7),
      node("z", "a1", "user", 8), node("za", "z", "assistant", 9),
    ];
    const ms = linearize(nodes, "za");
    expect(current(ms)).toEqual(["u1", "a1", "z", "za"]);
    expect(ms.filter((m) => m.supersedesTurn !== undefined).length).toBe(3);
  });

  it("a missing parent, a cycle and a missing current node do not lose messages or loop", () => {
    const ms = linearize([node("u1", "gone", "user", 1), node("a1", "u1", "assistant", 2), node("c1", "c2", "user", 3), node("c2", "c1", "assistant", 4)], "nope");
    expect(ms.length).toBeGreaterThanOrEqual(2);
    expect(texts(ms)).toContain("u1");
  });

  it("a conversation 100,000 messages deep", () => {
    const nodes: TreeNode[] = [];
    for (let i = 0; i < 100_000; i++) nodes.push(node(`n${i}`, i === 0 ? null : `n${i - 1}`, i % 2 === 0 ? "user" : "assistant", i));
    expect(linearize(nodes, "n99999")).toHaveLength(100_000);
  });
});
