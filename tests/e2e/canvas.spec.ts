// The canvas in the browser, through the real tool loop against the fake Anthropic server:
// Claude's tool calls put elements on the panel while the reply streams, the chat shows each
// call as one line, the canvas survives a reload, the user removes and clears, answers a
// question with its buttons, and reads it all on a phone in a sheet.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, enqueueFake, openNewConversation, resetFake, typeAndSend, userMessages, watchCsp } from "./support";

test.beforeEach(async ({ request }) => resetFake(request));

const panel = (page: Page) => page.getByTestId("canvas-panel");
const element = (page: Page, id: string) => page.locator(`[data-testid="canvas-element"][data-element-id="${id}"]`);
/** The class itself, not a `dark:` variant among the utilities. */
const DARK = /(^|\s)dark(\s|$)/;
const WEATHER = `[[tool_use:canvas_add_card {"id":"weather","title":"Today's weather","body":"21 °C"}]]`;

/** Sends a message and waits for the whole turn (a tool round adds a reply per round). */
async function sendAndWait(page: Page, text: string): Promise<void> {
  const before = await userMessages(page).count();
  await typeAndSend(page, text);
  await expect(userMessages(page)).toHaveCount(before + 1, { timeout: 30_000 });
  await expect(page.getByTestId("composer-input")).toBeEnabled({ timeout: 30_000 });
}

/** A reload opens the session in the URL again. */
async function reloadIntoSession(page: Page): Promise<void> {
  await page.reload();
  await expect(page.getByTestId("message").first()).toBeVisible();
}

test("a card Claude adds appears in the panel, is one line in the chat, survives a reload, and its × removes it for good", async ({ page }) => {
  const violations = watchCsp(page);
  await openNewConversation(page);
  await sendAndWait(page, `What's the weather? ${WEATHER} [[reply:Putting it on the canvas.]]`);

  // The panel opens by itself the first time something is on the canvas.
  const card = element(page, "weather");
  await expect(panel(page)).toBeVisible();
  await expect(card).toContainText("Today's weather");
  await expect(card).toContainText("21 °C");
  await expect(page.getByTestId("canvas-count")).toHaveText("1");

  // The chat says what happened, not the tool's JSON.
  const line = page.getByTestId("canvas-call");
  await expect(line).toHaveText("Added card “Today's weather”");
  await expect(page.getByTestId("tool-results")).toHaveText("Added card “Today's weather”");
  await expect(assistantMessages(page).first()).not.toContainText("canvas_add_card");
  await expect(userMessages(page)).toHaveCount(1);

  await reloadIntoSession(page);
  await expect(element(page, "weather")).toContainText("21 °C");
  await expect(page.getByTestId("canvas-call")).toHaveText("Added card “Today's weather”");

  await element(page, "weather").getByRole("button", { name: "Remove “Today's weather” from the canvas" }).click();
  await expect(element(page, "weather")).toHaveCount(0);
  await expect(page.getByTestId("canvas-empty")).toBeVisible();
  await expect(page.getByTestId("canvas-count")).toHaveCount(0);

  await reloadIntoSession(page);
  // Hidden by default again once empty, unless the user asked for it: open it to look.
  if (!(await panel(page).isVisible())) await page.getByTestId("open-canvas").click();
  await expect(page.getByTestId("canvas-empty")).toBeVisible();
  await expect(element(page, "weather")).toHaveCount(0);
  expect(violations).toEqual([]);
});

test("media Claude puts on the canvas loads only once the user shows its host", async ({ page }) => {
  const host = "images.example.test";
  const fetched: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes(host)) fetched.push(r.url());
  });
  await openNewConversation(page);
  const url = `https://${host}/cat.png?note=what-claude-was-told`;
  await sendAndWait(page, `A cat [[tool_use:canvas_play_media {"id":"cat","media_type":"image","url":"${url}","alt":"A cat on a mat"}]] [[reply:Here.]]`);

  const media = element(page, "cat");
  await expect(media.getByTestId("canvas-media-held")).toContainText("A cat on a mat");
  await expect(media.locator("img")).toHaveCount(0);
  await reloadIntoSession(page);
  await expect(element(page, "cat").getByTestId("canvas-media-held")).toBeVisible();
  expect(fetched).toEqual([]);

  // One click for the host: the image is asked for (and, offline, says it could not load).
  await element(page, "cat").getByRole("button", { name: `Show media from ${host}` }).click();
  await expect(element(page, "cat")).toContainText(`Could not load this image from ${host}.`);
  expect(fetched).toEqual([url]);
});

test("elements appear while the reply is still streaming; a refused call is a red line; Clear asks first", async ({ page, request }) => {
  await openNewConversation(page);
  await sendAndWait(page, `Start ${WEATHER}`);
  // The first turn's title is written by a call of its own: let it pass before queueing replies.
  await expect(page.getByTestId("session-title")).not.toHaveText(/^(Untitled session|New conversation)$/, { timeout: 30_000 });

  // Claude charts something, then takes its time over the words that follow.
  await enqueueFake(request, [
    {
      kind: "tool_use",
      name: "canvas_show_chart",
      input: { id: "temps", title: "This week", chart_type: "bar", x_key: "day", y_keys: ["high"], data: [{ day: "Mon", high: 21 }, { day: "Tue", high: 23 }] },
    },
    { kind: "slow", delayMs: 6_000, text: "There is the chart." },
  ]);
  await typeAndSend(page, "Chart the week");
  await expect(element(page, "temps").getByTestId("canvas-chart")).toBeVisible({ timeout: 30_000 });
  // The reply has not finished: the composer is still busy.
  await expect(page.getByTestId("composer-input")).toBeDisabled();
  await expect(assistantMessages(page).last()).not.toContainText("There is the chart.");
  await expect(assistantMessages(page).last()).toContainText("There is the chart.", { timeout: 30_000 });

  await sendAndWait(page, 'Remove the forecast [[tool_use:canvas_remove_element {"id":"forecast"}]]');
  const failed = page.locator('[data-testid="canvas-call"][data-kind="error"]');
  await expect(failed).toContainText('Could not remove from the canvas: No element with id "forecast" is on the canvas.');

  await panel(page).getByTestId("canvas-clear").click();
  await expect(element(page, "temps")).toBeVisible();
  await page.getByTestId("canvas-clear-confirm").click();
  await expect(page.getByTestId("canvas-element")).toHaveCount(0);
  await reloadIntoSession(page);
  await expect(page.getByTestId("canvas-count")).toHaveCount(0);
});

test("a question's button sends the choice as the next message and stays marked", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, 'Book it? [[tool_use:canvas_show_confirmation {"id":"book","title":"Book the 08:15 train?","options":["Book it","Not now"]}]]');
  const question = element(page, "book");
  await expect(question).toContainText("Book the 08:15 train?");

  await question.getByRole("button", { name: "Book it" }).click();
  await expect(userMessages(page).last()).toContainText("Book it");
  await expect(page.getByTestId("composer-input")).toBeEnabled({ timeout: 30_000 });
  await expect(question.getByRole("button", { name: "Book it" })).toHaveAttribute("aria-pressed", "true");
  await expect(question.getByRole("button", { name: "Not now" })).toBeDisabled();

  await reloadIntoSession(page);
  await expect(element(page, "book").getByTestId("canvas-chosen")).toHaveText("You chose “Book it”.");
  await expect(element(page, "book").getByRole("button", { name: "Not now" })).toBeDisabled();
});

test("on a phone the canvas is a sheet opened from the header, with a count", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openNewConversation(page);
  await sendAndWait(page, `Weather please ${WEATHER}`);

  // Nothing covers the chat until asked for.
  await expect(page.getByTestId("canvas-sheet")).toHaveCount(0);
  await expect(panel(page)).toHaveCount(0);
  const button = page.getByTestId("open-canvas");
  await expect(button.getByTestId("canvas-count")).toHaveText("1");
  await button.click();
  const sheet = page.getByTestId("canvas-sheet");
  await expect(sheet).toBeVisible();
  await expect(sheet.getByTestId("canvas-element")).toContainText("Today's weather");
  const box = await sheet.boundingBox();
  expect(box?.width).toBe(390);
  await page.keyboard.press("Escape");
  await expect(sheet).toHaveCount(0);
});

test("a notification is a toast read out politely; a theme switch darkens the panel alone", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await openNewConversation(page);
  await sendAndWait(page, `Card first ${WEATHER}`);
  await sendAndWait(page, 'Tell me [[tool_use:canvas_show_notification {"message":"Forecast updated","level":"success"}]]');
  const toast = page.getByTestId("canvas-toast");
  await expect(toast).toHaveText("Forecast updated");
  // Over the chat, not over the canvas it reports on.
  const [toastBox, panelBox] = [await toast.boundingBox(), await panel(page).boundingBox()];
  expect(toastBox!.x + toastBox!.width).toBeLessThanOrEqual(panelBox!.x);
  await expect(page.getByRole("region", { name: "Notifications" })).toHaveAttribute("aria-live", "polite");
  await toast.getByRole("button", { name: "Dismiss notification" }).click();
  await expect(toast).toHaveCount(0);

  const cardBackground = () => element(page, "weather").evaluate((el) => getComputedStyle(el).backgroundColor);
  const lightCard = await cardBackground();
  await sendAndWait(page, 'Go dark [[tool_use:canvas_set_theme {"theme":"dark"}]]');
  await expect(panel(page)).toHaveClass(DARK);
  await expect(page.locator("html")).not.toHaveClass(DARK);
  expect(await cardBackground()).not.toBe(lightCard);
  // Shown, not kept: a reload brings the page's own theme back.
  await reloadIntoSession(page);
  await expect(panel(page)).not.toHaveClass(DARK);
});

test("Settings → Tools turns the canvas tools off and sets the canvas budget, kept across a reload", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, "hello [[reply:hi]]");
  await page.getByTestId("open-settings").click();
  const tools = page.getByTestId("settings-canvas-tools");
  await expect(tools).toBeChecked();
  await expect(page.getByTestId("settings-canvasBudget")).toHaveValue("5");
  await tools.uncheck();
  await page.getByTestId("settings-canvasBudget").fill("31");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-error")).toHaveText("Canvas budget must be between 1% and 30%.");
  await page.getByTestId("settings-canvasBudget").fill("12");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-panel")).toContainText("Saved.");

  await reloadIntoSession(page);
  await page.getByTestId("open-settings").click();
  await expect(page.getByTestId("settings-canvas-tools")).not.toBeChecked();
  await expect(page.getByTestId("settings-canvasBudget")).toHaveValue("12");
});
