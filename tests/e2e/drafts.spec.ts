// Drafts per session (issue 33): text typed in one chat stays in that chat, survives a reload
// (this browser's copy) and a cleared browser (the server's copy, as another device would find
// it), brings its uploaded file back as a chip, and is gone once sent.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { assistantMessages, resetFake, seedSession } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

const composer = (page: Page) => page.getByTestId("composer-input");

async function openSession(page: Page, id: string): Promise<void> {
  await page.locator(`[data-testid="session-node"][data-session-id="${id}"] [data-testid="session-item"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`session=${id}`));
}

async function serverDraft(request: APIRequestContext, id: string): Promise<{ text: string; attachments: { id: string }[] }> {
  const res = await request.get(`/api/session/${id}/draft`);
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { draft: { text: string; attachments: { id: string }[] } }).draft;
}

test("a draft stays in its own chat, survives a reload and a cleared browser, keeps its file, and goes when sent", async ({ page, request }) => {
  const a = await seedSession(request, "Draft chat A", []);
  const b = await seedSession(request, "Draft chat B", []);
  await page.goto(`/?session=${a}`);
  await expect(composer(page)).toBeEnabled();
  await composer(page).fill("Half a thought for A");

  // Another chat starts from its own (empty) draft: nothing typed for A follows.
  await openSession(page, b);
  await expect(composer(page)).toHaveValue("");
  await composer(page).fill("Notes for B");
  await openSession(page, a);
  await expect(composer(page)).toHaveValue("Half a thought for A");

  // A reload finds each chat's draft where it was.
  await page.reload();
  await expect(composer(page)).toHaveValue("Half a thought for A");
  await openSession(page, b);
  await expect(composer(page)).toHaveValue("Notes for B");

  // The server holds them too: a browser with nothing stored (another device) finds them.
  await expect.poll(async () => (await serverDraft(request, a)).text).toBe("Half a thought for A");
  await expect.poll(async () => (await serverDraft(request, b)).text).toBe("Notes for B");
  await page.evaluate(() => window.localStorage.clear());
  await page.goto(`/?session=${a}`);
  await expect(composer(page)).toHaveValue("Half a thought for A");

  // A file attached to the draft comes back as its chip after a reload.
  await page.getByLabel("Attach files").setInputFiles({ name: "plan.txt", mimeType: "text/plain", buffer: Buffer.from("Step one: water the garden.\n") });
  const chip = page.getByTestId("file-chip").filter({ hasText: "plan.txt" });
  await expect(chip).toHaveAttribute("data-status", "ready");
  await expect.poll(async () => (await serverDraft(request, a)).attachments.length).toBe(1);
  await page.reload();
  await expect(composer(page)).toHaveValue("Half a thought for A");
  await expect(page.getByTestId("file-chip").filter({ hasText: "plan.txt" })).toHaveAttribute("data-status", "ready");

  // Sent: the draft is gone, here, after a reload and on the server; B's stays.
  await composer(page).press("Enter");
  await expect(assistantMessages(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(composer(page)).toBeEnabled({ timeout: 30_000 });
  await expect(composer(page)).toHaveValue("");
  await expect(page.getByTestId("file-chip")).toHaveCount(0);
  await expect.poll(async () => (await serverDraft(request, a)).text).toBe("");
  await page.reload();
  await expect(composer(page)).toHaveValue("");
  await expect(page.getByTestId("file-chip")).toHaveCount(0);
  await openSession(page, b);
  await expect(composer(page)).toHaveValue("Notes for B");
});
