// A conversation with every kind of block the chat draws: a PDF and a text file attached,
// thinking (with text, empty and redacted), a web search with cited results, a web fetch that
// failed, code execution, a mid-conversation system message, a tool result with
// an image (and, in CONTENT_HISTORY_EXTRA, an MCP tool and a block of a kind Threadkeeper does
// not know). Sent as the history of a drop-in
// request (POST /api/anthropic/v1/messages), which stores it as a session.

/** A two-page PDF ("Q3 revenue grew 12%" / "Outlook: steady"). */
const PDF = "JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFszIDAgUiA1IDAgUl0gL0NvdW50IDIgPj4KZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL1BhZ2UgL1BhcmVudCAyIDAgUiAvTWVkaWFCb3ggWzAgMCAyMDAgMjAwXSAvQ29udGVudHMgNCAwIFIgL1Jlc291cmNlcyA8PCAvRm9udCA8PCAvRjEgNyAwIFIgPj4gPj4gPj4KZW5kb2JqCjQgMCBvYmoKPDwgL0xlbmd0aCA1MCA+PgpzdHJlYW0KQlQgL0YxIDEyIFRmIDIwIDE1MCBUZCAoUTMgcmV2ZW51ZSBncmV3IDEyJSkgVGogRVQKZW5kc3RyZWFtCmVuZG9iago1IDAgb2JqCjw8IC9UeXBlIC9QYWdlIC9QYXJlbnQgMiAwIFIgL01lZGlhQm94IFswIDAgMjAwIDIwMF0gL0NvbnRlbnRzIDYgMCBSIC9SZXNvdXJjZXMgPDwgL0ZvbnQgPDwgL0YxIDcgMCBSID4+ID4+ID4+CmVuZG9iago2IDAgb2JqCjw8IC9MZW5ndGggNDYgPj4Kc3RyZWFtCkJUIC9GMSAxMiBUZiAyMCAxNTAgVGQgKE91dGxvb2s6IHN0ZWFkeSkgVGogRVQKZW5kc3RyZWFtCmVuZG9iago3IDAgb2JqCjw8IC9UeXBlIC9Gb250IC9TdWJ0eXBlIC9UeXBlMSAvQmFzZUZvbnQgL0hlbHZldGljYSA+PgplbmRvYmoKeHJlZgowIDgKMDAwMDAwMDAwMCA2NTUzNSBmIAowMDAwMDAwMDA5IDAwMDAwIG4gCjAwMDAwMDAwNTggMDAwMDAgbiAKMDAwMDAwMDEyMSAwMDAwMCBuIAowMDAwMDAwMjQ3IDAwMDAwIG4gCjAwMDAwMDAzNDcgMDAwMDAgbiAKMDAwMDAwMDQ3MyAwMDAwMCBuIAowMDAwMDAwNTY5IDAwMDAwIG4gCnRyYWlsZXIKPDwgL1NpemUgOCAvUm9vdCAxIDAgUiA+PgpzdGFydHhyZWYKNjM5CiUlRU9GCg==";
/** A 120×72 PNG: a checkerboard with a dark band. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAHgAAABICAIAAACyfKYoAAAAqklEQVR42u3asQkAIAxFQSdwDcG9Hc5ee2cQJIgevAE+V4ak3PqRxphHenVPAg0aNGjQoEGDBg0aNGjQoEGDBg0aNGjQoEGDBg0aNGjQoEGD3oQGFLMHNGjQoEGDBg06CLqUqoBAgwYt0KBBIwANWqBBfw/t1uGoBBo0aNCgQcdAA/KpBBo0aNCgQYMGDRo0aNCgQYMGDRo0aNCgQYMGDRo0aNCgQYO+cs8CeLdRyRIih0oAAAAASUVORK5CYII=";

const NOTES = ["Meeting notes — 14 Nov", "", "- Revenue up 12% on Q2", "- Hiring freeze lifted", "- Ship the tide app by Friday", "- Review the PDF before the board call", "- Next sync: Tuesday"].join("\n");

const SEARCH_RESULTS = [
  { type: "web_search_result", url: "https://www.tides.example/brest/today", title: "Brest tide times today", page_age: "1 day ago", encrypted_content: "e1" },
  { type: "web_search_result", url: "https://shom.example/marees/brest", title: "Marées à Brest — horaires officiels", page_age: null, encrypted_content: "e2" },
  { type: "web_search_result", url: "https://surf.example/spots/brest", title: "Brest surf report and tide chart", encrypted_content: "e3" },
];

const THINKING = [
  "The user wants two things: a summary of the attached report and today's tides in Brest.",
  "",
  "The report is short: page 1 says revenue grew 12%, page 2 gives the outlook. I should cite page 1.",
  "",
  "For the tides I need fresh data, so a web search is the right tool. Then I can compute the time until high tide.",
].join("\n");

/** A message of a drop-in request, loosely: the app checks it. */
export interface HistoryMessage {
  role: "user" | "assistant" | "system";
  content: string | Record<string, unknown>[];
}

export const CONTENT_HISTORY: HistoryMessage[] = [
  {
    role: "user",
    content: [
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "Q3 board report.pdf", citations: { enabled: true } },
      { type: "document", source: { type: "text", media_type: "text/plain", data: NOTES }, title: "notes.txt" },
      { type: "text", text: "Summarize the report, and what are today's tides in Brest?" },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: THINKING, signature: "sig-1" },
      { type: "text", text: "**The report.** " },
      {
        type: "text",
        text: "Revenue grew 12% over the quarter",
        citations: [{ type: "page_location", cited_text: "Q3 revenue grew 12%", document_index: 0, document_title: "Q3 board report.pdf", start_page_number: 1, end_page_number: 2 }],
      },
      { type: "text", text: " and the outlook is steady.\n\n" },
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "Brest tide times today" } },
      { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: SEARCH_RESULTS },
      { type: "text", text: "**The tides.** " },
      {
        type: "text",
        text: "High tide in Brest is at 11:42 (6.8 m) and low tide at 17:55",
        citations: [
          { type: "web_search_result_location", url: "https://www.tides.example/brest/today", title: "Brest tide times today", encrypted_index: "i1", cited_text: "High tide 11:42, 6.8 m" },
          { type: "web_search_result_location", url: "https://shom.example/marees/brest", title: "Marées à Brest — horaires officiels", encrypted_index: "i2", cited_text: "PM 11h42" },
        ],
      },
      { type: "text", text: ".\n\n" },
      { type: "server_tool_use", id: "srvtoolu_2", name: "code_execution", input: { code: "from datetime import datetime\nnow = datetime(2026, 11, 27, 9, 15)\nhigh = datetime(2026, 11, 27, 11, 42)\nprint(f'{(high - now).seconds // 60} minutes to high tide')" } },
      { type: "code_execution_tool_result", tool_use_id: "srvtoolu_2", content: { type: "code_execution_result", stdout: "147 minutes to high tide\n", stderr: "", return_code: 0, content: [] } },
      { type: "server_tool_use", id: "srvtoolu_3", name: "web_fetch", input: { url: "https://harbour.example/brest/notices" } },
      { type: "web_fetch_tool_result", tool_use_id: "srvtoolu_3", content: { type: "web_fetch_tool_result_error", error_code: "url_not_accessible" } },
      { type: "text", text: "That leaves about **2 h 27 min** until high tide. (The harbour notices page could not be reached.)" },
    ],
  },
  { role: "system", content: "The user prefers metric units and 24-hour times." },
  {
    role: "user",
    content: [{ type: "text", text: "Thanks. Take a screenshot of the chart and look up the harbour master in the CRM." }],
  },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "", signature: "sig-omitted" },
      { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP" },
      { type: "text", text: "The harbour master is Yann Le Gall. Taking the screenshot now." },
      { type: "tool_use", id: "toolu_shot", name: "screenshot", input: { target: "tide chart" } },
    ],
  },
  {
    role: "user",
    content: [
      {
        type: "tool_result",
        tool_use_id: "toolu_shot",
        content: [
          { type: "text", text: "Captured the tide chart." },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        ],
      },
    ],
  },
  {
    role: "assistant",
    content: [{ type: "text", text: "Here is the chart: the next high tide is the peak on the left." }],
  },
  { role: "user", content: "Great, thanks!" },
];

/**
 * The same with blocks the API refuses without more setup (an MCP server's tool call wants
 * `mcp_servers` and its beta; a kind the API does not know is refused outright): Threadkeeper
 * stores them before Claude is asked, so the session shows them even though that reply fails.
 */
export const CONTENT_HISTORY_EXTRA = CONTENT_HISTORY.map((m, i): HistoryMessage => {
  if (!Array.isArray(m.content)) return m;
  if (i === 4) {
    return {
      ...m,
      content: [
        ...m.content.slice(0, 2),
        { type: "mcp_tool_use", id: "mcptoolu_1", name: "find_contact", server_name: "crm", input: { role: "harbour master", city: "Brest" } },
        { type: "mcp_tool_result", tool_use_id: "mcptoolu_1", is_error: false, content: [{ type: "text", text: "Yann Le Gall — +33 2 98 00 00 00" }] },
        ...m.content.slice(2),
      ],
    };
  }
  if (i === 6) return { ...m, content: [...m.content, { type: "future_widget", payload: { kind: "tide-dial", value: 0.62 } }] };
  return m;
});
