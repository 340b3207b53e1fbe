// A file whose turn has left Claude's view is not lost: after /compact condenses the turn that
// carried a 5-page PDF, Claude's system prompt names the file in one line, Claude (the fake
// server, scripted) calls open_file for page 3, and the chat shows "Opened quarterly.pdf, page 3"
// with the page's text, then the answer. The route-level twin is tests/integration/files.test.ts.
import { expect, test, type Page } from "@playwright/test";
import { makePdf } from "../fake-anthropic/pdf-fixture";
import {
  assistantMessages,
  enqueueFake,
  fakeRequests,
  openNewConversation,
  resetFake,
  sendAndWait,
  typeAndSend,
  userMessages,
  type FakeRequest,
  newestReplySeq,
  scrollListTo,
} from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

/** The word only page 3 has: found in what Claude is sent only if page 3 was reopened. */
const PAGE3_WORD = "Zanzibar";

const REPORT = makePdf([
  "Quarterly report, page one: revenue grew in every region this quarter.",
  "Page two: the harbor expansion stayed on schedule and under budget.",
  `Page three: the lighthouse restoration budget was approved in ${PAGE3_WORD} after a long vote.`,
  "Page four: staffing rose by twelve people across the three offices.",
  "Page five: next quarter we open the river terminal.",
]);

const SUMMARY = [
  "### Session Summary",
  "The user shared quarterly.pdf (5 pages) and asked a few unrelated questions.",
  "### Key Decisions",
  "- None yet.",
  "### Pending Tasks",
  "- Answer questions about the report.",
].join("\n");

const FINAL_REPLY = `Page 3 says the lighthouse restoration budget was approved in ${PAGE3_WORD}.`;

interface SentBody {
  system?: string | { text?: string }[];
  tools?: { name: string }[];
  messages?: { role: string; content: unknown }[];
}

const systemText = (body: SentBody): string =>
  typeof body.system === "string" ? body.system : (body.system ?? []).map((b) => b.text ?? "").join("");

/** The chat requests (streamed), not the title's or the summarizer's. */
async function chatRequests(request: Parameters<typeof fakeRequests>[0]): Promise<SentBody[]> {
  return (await fakeRequests(request))
    .filter((r: FakeRequest) => r.method === "POST" && r.path === "/v1/messages" && r.body?.stream === true)
    .map((r) => r.body as SentBody);
}

async function runCommand(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("composer-input");
  await expect(input).toBeEnabled();
  await input.fill(text);
  await input.press("Enter");
}

test("after /compact condenses a PDF's turn, asking about page 3 has Claude reopen it with open_file", async ({ page, request }) => {
  // Seven turns, a summarizer call and a tool round on a busy 2-core machine.
  test.setTimeout(240_000);
  await openNewConversation(page);
  // Turn 1 is always kept, so the file goes in turn 2, which /compact can condense.
  await sendAndWait(page, "Hello, I will share a report next. [[reply:Ready when you are.]]");

  const uploaded = page.waitForResponse((r) => r.request().method() === "POST" && /\/api\/session\/[0-9a-f-]{36}\/files$/.test(r.url()));
  await page.getByLabel("Attach files").setInputFiles({ name: "quarterly.pdf", mimeType: "application/pdf", buffer: REPORT });
  const upload = await uploaded;
  expect(upload.status()).toBe(201);
  const fileId = ((await upload.json()) as { file: { id: string } }).file.id;
  await expect(page.getByTestId("file-chip")).toHaveAttribute("data-status", "ready", { timeout: 30_000 });
  await expect(page.getByTestId("file-chip-facts")).toContainText("5 pages");
  await sendAndWait(page, "Here is the quarterly report. [[reply:Got it, five pages.]]", { timeout: 60_000 });
  await expect(userMessages(page).nth(1).getByTestId("document-meta")).toContainText("5 pages");

  for (let i = 1; i <= 3; i++) {
    await sendAndWait(page, `Unrelated question number ${i} about something else entirely. [[reply:Answer ${i}.]]`, { timeout: 60_000 });
  }

  // The summarizer is the next call to reach the fake.
  await enqueueFake(request, [{ kind: "reply", text: SUMMARY }]);
  await runCommand(page, "/compact --force");
  const divider = page.getByTestId("compaction-divider");
  await expect(divider).toHaveAttribute("data-status", "applied", { timeout: 60_000 });
  // The PDF's turn is condensed: Claude no longer sees the file in full. (The list draws only
  // the rows near the view, so it is scrolled up to the first turns.)
  await scrollListTo(page, userMessages(page).first());
  const pdfTurn = userMessages(page).nth(1);
  await expect(pdfTurn).toHaveAttribute("data-condensed", "true");
  await expect(pdfTurn).toHaveAttribute("data-in-window", "false");
  await expect(page.getByTestId("composer-input")).toBeEnabled({ timeout: 60_000 });

  // Claude reopens page 3, then answers from it.
  await enqueueFake(request, [
    { kind: "tool_use", name: "open_file", input: { file_id: fileId, pages: "3" } },
    { kind: "reply", text: FINAL_REPLY },
  ]);
  // Replies are told apart by seq: the list draws only the rows near the view, so counting
  // drawn replies would depend on the window's height.
  await page.getByTestId("message-list").evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  // The newest reply is drawn again before its seq is read (the list redraws on the next frame).
  await expect(assistantMessages(page).filter({ hasText: "Answer 3." })).toBeVisible();
  const repliesBefore = await newestReplySeq(page);
  await typeAndSend(page, "What was on page 3?");
  // Two saved replies: the one that called open_file, and the answer.
  await expect.poll(async () => (await repliesAfter(page, repliesBefore)).length, { timeout: 60_000 }).toBe(2);
  await expect(page.getByTestId("composer-input")).toBeEnabled({ timeout: 60_000 });
  await expectReopened(page, repliesBefore);

  // What Claude was sent: first the one-line reference and the tool, then page 3's text.
  const chats = await chatRequests(request);
  const answered = chats.at(-1);
  const asked = chats.at(-2);
  if (!answered || !asked) throw new Error(`expected two chat requests for the question, got ${chats.length}`);
  expect(systemText(asked)).toContain(`"quarterly.pdf" (PDF, 5 pages, file_id ${fileId}`);
  expect(asked.tools?.map((t) => t.name)).toContain("open_file");
  expect(JSON.stringify(asked.messages)).toContain("What was on page 3?");
  // The condensed turn's PDF itself is no longer sent, nor its page 3.
  expect(JSON.stringify(asked.messages)).not.toContain('"application/pdf"');
  expect(JSON.stringify(asked.messages)).not.toContain(PAGE3_WORD);
  const toolResult = JSON.stringify(answered.messages?.at(-1));
  expect(toolResult).toContain('"tool_result"');
  expect(toolResult).toContain("--- page 3 of 5 ---");
  expect(toolResult).toContain(PAGE3_WORD);

  // It is the saved history, not the stream's state.
  await page.reload();
  await expect.poll(async () => (await repliesAfter(page, repliesBefore)).length, { timeout: 30_000 }).toBe(2);
  await expectReopened(page, repliesBefore);
});

/** The call, its result (closed, then opened) and the answer, as the chat shows them. */
/** The seqs of the drawn replies newer than `seq`, oldest first. */
function repliesAfter(page: Page, seq: number): Promise<number[]> {
  return assistantMessages(page).evaluateAll(
    (els, after) => els.map((e) => Number(e.getAttribute("data-seq"))).filter((n) => n > after).sort((a, b) => a - b),
    seq,
  );
}

/** `repliesBefore`: the seq of the newest reply before the question. */
async function expectReopened(page: Page, repliesBefore: number): Promise<void> {
  const [call] = await repliesAfter(page, repliesBefore);
  await expect(page.locator(`[data-testid="message"][data-seq="${call}"]`)).toContainText("Opening page 3 of a file…");
  const result = page.locator('[data-testid="tool-result"][data-tool="open_file"]');
  await expect(result).toHaveCount(1);
  await expect(result.getByTestId("tool-result-label")).toHaveText("Opened quarterly.pdf, page 3");
  // A tool result is not a message the user typed: the question is the last "You" bubble.
  await expect(userMessages(page).last()).toContainText("What was on page 3?");
  await expect(assistantMessages(page).last()).toContainText(FINAL_REPLY);

  // Closed, it is one line; opened from the keyboard, the page Claude was given, labelled.
  const opened = result.getByTestId("opened-page");
  await expect(opened).toBeHidden();
  await result.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(opened).toHaveCount(1);
  await expect(opened).toBeVisible();
  await expect(opened).toContainText(/page 3 of 5/i);
  await expect(opened).toContainText(`the lighthouse restoration budget was approved in ${PAGE3_WORD}`);
}
