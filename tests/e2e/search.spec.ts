// Searching everything said: Ctrl/⌘ K or `/search` opens the dialog, a hit names its session
// and marks the words found, and Enter opens the session where it was said (paging back to it)
// with the message marked.
import { expect, test } from "@playwright/test";
import { resetFake, seedSession, typeAndSend, watchCsp } from "./support";

test.beforeEach(async ({ request }) => resetFake(request));

test("finds a message in another session by its words and opens it where it was said", async ({ page, request }) => {
  const violations = watchCsp(page);
  // A word no other test says, so the hits are this test's own.
  const word = `quillfeather${Date.now() % 1_000_000}`;
  // Scripted replies: the fake's default one echoes the message, which would be a second hit.
  const said = `[[reply:Noted.]] My sister lands in Lisbon on the 14th; her flight code is ${word}.`;
  const packing = Array.from({ length: 26 }, (_, i) => `[[reply:Noted.]] Packing list item ${i}: socks and chargers.`);
  const trip = await seedSession(request, "Trip plans", [said, ...packing]);
  const other = await seedSession(request, "Something else", ["[[reply:Noted.]] An unrelated note about the garden."]);

  await page.goto(`/?session=${other}`);
  await expect(page.locator('[data-testid="message"][data-seq="1"]')).toContainText("garden");
  await page.keyboard.press("Control+k");
  const dialog = page.getByTestId("history-search");
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("history-search-input")).toBeFocused();
  await page.getByTestId("history-search-input").fill(`${word} flight`);

  const hit = page.getByTestId("history-hit").first();
  await expect(hit).toContainText("Trip plans");
  await expect(hit).toContainText("You");
  await expect(hit.locator("mark")).toHaveText(["flight", word]);
  await expect(hit).toHaveAttribute("aria-selected", "true");

  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`session=${trip}`));
  // Seq 1 is 52 messages back: the list paged older messages in to reach it.
  const target = page.locator('[data-testid="message"][data-seq="1"]');
  await expect(target).toContainText(word);
  await expect(target).toHaveAttribute("data-jump-target", "true");
  await expect(target).toBeFocused();
  expect(violations).toEqual([]);
});

test("/search opens it with the words; nothing found says so; Escape closes", async ({ page, request }) => {
  const word = `brindlewick${Date.now() % 1_000_000}`;
  const session = await seedSession(request, "Recipes", [`[[reply:Noted.]] The secret ingredient is ${word} honey.`]);
  await page.goto(`/?session=${session}`);
  await expect(page.locator('[data-testid="message"][data-seq="1"]')).toBeVisible();

  await typeAndSend(page, `/search ${word}`);
  await expect(page.getByTestId("history-search-input")).toHaveValue(word);
  const first = page.getByTestId("history-hit").first();
  await expect(first).toContainText("Recipes");
  await expect(first.locator("mark")).toHaveText(word);

  await page.getByTestId("history-search-input").fill("zyzzogetonqx nothingmatches");
  await expect(page.getByTestId("history-search-empty")).toHaveText("Nothing found for “zyzzogetonqx nothingmatches”.");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("history-search")).toHaveCount(0);
  // The composer was not sent anything: /search is a command, not a message.
  await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveCount(1);
});

test("while Claude replies, Escape closes the search without stopping the reply, and other sessions wait", async ({ page, request }) => {
  const word = `tamberlock${Date.now() % 1_000_000}`;
  await seedSession(request, "Elsewhere", [`[[reply:Noted.]] The spare key is under the ${word} pot.`]);
  const here = await seedSession(request, "Here", ["[[reply:Noted.]] Hello."]);
  await page.goto(`/?session=${here}`);
  await expect(page.locator('[data-testid="message"][data-seq="2"]')).toBeVisible();
  await typeAndSend(page, "Tell me a story [[slow:4000]] [[reply:Once upon a time there was a lighthouse keeper who counted ships.]]");
  await expect(page.getByTestId("stop-button")).toBeVisible();

  await page.keyboard.press("Control+k");
  await page.getByTestId("history-search-input").fill(word);
  await expect(page.getByTestId("history-hit").first()).toContainText("Elsewhere");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("history-search")).toContainText("Claude is still replying here");
  await expect(page).toHaveURL(new RegExp(`session=${here}`));
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("history-search")).toHaveCount(0);
  await expect(page.getByTestId("stop-button")).toBeVisible();
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText("lighthouse keeper", { timeout: 15_000 });
  await expect(page.getByTestId("interrupted-notice")).toHaveCount(0);
});
