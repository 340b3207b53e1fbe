// Importing from the Account settings: files chosen, each with a progress bar to its end, its
// counts and what failed; the imported conversations in the list with their own dates.
import path from "node:path";
import { expect, test } from "@playwright/test";
import { resetFake } from "./support";

test.beforeEach(async ({ request }) => resetFake(request));

const fixture = (name: string) => path.join(__dirname, "../fixtures/import", name);

test("ChatGPT and Claude.ai exports import from the settings, with progress, counts and failures", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("account-settings-link").locator("visible=true").first().click();
  const section = page.getByTestId("import-section");
  await section.scrollIntoViewIfNeeded();
  await section.getByTestId("import-file-input").setInputFiles([fixture("chatgpt-conversations.json"), fixture("claude-conversations.json")]);

  const items = section.getByTestId("import-item");
  await expect(items).toHaveCount(2);
  for (const item of await items.all()) await expect(item).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(items.filter({ hasText: "chatgpt-conversations.json" }).getByTestId("import-counts")).toHaveText("ChatGPT · 1 conversation imported · 1 failed");
  await expect(items.filter({ hasText: "claude-conversations.json" }).getByTestId("import-counts")).toHaveText("Claude.ai · 1 conversation imported · 1 failed");
  await expect(items.first().getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await items.filter({ hasText: "chatgpt-conversations.json" }).getByText("What failed").click();
  await expect(items.filter({ hasText: "chatgpt-conversations.json" })).toContainText("Broken: the conversation has no message tree (mapping)");

  // Offered once done: archive the imported conversations into memories, followed to its end.
  const claude = items.filter({ hasText: "claude-conversations.json" });
  await claude.getByTestId("import-archive-button").click();
  await expect(claude.getByTestId("import-archive")).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  await expect(claude.getByTestId("import-archive-phase")).toHaveText("Archived into memories: 1 of 1 conversation");
  await expect(claude.getByTestId("import-archive-button")).toHaveCount(0);

  // The conversations are in the list, and open with their messages.
  await page.keyboard.press("Escape");
  const imported = page.getByTestId("session-item").filter({ hasText: "Sourdough starter" });
  await expect(imported).toBeVisible();
  await imported.click();
  // The current branch shown; the other (the ratio question) one click away as an earlier version.
  await expect(page.getByTestId("message")).toHaveCount(4);
  await expect(page.getByTestId("message").last()).toContainText("75 % hydration.");
  const edited = page.getByTestId("message").nth(2);
  await expect(edited.getByTestId("version-position")).toHaveText("2 / 2");
  await edited.getByRole("button", { name: "Previous version" }).click();
  await expect(page.getByTestId("message").nth(2)).toContainText("What ratio of flour to water?");

  // Everything, as one ZIP.
  await page.getByTestId("account-settings-link").locator("visible=true").first().click();
  const [zip] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-everything").click()]);
  expect(zip.suggestedFilename()).toMatch(/^threadkeeper-export-\d{4}-\d{2}-\d{2}\.zip$/);
  await page.keyboard.press("Escape");

  // A file that is no export says which formats are understood.
  await page.getByTestId("account-settings-link").locator("visible=true").first().click();
  await page.getByTestId("import-file-input").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just notes") });
  const bad = page.getByTestId("import-item").first();
  await expect(bad).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  await expect(bad.getByTestId("import-phase")).toContainText("Threadkeeper imports ChatGPT exports");
});
