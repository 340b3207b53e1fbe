import { describe, expect, it } from "vitest";
import type { MemoryFactJson, MemoryJson } from "@/lib/contract";
import { factKinds, messagesLabel, seenLabel, splitFacts } from "@/lib/client/facts";

function fact(id: string, over: Partial<MemoryFactJson> = {}, kind: MemoryJson["kind"] = "fact"): MemoryJson {
  return {
    id,
    project_id: null,
    session_id: "s",
    source: "compaction",
    summary: `fact ${id}`,
    key_decisions: [],
    code_references: [],
    tags: ["fact"],
    pinned: false,
    embedding_model: "local",
    created_at: "2026-11-20T00:00:00Z",
    expires_at: null,
    kind,
    fact:
      kind === "fact"
        ? {
            subject: "user",
            attribute: null,
            value: null,
            from_seq: 3,
            through_seq: 3,
            valid_from: "2026-11-20T00:00:00Z",
            valid_until: null,
            superseded_by: null,
            seen_count: 1,
            last_seen_at: "2026-11-20T00:00:00Z",
            ...over,
          }
        : null,
  };
}

describe("how the panel words a fact", () => {
  it("names a fact's kinds from its tags, most telling first, without repeats or unknown tags", () => {
    expect(factKinds(["fact", "place", "person", "decision"])).toEqual(["decision", "person", "place"]);
    expect(factKinds(["fact", "commitment", "pending_task"])).toEqual(["plan"]);
    expect(factKinds(["fact", "quantity", "file_path"])).toEqual(["number"]);
    expect(factKinds(["fact"])).toEqual([]);
  });

  it("says which messages it came from and how often it was seen", () => {
    expect(messagesLabel({ from_seq: 12, through_seq: 12 })).toBe("message 12");
    expect(messagesLabel({ from_seq: 12, through_seq: 14 })).toBe("messages 12–14");
    expect(seenLabel({ seen_count: 1 })).toBeNull();
    expect(seenLabel({ seen_count: 4 })).toBe("seen 4 times");
  });

  it("splits current facts from replaced ones, keeping their order and leaving summaries out", () => {
    const list = [fact("a"), fact("b", { superseded_by: "a", valid_until: "2026-11-21T00:00:00Z" }), fact("c"), fact("s", {}, "summary")];
    const { current, replaced } = splitFacts(list);
    expect(current.map((f) => f.id)).toEqual(["a", "c"]);
    expect(replaced.map((f) => f.id)).toEqual(["b"]);
  });
});
