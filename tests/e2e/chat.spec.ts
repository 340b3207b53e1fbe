import { expect, test } from "@playwright/test";
import {
  assistantMessages,
  currentSessionId,
  enqueueFake,
  fakeRequests,
  filler,
  loadedMessages,
  messages,
  putSessionSettings,
  resetFake,
  scrollListTo,
  sendAndWait,
  tokenBarUsed,
  typeAndSend,
  usagePercent,
  userMessages,
  openNewConversation,
} from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

test("a reply streams in, the token bar moves, and a reload shows the same conversation", async ({ page }) => {
  await openNewConversation(page);
  await expect(page.getByTestId("token-bar")).toBeVisible();
  await expect(tokenBarUsed(page)).toHaveAttribute("data-percent", "0");

  const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
  await typeAndSend(page, `Tell me a long story [[slow:4000]] [[reply:${words.join(" ")}]]`);

  // Partial state: the first words are on screen while the last has not arrived yet.
  const streaming = page.getByTestId("streaming-reply");
  await expect(streaming).toContainText("w1 ");
  expect(await streaming.textContent()).not.toContain("w39");
  await expect(page.getByTestId("streaming-caret")).toBeVisible();
  await expect(page.getByTestId("composer-input")).toBeDisabled();

  // Final state: the saved reply replaces the stream.
  const reply = assistantMessages(page).last();
  await expect(reply).toContainText("w39");
  await expect(reply).toHaveAttribute("data-status", "complete");
  await expect(streaming).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]session=[0-9a-f-]{36}/);

  await expect.poll(() => usagePercent(page)).toBeGreaterThan(0);
  const afterFirst = await usagePercent(page);

  await sendAndWait(page, `A second message with more words in it: ${filler(300)}`);
  await expect.poll(() => usagePercent(page)).toBeGreaterThan(afterFirst);
  const afterSecond = await usagePercent(page);
  await expect(messages(page)).toHaveCount(4);

  // Hover shows the exact figures.
  await page.getByTestId("token-bar").hover();
  const tooltip = page.getByTestId("token-bar-tooltip");
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText("Capacity");
  await expect(tooltip).toContainText("140,000");
  await expect(tooltip).toContainText(/Measured by the API|Estimated locally/);
  // Two replies from the fake API were billed: the session's cost is shown, never $0.00.
  await expect(page.getByTestId("token-bar-cost")).toContainText(/So far\s*\$0\.0*[1-9]/);
  await expect(page.getByTestId("token-bar-cost")).toContainText(/Input read from cache\s*\d+%/);

  await page.reload();
  await expect(messages(page)).toHaveCount(4);
  await expect(assistantMessages(page).first()).toContainText("w39");
  await expect.poll(() => usagePercent(page)).toBeGreaterThan(0);
  expect(Math.abs((await usagePercent(page)) - afterSecond)).toBeLessThan(1);
});

test("a protected message keeps its badge after a reload", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, "First turn: the task [[reply:Understood.]]");
  await sendAndWait(page, "Remember: the deploy key lives in vault/prod [[reply:Noted.]]");

  // The first turn is always kept, and says so.
  await expect(userMessages(page).first().getByTestId("first-turn-badge")).toBeVisible();

  const target = userMessages(page).nth(1);
  await expect(target.getByTestId("protected-badge")).toHaveCount(0);
  const toggle = target.getByTestId("protect-toggle");
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(target.getByTestId("protected-badge")).toHaveText("Protected");

  await page.reload();
  const reloaded = userMessages(page).nth(1);
  await expect(reloaded).toContainText("vault/prod");
  await expect(reloaded.getByTestId("protected-badge")).toBeVisible();
  await expect(reloaded.getByTestId("protect-toggle")).toHaveAttribute("aria-pressed", "true");
});

test("a failed reply shows the error inline and Retry answers it", async ({ page, request }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Hello [[reply:Hi.]]");

  // More failures than any retry policy absorbs, so the error reaches the UI.
  await enqueueFake(request, Array.from({ length: 8 }, () => ({ kind: "error", status: 500 })));
  await typeAndSend(page, "This one will fail");
  const error = page.getByTestId("send-error");
  await expect(error).toBeVisible({ timeout: 60_000 });
  await expect(error.getByRole("button", { name: "Retry" })).toBeEnabled();

  await resetFake(request);
  await error.getByRole("button", { name: "Retry" }).click();
  await expect(error).toHaveCount(0);
  const reply = assistantMessages(page).last();
  await expect(reply).toContainText("Echo: This one will fail");
  await expect(reply).toHaveAttribute("data-status", "complete");
  // Retrying answers the saved message again instead of posting it twice.
  await expect(userMessages(page).filter({ hasText: "This one will fail" })).toHaveCount(1);
});

test("a dropped stream keeps the partial reply as interrupted, and a successful Retry replaces it, also after a reload", async ({ page, request }) => {
  await openNewConversation(page);
  await enqueueFake(request, [{ kind: "drop", text: "one two three four five six seven eight", afterChunks: 3 }]);
  await typeAndSend(page, "Tell me something");
  const interrupted = assistantMessages(page).last();
  await expect(interrupted).toHaveAttribute("data-status", "interrupted", { timeout: 30_000 });
  await expect(interrupted).toContainText("one two");
  await expect(interrupted).not.toContainText("eight");
  await expect(interrupted.getByTestId("interrupted-notice")).toContainText("Reply interrupted");

  const error = page.getByTestId("send-error");
  await expect(error).toBeVisible();
  await error.getByRole("button", { name: "Retry" }).click();
  const reply = assistantMessages(page).last();
  await expect(reply).toHaveAttribute("data-status", "complete");
  await expect(reply).toContainText("Echo: Tell me something");
  await expect(error).toHaveCount(0);
  // The retried reply takes the failed attempt's place: one reply, complete, here and after a reload.
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).first()).toHaveAttribute("data-status", "complete");
  await expect(page.getByTestId("interrupted-notice")).toHaveCount(0);
  await page.reload();
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).first()).toContainText("Echo: Tell me something");
  await expect(page.getByTestId("interrupted-notice")).toHaveCount(0);
});

test("the bar turns yellow then red as the session fills, then the window slides", async ({ page }) => {
  test.setTimeout(240_000);
  await openNewConversation(page);
  await sendAndWait(page, "First turn: we are filling the window on purpose [[reply:Ready.]]");
  // Automatic compaction would condense the old turns before they ever slide; this test is
  // about the sliding window that takes over when compaction is off (compaction.spec.ts covers it).
  await putSessionSettings(page.request, await currentSessionId(page), { auto_compact: false });
  await sendAndWait(page, `Second turn, the oldest that can slide out. ${filler(2_000, 1)} [[reply:ok]]`);

  // Each step is ~13.6 % of the 140K capacity: smaller than the 15-point yellow band, so
  // the bar must pass through yellow before red.
  const seen: string[] = [await tokenBarUsed(page).getAttribute("data-status") ?? ""];
  const cutoff = page.getByTestId("cutoff-marker");
  const slid = page.getByTestId("send-notice").filter({ hasText: "slid out" });
  for (let i = 0; i < 12; i++) {
    await sendAndWait(page, `Chunk ${i}. ${filler(19_000, i)} [[reply:ok ${i}]]`, { timeout: 60_000 });
    const status = (await tokenBarUsed(page).getAttribute("data-status")) ?? "";
    if (seen[seen.length - 1] !== status) seen.push(status);
    // The send that slid the window says so; the marker may render a moment after the reply,
    // so a further send must not be made while it is on its way. Either stops the filling.
    if ((await slid.count()) > 0 || (await cutoff.count()) > 0) break;
  }

  expect(seen).toContain("warning");
  expect(seen).toContain("critical");
  expect(seen.indexOf("warning")).toBeLessThan(seen.indexOf("critical"));
  await expect(tokenBarUsed(page)).toHaveClass(/animate-tk-pulse/);

  // Claude's view now begins after the slid-out turns; the first turn stays kept. (The list
  // draws only the rows near the view, so it is scrolled to what is checked.)
  await scrollListTo(page, cutoff);
  await expect(cutoff).toBeVisible();
  await expect(cutoff).toContainText("Claude's view begins here");
  // The marker stands right before the first message Claude still sees.
  await expect(cutoff.locator('xpath=following-sibling::*[@data-testid="message"][1]')).toHaveAttribute("data-in-window", "true");
  await scrollListTo(page, userMessages(page).first());
  const first = userMessages(page).first();
  await expect(first).toHaveAttribute("data-in-window", "true");
  await expect(first.getByTestId("first-turn-badge")).toBeVisible();
  const second = userMessages(page).nth(1);
  await expect(second).toHaveAttribute("data-in-window", "false");
  await expect(second).toHaveClass(/opacity-45/);
  // Not the "slid out" send notice: it is transient (cleared by the next send or a reopen), and a
  // slow machine can miss it; the marker, the dimmed turn and the window flags above are the state.

  // The newest exchange, at the bottom, is in Claude's view.
  await page.getByTestId("message-list").evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(userMessages(page).last()).toHaveAttribute("data-in-window", "true");

  // The slide survives a reload: it is the server's window, not client state.
  await page.reload();
  await expect(messages(page).first()).toBeVisible();
  await scrollListTo(page, page.getByTestId("cutoff-marker"));
  await expect(page.getByTestId("cutoff-marker")).toBeVisible();
  await scrollListTo(page, userMessages(page).first());
  await expect(userMessages(page).nth(1)).toHaveAttribute("data-in-window", "false");
});

test("older messages load on demand and the session survives in the URL", async ({ page, request }) => {
  const created = await request.post("/api/session", { data: { title: "Paged history" } });
  expect(created.status()).toBe(201);
  const { session } = (await created.json()) as { session: { id: string } };
  for (let i = 1; i <= 30; i++) {
    const res = await request.post(`/api/session/${session.id}/messages`, {
      headers: { Accept: "application/json" },
      data: { content: `Question ${i} [[reply:Answer ${i}]]` },
    });
    expect(res.ok()).toBeTruthy();
  }

  await page.goto(`/?session=${session.id}`);
  await expect(page.getByTestId("session-title")).toHaveText("Paged history");
  // One page of 50 is loaded (the list draws only the rows in view, so it is counted by its state).
  await expect.poll(() => loadedMessages(page)).toBe(50);
  await expect(messages(page).last()).toContainText("Answer 30");

  // Scrolling up to the top fetches the previous page (the button is there for keyboards;
  // clicking it would scroll it into view and race the fetch that scroll starts). The rows in
  // view stay put when it arrives, so reaching the first message takes a second scroll.
  await expect(page.getByTestId("load-earlier")).toBeVisible();
  await page.getByTestId("message-list").hover();
  await page.mouse.wheel(0, -100_000);
  await expect.poll(() => loadedMessages(page)).toBe(60);
  await page.mouse.wheel(0, -100_000);
  await expect(messages(page).first()).toHaveAttribute("data-seq", "1");
  await expect(messages(page).first()).toContainText("Question 1");
  await expect(page.getByTestId("load-earlier")).toHaveCount(0);
});

test("settings change the threshold marker, and bad values are refused", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Hello [[reply:Hi.]]");
  const marker = page.getByTestId("token-bar-threshold");
  const before = await marker.getAttribute("style");

  await page.getByTestId("open-settings").click();
  const panel = page.getByTestId("settings-panel");
  await expect(panel.getByTestId("settings-threshold")).toHaveValue("80");
  await panel.getByTestId("settings-threshold").fill("99");
  await panel.getByTestId("settings-save").click();
  await expect(panel.getByTestId("settings-error")).toContainText("between 50% and 95%");

  await panel.getByTestId("settings-threshold").fill("90");
  await panel.getByTestId("settings-save").click();
  await expect(panel.getByRole("status")).toHaveText("Saved.");
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);

  await expect.poll(() => marker.getAttribute("style")).not.toBe(before);
  await page.getByTestId("token-bar").hover();
  await expect(page.getByTestId("token-bar-tooltip")).toContainText(/Compaction at\s*90%/);
});

test("a large paste becomes a chip that can be looked into or removed, and is sent after the typed text", async ({ page, request }) => {
  await openNewConversation(page);
  const log = Array.from({ length: 60 }, (_, i) => `2026-11-26 10:00:${String(i).padStart(2, "0")} worker ${i} ok`).join("\n");
  const input = page.getByTestId("composer-input");
  const paste = (text: string) =>
    input.evaluate((el, t) => {
      const data = new DataTransfer();
      data.setData("text/plain", t);
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  await paste(log);
  await expect(input).toHaveValue("");
  const chip = page.getByTestId("paste-chip");
  await expect(chip).toContainText("60 lines");
  await chip.getByRole("button", { name: /Pasted text/ }).click();
  await expect(page.getByTestId("paste-preview")).toContainText("worker 59 ok");
  await chip.getByTestId("paste-remove").click();
  await expect(chip).toHaveCount(0);

  await paste(log);
  await input.fill("Why does worker 12 restart? [[reply:It does not.]]");
  await input.press("Enter");
  await expect(page.getByTestId("paste-chip")).toHaveCount(0);
  await expect(assistantMessages(page)).toContainText("It does not.");
  const sent = (await fakeRequests(request)).filter((r) => r.path === "/v1/messages" && r.body?.stream).at(-1);
  const body = JSON.stringify(sent?.body?.messages);
  expect(body).toContain("Why does worker 12 restart?");
  expect(body).toContain("worker 59 ok");
});
