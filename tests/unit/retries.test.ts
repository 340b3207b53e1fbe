import { describe, expect, it } from "vitest";
import { dropReplaced, dropSuperseded } from "@/lib/context/retries";
import type { EngineMessage } from "@/lib/context/types";

let seq = 0;
function m(turnSeq: number, role: "user" | "assistant", extra: Partial<EngineMessage> = {}): EngineMessage {
  seq++;
  return { seq, turnSeq, role, content: [{ type: "text", text: `${role} ${seq}` }], tokenCount: 10, protected: false, status: "complete", ...extra };
}
const seqs = (ms: EngineMessage[]) => ms.map((x) => x.seq);

describe("dropReplaced", () => {
  it("leaves a history without edits or regenerations as it is", () => {
    seq = 0;
    const h = [m(1, "user"), m(1, "assistant"), m(2, "user"), m(2, "assistant")];
    expect(dropReplaced(h)).toEqual(h);
  });

  it("drops a turn an edit replaced, and keeps the edit's own turn", () => {
    seq = 0;
    const h = [m(1, "user"), m(1, "assistant"), m(2, "user"), m(2, "assistant"), m(3, "user", { supersedesTurn: 2 }), m(3, "assistant")];
    expect(seqs(dropReplaced(h))).toEqual([1, 2, 5, 6]);
  });

  it("drops every turn from the one an edit names up to the edit (a drop-in client's history that differs further back)", () => {
    seq = 0;
    const h = [m(1, "user"), m(1, "assistant"), m(2, "user"), m(2, "assistant"), m(3, "user"), m(3, "assistant"), m(4, "user", { supersedesTurn: 2 }), m(4, "assistant")];
    expect(seqs(dropReplaced(h))).toEqual([1, 2, 7, 8]);
  });

  it("keeps the turn's user message and the replies from the latest regenerated one on", () => {
    seq = 0;
    const toolLoop = [m(1, "user"), m(1, "assistant"), m(1, "user"), m(1, "assistant")]; // a tool round: seqs 1-4
    const again = m(1, "assistant", { restartsTurn: true }); // 5
    const third = m(1, "assistant", { restartsTurn: true }); // 6
    expect(seqs(dropReplaced([...toolLoop, again]))).toEqual([1, 5]);
    expect(seqs(dropReplaced([...toolLoop, again, third]))).toEqual([1, 6]);
  });
});

describe("dropSuperseded", () => {
  it("for a regenerate, leaves only the current turn's user message", () => {
    seq = 0;
    const h = [m(1, "user"), m(1, "assistant"), m(2, "user"), m(2, "assistant"), m(2, "assistant", { status: "interrupted" })];
    expect(seqs(dropSuperseded(h, { turn: 2, regenerate: true }))).toEqual([1, 2, 3]);
  });

  it("for a retry, drops only the current turn's broken reply", () => {
    seq = 0;
    const h = [m(1, "user"), m(1, "assistant"), m(2, "user"), m(2, "assistant", { status: "interrupted" })];
    expect(seqs(dropSuperseded(h, { turn: 2, regenerate: false }))).toEqual([1, 2, 3]);
    expect(seqs(dropSuperseded(h, null))).toEqual([1, 2, 3, 4]);
  });
});
