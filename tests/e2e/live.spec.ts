// Live sessions in the browser: two tabs on one session. A message sent in one appears in the
// other with its reply as it streams, without a reload, never as "(empty)" and never twice; a
// rename in one shows in the other; a tab that joins while a reply streams follows it too.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, currentSessionId, openNewConversation, resetFake, sendAndWait, typeAndSend, userMessages } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

/**
 * Watches a tab from now on, every animation frame: a reply shown as "(empty)", a reply shown
 * twice (saved and still streaming, or saved twice) are recorded, however briefly they appear.
 */
async function watchForGlitches(page: Page, marker: string): Promise<void> {
  await page.evaluate((mark) => {
    const w = window as unknown as { __glitches: string[] };
    w.__glitches = [];
    const check = () => {
      const replies = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')];
      if (replies.some((r) => (r.textContent ?? "").includes("(empty)"))) w.__glitches.push("a reply shown as (empty)");
      const saved = replies.filter((r) => (r.textContent ?? "").includes(mark)).length;
      const streaming = [...document.querySelectorAll('[data-testid="streaming-reply"]')].filter((r) => (r.textContent ?? "").includes(mark)).length;
      if (saved + streaming > 1) w.__glitches.push(`the reply shown ${saved + streaming} times`);
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, marker);
}

const glitches = (page: Page) => page.evaluate(() => (window as unknown as { __glitches: string[] }).__glitches);

test("a message sent in one tab streams into the other without a reload, never empty or twice; a rename shows too", async ({ page, context }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Hello there [[reply:Hello.]]");
  const id = await currentSessionId(page);

  const other = await context.newPage();
  await other.goto(`/?session=${id}`);
  await expect(assistantMessages(other)).toHaveCount(1);
  await watchForGlitches(other, "w39");

  const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
  await typeAndSend(page, `Tell me a long story [[slow:4000]] [[reply:${words.join(" ")}]]`);

  // The other tab shows the message and the reply growing, before it is finished.
  await expect(userMessages(other).last()).toContainText("Tell me a long story");
  const streaming = other.getByTestId("streaming-reply");
  await expect(streaming).toContainText("w3 ");
  expect(await streaming.textContent()).not.toContain("w39");
  await expect(other.getByTestId("composer-input")).toBeDisabled();

  // Then the saved reply, once, and the composer free again.
  await expect(assistantMessages(other).last()).toContainText("w39");
  await expect(assistantMessages(other).last()).toHaveAttribute("data-status", "complete");
  await expect(streaming).toHaveCount(0);
  await expect(assistantMessages(other)).toHaveCount(2);
  await expect(userMessages(other)).toHaveCount(2);
  await expect(other.getByTestId("composer-input")).toBeEnabled();
  await expect(assistantMessages(page)).toHaveCount(2);
  expect(await glitches(other)).toEqual([]);

  // A rename in the first tab's list shows in the other's header.
  await page.locator(`[data-testid=session-node][data-session-id="${id}"]`).first().getByTestId("session-menu").first().click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const field = page.getByTestId("session-rename-input");
  await field.fill("Renamed in the first tab");
  await field.press("Enter");
  await expect(other.getByTestId("session-title")).toHaveText("Renamed in the first tab");

  // And the other way round: the second tab sends, the first follows.
  await typeAndSend(other, "Now from the second tab [[reply:Answered in the second tab.]]");
  await expect(assistantMessages(page).last()).toContainText("Answered in the second tab.");
  await expect(assistantMessages(page)).toHaveCount(3);
  await expect(page.getByTestId("composer-input")).toBeEnabled();
});

test("a tab opened while a reply streams follows it to the end, shown once", async ({ page, context }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Start [[reply:Ready.]]");
  const id = await currentSessionId(page);
  // Long enough for the late tab to load and join on a busy machine (it took over 4 s at load 15).
  const words = Array.from({ length: 40 }, (_, i) => `x${i}`);
  // Slow enough that the late tab, loading on a busy machine, still finds it mid-way and sees x30 streaming.
  await typeAndSend(page, `Go slowly [[slow:15000]] [[reply:${words.join(" ")}]]`);
  await expect(page.getByTestId("streaming-reply")).toContainText("x2 ");

  const late = await context.newPage();
  await late.goto(`/?session=${id}`);
  await watchForGlitches(late, "x39");
  await expect(late.getByTestId("streaming-reply")).toContainText("x30 ");
  await expect(assistantMessages(late).last()).toContainText("x39");
  await expect(late.getByTestId("streaming-reply")).toHaveCount(0);
  await expect(assistantMessages(late)).toHaveCount(2);
  expect(await glitches(late)).toEqual([]);
});
