// Keyboard and screen-reader use of the main pages: axe-core finds no serious or critical
// violation in either theme, dialogs take focus, keep it and give it back, search reopens
// with its last query selected, and the token bar says how full it is in words.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { resetFake, seedSession, sendAndWait } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`);
}

for (const scheme of ["light", "dark"] as const) {
  test(`no serious or critical axe violations on the chat, the dashboard and the activity page (${scheme})`, async ({ page, request }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const id = await seedSession(request, "Accessible chat", ["Explain the **release plan**.\n\n```ts\nconst ok = true;\n```"]);
    await page.goto(`/?session=${id}`);
    await expect(page.getByTestId("message")).toHaveCount(2);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId("open-settings").click();
    await expect(page.getByTestId("settings-panel")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");

    for (const path of ["/dashboard", "/activity"]) {
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      await page.waitForLoadState("networkidle");
      expect(await seriousViolations(page), path).toEqual([]);
    }
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
