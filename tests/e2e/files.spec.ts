// Files in the chat: a PDF by the paper clip, an image dropped on the chat, a log pasted into the
// composer; chips that say what each costs; a program refused with the types that work; the
// sent message showing its files, the token bar counting them, and all of it after a reload.
import { expect, test, type Page } from "@playwright/test";
import { gradientPng, REPORT_PDF, SERVER_LOG } from "./files-data";
import { assistantMessages, fakeRequests, openNewConversation, resetFake, userMessages } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

const chip = (page: Page, name: string) => page.getByTestId("file-chip").filter({ has: page.getByTestId("file-chip-name").getByText(name, { exact: true }) });

/** Drops files on the chat as a drag from the desktop would, through a real DataTransfer. */
async function dropFile(page: Page, name: string, type: string, bytes: Buffer): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ name, type, data }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name, { type }));
      return dt;
    },
    { name, type, data: [...bytes] },
  );
  const area = page.getByTestId("chat-drop-area");
  await area.dispatchEvent("dragenter", { dataTransfer: transfer });
  await area.dispatchEvent("dragover", { dataTransfer: transfer });
  await expect(page.getByTestId("drop-overlay")).toBeVisible();
  await expect(page.getByTestId("drop-overlay")).toContainText("Drop files to attach them");
  await area.dispatchEvent("drop", { dataTransfer: transfer });
  await expect(page.getByTestId("drop-overlay")).toHaveCount(0);
}

/** Pastes a file into the composer, as a paste of a copied file would. */
async function pasteFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId("composer-input").focus();
  await page.evaluate(
    ({ name, text }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: "" }));
      const input = document.querySelector('[data-testid="composer-input"]');
      input?.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    { name, text },
  );
}

async function expectSentFiles(page: Page): Promise<void> {
  const sent = userMessages(page).last();
  const image = sent.getByTestId("stored-image");
  await expect(image.locator("img")).toHaveAttribute("alt", "diagram.png");
  await expect(image).toHaveAttribute("href", /^\/api\/files\/[0-9a-f-]{36}$/);
  await expect(image).toHaveAttribute("target", "_blank");
  // The thumbnail really loaded (a broken one has no natural width).
  await expect.poll(() => image.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);

  const pdf = sent.locator('[data-testid="document-card"][data-kind="PDF"]');
  await expect(pdf.getByTestId("document-title")).toHaveText("report.pdf");
  await expect(pdf.getByTestId("document-meta")).toContainText("2 pages");
  await expect(pdf.getByTestId("document-open")).toHaveAttribute("href", /^\/api\/files\/[0-9a-f-]{36}$/);
  await expect(pdf.getByTestId("document-open")).toHaveAttribute("rel", "noopener");

  const log = sent.getByTestId("document-card").filter({ has: page.getByTestId("document-title").getByText("server.log", { exact: true }) });
  await expect(log).toHaveCount(1);
  await expect(sent).toContainText("What is in these files?");
}

test("files attach by button, drop and paste, show as chips, send, and stay after a reload", async ({ page, request }) => {
  await openNewConversation(page);

  // The paper clip is a labelled file input, reachable from the keyboard.
  const input = page.getByLabel("Attach files");
  await expect(input).toHaveAttribute("type", "file");
  await expect(input).toHaveAttribute("accept", /application\/pdf/);

  // A PDF by the button: its chip shows its size, and its tokens and pages once it is read.
  await input.setInputFiles({ name: "report.pdf", mimeType: "application/pdf", buffer: REPORT_PDF });
  const pdfChip = chip(page, "report.pdf");
  await expect(pdfChip).toHaveAttribute("data-status", "ready");
  await expect(pdfChip.getByTestId("file-chip-facts")).toContainText(/\d+(\.\d)? KB|\d+ B/);
  await expect(pdfChip.getByTestId("file-chip-facts")).toContainText(/~[\d.]+K? tokens/);
  await expect(pdfChip.getByTestId("file-chip-facts")).toContainText("2 pages");
  await expect(pdfChip.getByTitle("report.pdf")).toBeVisible();

  // An image by a drop on the chat: a thumbnail of the local file.
  await dropFile(page, "diagram.png", "image/png", gradientPng(320, 200));
  const imageChip = chip(page, "diagram.png");
  await expect(imageChip).toHaveAttribute("data-status", "ready");
  await expect(imageChip.locator("img")).toHaveAttribute("src", /^blob:/);
  await expect(imageChip.getByTestId("file-chip-facts")).toContainText(/~[\d.]+K? tokens/);

  // A log by a paste; pasting text still types text.
  await pasteFile(page, "server.log", SERVER_LOG);
  const logChip = chip(page, "server.log");
  await expect(logChip).toHaveAttribute("data-status", "ready");
  await expect(logChip.getByTestId("file-chip-facts")).toContainText(/~[\d.]+K? tokens/);
  await expect(page.getByTestId("composer-input")).toHaveValue("");

  // A program is refused at once, with the types that work.
  await input.setInputFiles({ name: "setup.exe", mimeType: "application/x-msdownload", buffer: Buffer.from("MZ\x90\x00") });
  const refusal = page.getByTestId("command-feedback");
  await expect(refusal).toHaveAttribute("role", "alert");
  await expect(refusal).toContainText("“setup.exe” cannot be attached");
  await expect(refusal).toContainText("PDFs");
  await expect(page.getByTestId("file-chip")).toHaveCount(3);

  // Each remove button names its file.
  await expect(pdfChip.getByRole("button", { name: "Remove report.pdf" })).toBeVisible();

  await page.getByTestId("composer-input").fill("What is in these files?");
  await page.getByTestId("send-button").click();
  await expect(assistantMessages(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId("file-chip")).toHaveCount(0);
  await expectSentFiles(page);

  // Claude was sent the files themselves (the session's title is asked for in another request).
  const kinds = (await fakeRequests(request))
    .filter((r) => r.path === "/v1/messages")
    .map((r) => (r.body?.messages as { role: string; content: { type: string }[] | string }[] | undefined)?.findLast((m) => m.role === "user")?.content)
    .map((content) => (Array.isArray(content) ? content.map((b) => b.type) : []))
    .find((types) => types.includes("image"));
  expect(kinds).toEqual(expect.arrayContaining(["image", "document", "text"]));

  // The token bar counts the files as a part of the messages.
  await page.getByTestId("token-bar").hover();
  const files = page.getByTestId("token-bar-row-files");
  await expect(files).toBeVisible();
  await expect(files).toContainText(/Files \(of messages\)\s*[\d,]+/);

  await page.reload();
  await expect(assistantMessages(page)).toHaveCount(1);
  await expectSentFiles(page);
});

test("a message of files alone sends, and removing a chip deletes its file", async ({ page, request }) => {
  await openNewConversation(page);
  const input = page.getByLabel("Attach files");
  await input.setInputFiles([
    { name: "keep.txt", mimeType: "text/plain", buffer: Buffer.from("keep me") },
    { name: "drop.txt", mimeType: "text/plain", buffer: Buffer.from("drop me") },
  ]);
  await expect(chip(page, "keep.txt")).toHaveAttribute("data-status", "ready");
  await expect(chip(page, "drop.txt")).toHaveAttribute("data-status", "ready");

  const deleted = page.waitForResponse((r) => r.request().method() === "DELETE" && /\/api\/files\//.test(r.url()));
  await chip(page, "drop.txt").getByRole("button", { name: "Remove drop.txt" }).click();
  expect((await deleted).status()).toBe(204);
  await expect(page.getByTestId("file-chip")).toHaveCount(1);

  // No text, only the file: Send works.
  await expect(page.getByTestId("send-button")).toBeEnabled();
  await page.getByTestId("send-button").click();
  await expect(assistantMessages(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(userMessages(page).last().getByTestId("document-title")).toHaveText("keep.txt");

  // The account's settings say what the files take.
  const listed = await request.get("/api/files");
  const { usage } = (await listed.json()) as { usage: { files: number } };
  expect(usage.files).toBeGreaterThanOrEqual(1);
  await page.getByTestId("open-settings").click();
  await page.getByTestId("open-account-settings").click();
  await expect(page.getByTestId("files-storage-text")).toHaveText(/^Files: [\d.]+ (B|KB|MB) of [\d.]+ (MB|GB), \d+ files?$/);
});
