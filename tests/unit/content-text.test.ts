import { describe, expect, it } from "vitest";
import { renderTranscript, toTranscriptTurns } from "@/lib/context/compaction/transcript";
import { blocksToText } from "@/lib/context/text";
import { groupTurns } from "@/lib/context/turns";
import type { ContentBlock, EngineMessage } from "@/lib/context/types";

const PDF_BYTES = "JVBERi0xLjQKJeLjz9MKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyA+PgplbmRvYmoK";

const message = (seq: number, role: "user" | "assistant", content: ContentBlock[]): EngineMessage => ({
  seq,
  turnSeq: 1,
  role,
  content,
  tokenCount: 10,
  protected: false,
  status: "complete",
});

describe("what lists, search and summaries read of every block", () => {
  const conversation = [
    message(1, "user", [
      { type: "document", title: "Turbine report", source: { type: "base64", media_type: "application/pdf", data: PDF_BYTES }, threadkeeper: { pages: 2, text: "Output rose by 12 percent.", tokens: 3200 } },
      { type: "system_message", content: "The user is an engineer." },
      { type: "text", text: "What changed?" },
    ]),
    message(2, "assistant", [
      { type: "thinking", thinking: "The report's second page has the number.", signature: "sig" },
      { type: "redacted_thinking", data: "opaque" },
      { type: "server_tool_use", id: "srv_1", name: "web_search", input: { query: "turbine output" } },
      { type: "web_search_tool_result", tool_use_id: "srv_1", content: [{ type: "web_search_result", url: "https://example.com/t", title: "Turbines today", encrypted_content: "xyz" }] },
      { type: "text", text: "Output rose by 12 percent.", citations: [{ type: "page_location", cited_text: "Output rose", document_index: 0, start_page_number: 2, end_page_number: 3 }] },
      { type: "opaque", block: { type: "future_block", value: 1 } },
    ]),
  ];

  it("reads a document's title, pages and text, never its bytes; never thinking or system notes", () => {
    const user = blocksToText(conversation[0].content);
    expect(user).toBe("[document: Turbine report, 2 pages]\nOutput rose by 12 percent.\nWhat changed?");
    const reply = blocksToText(conversation[1].content);
    expect(reply).toContain("[tool: web_search]");
    expect(reply).toContain("Turbines today https://example.com/t");
    expect(reply).not.toContain("second page");
    expect(reply).not.toContain("xyz");
  });

  it("a compaction's transcript keeps the document's reference and what it said", () => {
    const transcript = renderTranscript(toTranscriptTurns(groupTurns(conversation)));
    expect(transcript).toContain("[document: Turbine report, 2 pages]");
    expect(transcript).toContain("Output rose by 12 percent.");
    expect(transcript).not.toContain(PDF_BYTES.slice(0, 20));
    expect(transcript).not.toContain("second page has the number");
    expect(transcript).not.toContain("engineer");
  });
});
