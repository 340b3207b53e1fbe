// Threadkeeper's own export read back: an export from before its later fields still imports
// (its messages only); a newer one carries what the session was; files named by blocks are
// remapped to the importing account's, or said to be missing.
import { describe, expect, it } from "vitest";
import type { ContentBlock } from "@/lib/context/types";
import { fileIdsOf, remapFiles, threadkeeperSession } from "@/lib/import/threadkeeper";
import { ConversationError } from "@/lib/import/types";

const SESSION = "5e55c0de-0000-4000-8000-0000000000aa";
const FILE = "f11e0000-0000-4000-8000-000000000001";
const GONE = "f11e0000-0000-4000-8000-000000000002";
const T = "2026-03-01T10:00:00.000Z";

const message = (seq: number, turn: number, role: "user" | "assistant", content: ContentBlock[], extra: object = {}) => ({
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, "0")}`,
  session_id: SESSION,
  seq,
  turn_seq: turn,
  role,
  content,
  text: "",
  token_count: 7 + seq,
  protected: false,
  status: "complete",
  in_window: true,
  supersedes_turn: null,
  restarts_turn: false,
  created_at: T,
  ...extra,
});

const image = (id: string): ContentBlock =>
  ({ type: "image", source: { type: "threadkeeper_file", file_id: id, media_type: "image/png" }, threadkeeper: { file_id: id, name: "diagram.png" } }) as unknown as ContentBlock;

const doc = (extra: object = {}) => ({
  format: "threadkeeper-export",
  version: 1,
  exported_at: T,
  session: {
    id: SESSION,
    title: "Garden",
    model: "claude-haiku-4-5",
    settings: {},
    created_at: T,
    updated_at: T,
    last_message_at: T,
    message_count: 3,
    project_id: null,
    parent_session_id: null,
    forked_from_checkpoint_id: null,
    title_source: "user",
    pinned: false,
    archived: false,
  },
  system_prompt: "Be brief.",
  messages: [
    message(1, 1, "user", [{ type: "text", text: "Plan the beds" }], { protected: true }),
    message(2, 1, "assistant", [{ type: "text", text: "Four beds." }], { status: "interrupted", model: "claude-haiku-4-5", said_at: null }),
    message(3, 1, "assistant", [{ type: "text", text: "Still streaming" }], { status: "streaming" }),
  ],
  compactions: [],
  checkpoints: [],
  ...extra,
});

describe("Threadkeeper's own export", () => {
  it("an export without the later fields: its messages, times and counts; what it carries beyond them, empty", () => {
    const c = threadkeeperSession(doc());
    expect(c).toMatchObject({ format: "threadkeeper", sourceId: SESSION, title: "Garden", systemPrompt: "Be brief." });
    // The reply still streaming when exported was never finished: left out.
    expect(c.messages.map((m) => [m.role, m.saidAt, m.tokenCount, m.model])).toEqual([
      ["user", T, 8, null],
      ["assistant", T, 9, "claude-haiku-4-5"],
    ]);
    expect(c.messages[1].searchAt).toBeNull();
    expect(c.messages[0].searchAt).toBeUndefined();
    expect(c.restore).toMatchObject({ seqs: [1, 2], protectedSeqs: [1], interruptedSeqs: [2], compactions: [], checkpoints: [] });
    expect(c.restore?.window).toBeUndefined();
  });

  it("a newer export: its window and canvas history ride along", () => {
    const c = threadkeeperSession(
      doc({
        window: { window_start_turn: 1, summary_id: null, cleared_through_seq: 0 },
        canvas: { layout: "grid", elements: [], version: 4 },
        canvas_events: [{ id: 4, at_seq: 2, source: "user", tool_use_id: null, payload: { op: "clear" } }],
        instructions: "Metric units.",
      }),
    );
    expect(c.restore).toMatchObject({ window: { window_start_turn: 1 }, canvas: { version: 4 }, instructions: "Metric units." });
    expect(c.restore?.canvas_events).toHaveLength(1);
  });

  it("a document that is not one is reported with the session's id", () => {
    expect(() => threadkeeperSession({ ...doc(), messages: "none" })).toThrow(ConversationError);
  });

  it("file ids: found anywhere in a block, remapped to this account's, a missing file said in a line", () => {
    const content = [image(FILE), image(GONE), { type: "text", text: "see" } as ContentBlock];
    expect(fileIdsOf(content).sort()).toEqual([FILE, GONE]);
    const out = remapFiles(content, new Map([[FILE, "0e000000-0000-4000-8000-000000000009"]]));
    expect(out[0]).toEqual(image("0e000000-0000-4000-8000-000000000009"));
    expect(out[1]).toEqual({ type: "text", text: "[A file that was not imported: diagram.png]" });
    expect(out[2]).toEqual({ type: "text", text: "see" });
    // The input is left as it was.
    expect(content[0]).toEqual(image(FILE));
  });
});
