// The session list: grouped by when each was used, forks under their source, and a menu on
// each item to rename, pin, archive or delete (with undo), from the mouse and the keyboard.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { resetFake, seedSession } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

async function forkOf(request: APIRequestContext, sessionId: string): Promise<string> {
  const saved = await request.post("/api/checkpoint/save", { data: { session_id: sessionId, label: "before the fork" } });
  expect(saved.status()).toBe(201);
  const { checkpoint } = (await saved.json()) as { checkpoint: { id: string } };
  const fork = await request.post(`/api/checkpoint/${checkpoint.id}/restore`, { data: {} });
  expect(fork.status()).toBe(201);
  return ((await fork.json()) as { session: { id: string } }).session.id;
}

const node = (page: Page, id: string) => page.locator(`[data-testid=session-node][data-session-id="${id}"]`).first();
const group = (page: Page, key: string) => page.locator(`[data-testid=session-group][data-group=${key}]`);
const menuOf = (page: Page, id: string) => node(page, id).getByTestId("session-menu").first();

test("the list groups sessions by day, nests forks, and pins, renames, archives and deletes with undo", async ({ page, request }) => {
  const plan = await seedSession(request, "Quarterly plan", ["Draft the Q3 plan for the Oslo office."]);
  const fork = await forkOf(request, plan);
  const notes = await seedSession(request, "Reading notes", ["Summarize chapter two of the reading."]);
  await page.goto(`/?session=${notes}`);

  // Used today; the fork sits under its source.
  await expect(group(page, "today").getByTestId("session-item").filter({ hasText: "Reading notes" })).toBeVisible();
  await expect(node(page, plan).locator(`[data-testid=session-item][data-session-id="${fork}"]`)).toBeVisible();
  await expect(node(page, plan).getByRole("list", { name: "Forks of Quarterly plan" })).toBeVisible();

  // Pin from the menu: the session moves to Pinned, and stays there after a reload.
  await menuOf(page, plan).click();
  await page.getByRole("menuitem", { name: "Pin" }).click();
  await expect(group(page, "pinned").locator(`[data-testid=session-item][data-session-id="${plan}"]`)).toBeVisible();
  await page.reload();
  await expect(group(page, "pinned").locator(`[data-testid=session-item][data-session-id="${plan}"]`)).toBeVisible();

  // Rename from the keyboard: the menu takes focus, Enter renames in place, Escape gives focus back.
  await menuOf(page, notes).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Rename" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Pin" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await expect(menuOf(page, notes)).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  const field = page.getByTestId("session-rename-input");
  await expect(field).toBeFocused();
  await field.fill("Chapter two notes");
  await field.press("Enter");
  await expect(node(page, notes).getByTestId("session-item")).toContainText("Chapter two notes");
  await expect(page.getByTestId("session-title")).toHaveText("Chapter two notes");

  // Archive: the session (with its fork) folds under Archived, and comes back.
  await menuOf(page, plan).click();
  await page.getByRole("menuitem", { name: "Archive" }).click();
  // Other tests may have archived sessions too: count none here, find this one.
  await expect(page.getByTestId("toggle-archived")).toHaveText(/Archived \(\d+\)/);
  await expect(page.locator(`[data-testid=session-item][data-session-id="${plan}"]`)).toHaveCount(0);
  await page.getByTestId("toggle-archived").click();
  await expect(group(page, "archived").locator(`[data-testid=session-item][data-session-id="${fork}"]`)).toBeVisible();
  await menuOf(page, plan).click();
  await page.getByRole("menuitem", { name: "Unarchive" }).click();
  await expect(group(page, "pinned").locator(`[data-testid=session-item][data-session-id="${plan}"]`)).toBeVisible();

  // Delete the open session: it goes at once and can be brought back; left alone, it is gone.
  await menuOf(page, notes).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(page.getByTestId("session-deleted")).toContainText("Chapter two notes");
  await expect(node(page, notes)).toHaveCount(0);
  await expect(page).not.toHaveURL(new RegExp(notes));
  await page.getByTestId("session-undo-delete").click();
  await expect(node(page, notes)).toBeVisible();
  expect((await request.get(`/api/session/${notes}`)).status()).toBe(200);

  // Its draft in this browser goes with it.
  const draftKey = `threadkeeper.draft.${notes}`;
  await page.evaluate((key) => window.localStorage.setItem(key, JSON.stringify({ text: "unsent", savedAt: Date.now() })), draftKey);
  await menuOf(page, notes).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(page.getByTestId("session-deleted")).toHaveCount(0, { timeout: 10_000 });
  await expect.poll(async () => (await request.get(`/api/session/${notes}`)).status()).toBe(404);
  await expect.poll(() => page.evaluate((key) => window.localStorage.getItem(key), draftKey)).toBeNull();
  await page.reload();
  await expect(node(page, plan)).toBeVisible();
  await expect(node(page, notes)).toHaveCount(0);
});

test("a session exports from its menu as Markdown and as JSON", async ({ page, request }) => {
  const id = await seedSession(request, "Export me", ["Where is the walrus ledger kept?"]);
  await page.goto(`/?session=${id}`);
  await menuOf(page, id).click();
  const [md] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Export as Markdown" }).click()]);
  expect(md.suggestedFilename()).toBe("Export me.md");
  const text = await (await md.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  expect(text).toContain("# Export me");
  expect(text).toContain("Where is the walrus ledger kept?");

  await menuOf(page, id).click();
  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Export as JSON" }).click()]);
  expect(json.suggestedFilename()).toBe("Export me.json");
  const doc = JSON.parse(await (await json.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"))) as { format: string; messages: unknown[] };
  expect(doc.format).toBe("threadkeeper-export");
  expect(doc.messages.length).toBeGreaterThanOrEqual(2);
});
