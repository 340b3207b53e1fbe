// Keyboard and screen-reader use of the main pages: axe-core finds no serious or critical
// violation in either theme, dialogs take focus, keep it and give it back, search reopens
// with its last query selected, and the token bar says how full it is in words.
import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./axe";
import { resetFake, seedSession, sendAndWait } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await seriousViolations(page), where).toEqual([]);
}

for (const scheme of ["light", "dark"] as const) {
  test(`no serious or critical axe violations in the workspace, its tooltip, panels and dialogs (${scheme})`, async ({ page, request }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const id = await seedSession(request, "Accessible chat", ["Explain the **release plan**.\n\n```ts\nconst ok = true;\n```"]);
    await page.goto(`/?session=${id}`);
    await expect(page.getByTestId("message")).toHaveCount(2);
    await expect(page.getByTestId("session-item").first()).toBeVisible();
    await expectAccessible(page, "chat");

    // The token bar's tooltip: its figures are a definition list.
    await page.getByTestId("token-bar").hover();
    await expect(page.getByTestId("token-bar-tooltip")).toBeVisible();
    await expectAccessible(page, "token tooltip");
    await page.mouse.move(640, 500);

    await page.getByTestId("open-settings").click();
    await expect(page.getByTestId("settings-panel")).toBeVisible();
    await expectAccessible(page, "session settings");
    await page.getByTestId("open-account-settings").click();
    await expect(page.getByTestId("account-settings-panel")).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectAccessible(page, "account settings");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("account-settings-panel")).toHaveCount(0);

    for (const [opener, panel] of [["open-checkpoints", "checkpoint-panel"], ["open-memory", "memory-panel"]] as const) {
      await page.getByTestId(opener).click();
      await expect(page.getByTestId(panel)).toBeVisible();
      await page.waitForLoadState("networkidle");
      await expectAccessible(page, panel);
      await page.keyboard.press("Escape");
      await expect(page.getByTestId(panel)).toHaveCount(0);
    }

    await page.keyboard.press("Control+k");
    await page.getByRole("combobox", { name: /search/i }).fill("release");
    await expect(page.getByTestId("history-hit").first()).toBeVisible();
    await expectAccessible(page, "history search");
    await page.keyboard.press("Escape");

    await page.getByTestId("open-picker").click();
    await expect(page.getByTestId("session-picker")).toBeVisible();
    await expectAccessible(page, "session picker");
  });

  test(`no serious or critical axe violations on the dashboard, the activity page and the API docs (${scheme})`, async ({ page, request }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await seedSession(request, "Something to chart", ["Count the release tasks."]);
    for (const path of ["/dashboard", "/activity"]) {
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      await page.waitForLoadState("networkidle");
      await expectAccessible(page, path);
    }

    await page.goto("/docs");
    await expect(page.locator(".swagger-ui .info .title")).toContainText("Threadkeeper API", { timeout: 30_000 });
    // One pass over the whole document (axe over Swagger UI's thousands of nodes is the slow
    // part of this file), with an operation opened: its example and "Try it out" form showing.
    const create = page.locator("#operations-Sessions-createSession");
    await create.locator(".opblock-summary-control").click();
    await create.getByRole("button", { name: "Try it out" }).click();
    await expect(create.getByRole("button", { name: "Execute" })).toBeVisible();
    await expectAccessible(page, "/docs, an operation open");
  });
}

test("focus: the composer on open, dialogs keep it and give it back, Ctrl K reopens with the last query selected", async ({ page, request }) => {
  const id = await seedSession(request, "Keyboard", ["Where is the walrus ledger kept?"]);
  await page.goto(`/?session=${id}`);
  const composer = page.getByTestId("composer-input");
  await expect(composer).toBeFocused();
  await expect(page.getByTestId("message")).toHaveCount(2);
  await sendAndWait(page, "And the narwhal ledger? [[reply:In Oslo.]]");
  await expect(composer).toBeFocused();

  // The token bar in words, the level named as well as coloured.
  await expect(page.getByTestId("token-bar")).toHaveAttribute("aria-label", /^\d+(\.\d)?% used, [\d.]+K? of [\d.]+K tokens, compaction at 80%, normal$/);

  // Search: opened from the keyboard, its query kept and selected when it opens again.
  await page.keyboard.press("Control+k");
  const input = page.getByRole("combobox", { name: /search/i });
  await expect(input).toBeFocused();
  await input.fill("walrus");
  await expect(page.getByTestId("history-hit").first()).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(composer).toBeFocused();
  await page.keyboard.press("Control+k");
  await expect(input).toBeFocused();
  await expect(input).toHaveValue("walrus");
  expect(await input.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd])).toEqual([0, 6]);
  await page.keyboard.press("Escape");

  // Settings: focus goes in, Tab cannot leave the dialog, Escape gives focus back to the button.
  const opener = page.getByTestId("open-settings");
  await opener.focus();
  await page.keyboard.press("Enter");
  const panel = page.getByTestId("settings-panel");
  await expect(panel).toBeVisible();
  for (const key of [...Array(30).fill("Tab"), ...Array(30).fill("Shift+Tab")] as string[]) {
    await page.keyboard.press(key);
    expect(await panel.evaluate((el) => el.contains(document.activeElement)), key).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(opener).toBeFocused();
});
