// Every kind of content block a message can hold, drawn readably: thinking as a quiet row that
// opens, documents as file cards, server tools with their results, citations as numbered
// markers, system notes, tool result images and blocks of unknown kinds. The conversation is
// stored through the drop-in (a resent history), as an integration would.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { CONTENT_HISTORY, CONTENT_HISTORY_EXTRA } from "./content-blocks-data";
import { enqueueFake, putSessionSettings, resetFake, seedSession, sendAndWait } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

/** Stores a history through the drop-in; `refused`: Claude (the fake) refuses it, after it is stored. */
async function seedContentSession(request: APIRequestContext, messages = CONTENT_HISTORY, refused = false): Promise<string> {
  const res = await request.post("/api/anthropic/v1/messages", {
    headers: { "anthropic-version": "2023-06-01" },
    data: { model: "claude-haiku-4-5", max_tokens: 1024, messages },
  });
  if (refused) expect(res.status(), await res.text()).toBe(400);
  else expect(res.ok(), await res.text()).toBeTruthy();
  const id = res.headers()["threadkeeper-session-id"];
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id;
}

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`);
}

const reply = (page: Page, n: number) => page.locator('[data-testid="message"][data-role="assistant"]').nth(n);

test("a conversation with thinking, documents, server tools and citations renders readably", async ({ page, request }) => {
  const id = await seedContentSession(request);

  // The REST API hands the blocks back as stored.
  const listed = await request.get(`/api/session/${id}/messages?limit=50`);
  const { messages } = (await listed.json()) as { messages: { content: { type: string }[] }[] };
  const kinds = new Set(messages.flatMap((m) => m.content.map((b) => b.type)));
  for (const k of ["document", "thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result", "code_execution_tool_result", "system_message"]) {
    expect(kinds, k).toContain(k);
  }

  await page.goto(`/?session=${id}`);
  await expect(page.getByTestId("message")).toHaveCount(7);

  // Documents: a PDF card and a text file whose first lines open to the whole.
  const pdf = page.locator('[data-testid="document-card"][data-kind="PDF"]');
  await expect(pdf.getByTestId("document-title")).toHaveText("Q3 board report.pdf");
  await expect(pdf.getByTestId("document-meta")).toContainText("PDF");
  const notes = page.locator('[data-testid="document-card"][data-kind="Text"]');
  await expect(notes.getByTestId("document-preview")).toContainText("Meeting notes");
  await expect(notes.getByTestId("document-preview")).not.toContainText("Next sync");
  const showAll = notes.getByRole("button", { name: "Show all" });
  await expect(showAll).toHaveAttribute("aria-expanded", "false");
  await showAll.click();
  await expect(notes.getByTestId("document-preview")).toContainText("Next sync");
  await expect(notes.getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");

  // Thinking: collapsed to a quiet row, open on request.
  const first = reply(page, 0);
  const thought = first.getByTestId("thinking-block").getByRole("button", { name: "Thought" });
  await expect(thought).toHaveAttribute("aria-expanded", "false");
  await expect(first.getByTestId("thinking-text")).toHaveCount(0);
  await thought.click();
  await expect(thought).toHaveAttribute("aria-expanded", "true");
  await expect(first.getByTestId("thinking-text")).toContainText("a web search is the right tool");

  // Web search: the query, then the results as links that leave the page safely.
  const search = first.getByTestId("web-search");
  const searchRow = search.getByRole("button", { name: /Searched the web: Brest tide times today/ });
  await expect(searchRow).toContainText("3 results");
  await searchRow.click();
  const results = search.getByTestId("web-search-results").getByRole("link");
  await expect(results).toHaveCount(3);
  await expect(results.first()).toHaveAttribute("href", "https://www.tides.example/brest/today");
  await expect(results.first()).toHaveAttribute("rel", "noopener noreferrer nofollow");
  await expect(results.first()).toHaveAttribute("target", "_blank");
  await expect(results.first()).toContainText("tides.example");

  // Citations: numbered once per source across the reply; the web's link to the page.
  const markers = first.getByTestId("citation-marker");
  await expect(markers).toHaveCount(3);
  await expect(markers.nth(0)).toHaveText("1");
  await expect(markers.nth(0)).toHaveAttribute("aria-label", /Source 1: Q3 board report\.pdf, p\. 1/);
  await expect(markers.nth(1)).toHaveAttribute("href", "https://www.tides.example/brest/today");
  await expect(first.getByTestId("citation-sources")).toContainText("Q3 board report.pdf, p. 1");
  await expect(first.getByTestId("citation-sources")).toContainText("shom.example");

  // Code execution: the code and its output; a failed fetch says why.
  await first.getByTestId("code-execution").getByRole("button", { name: "Ran code" }).click();
  await expect(first.getByTestId("code-execution").getByTestId("code-block")).toContainText("datetime(2026, 11, 27, 11, 42)");
  await expect(first.getByTestId("code-stdout")).toHaveText("147 minutes to high tide");
  const fetchRow = first.getByTestId("web-fetch").getByRole("button", { name: /Fetched harbour\.example/ });
  await expect(fetchRow).toContainText("failed");
  await fetchRow.click();
  await expect(first.getByTestId("tool-error")).toContainText("the page could not be reached");

  // A system message kept in place, as a note that opens.
  const note = page.getByTestId("system-note").getByRole("button", { name: "System note" });
  await note.click();
  await expect(page.getByTestId("system-note")).toContainText("metric units and 24-hour times");

  // Thinking with nothing to show, redacted reasoning, a call of the caller's own tool.
  const second = reply(page, 1);
  await expect(second.getByTestId("thinking-block").nth(0)).toHaveText("Thought (hidden)");
  await expect(second.getByTestId("thinking-block").nth(1)).toHaveText("Reasoning redacted");
  await expect(second.getByTestId("tool-use")).toHaveText("Tool call: screenshot");

  // A tool result's image as a thumbnail, seen without opening the result: the drop-in kept it as
  // the session's file, so it is served from there and loads.
  const thumb = page.getByTestId("tool-results").getByTestId("stored-image");
  await expect(thumb).toBeVisible();
  await expect(thumb.locator("img")).toHaveAttribute("src", /^\/api\/files\/[0-9a-f-]{36}$/);
  await expect.poll(() => thumb.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);


  // Everything open, in both themes: no serious accessibility problem.
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page), scheme).toEqual([]);
  }
});

test("a reply's thinking streams in its block events and keeps the time it took", async ({ page, request }) => {
  const id = await seedSession(request, "Thinking live", []);
  await putSessionSettings(request, id, { thinking: "on" });
  await enqueueFake(request, [{ kind: "reply", text: "Low tide is at 17:55.", thinking: "The tide table for Brest lists the low tide at 17:55." }]);
  await page.goto(`/?session=${id}`);
  await sendAndWait(page, "When is low tide?");
  const answer = reply(page, 0);
  await expect(answer).toContainText("Low tide is at 17:55.");
  // Timed on this client from the block's start to its stop, so the row says how long.
  const row = answer.getByTestId("thinking-block").getByRole("button");
  await expect(row).toHaveText(/^Thought for \d+ s$/);
  await row.click();
  await expect(answer.getByTestId("thinking-text")).toHaveText("The tide table for Brest lists the low tide at 17:55.");
  // Loaded again from the server, the time the server measured while it streamed is kept with the block.
  await page.reload();
  await expect(reply(page, 0).getByTestId("thinking-block").getByRole("button")).toHaveText(/^Thought for \d+ s$/);
});

test("an MCP server's tool and a block of an unknown kind show, named, with their details on request", async ({ page, request }) => {
  const id = await seedContentSession(request, CONTENT_HISTORY_EXTRA, true);
  await page.goto(`/?session=${id}`);
  const second = reply(page, 1);
  await second.getByTestId("mcp-tool").getByRole("button", { name: "Used find_contact on crm" }).click();
  await expect(second.getByTestId("mcp-tool")).toContainText("Yann Le Gall — +33 2 98 00 00 00");
  await expect(second.getByTestId("mcp-tool")).toContainText('"harbour master"');
  const third = reply(page, 2);
  await third.getByTestId("unsupported-block").getByRole("button", { name: "Unsupported block: future_widget" }).click();
  await expect(third.getByTestId("unsupported-block")).toContainText('"tide-dial"');
  expect(await seriousViolations(page)).toEqual([]);
});
