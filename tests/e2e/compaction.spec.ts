import { expect, test, type Page } from "@playwright/test";
import {
  assistantMessages,
  enqueueFake,
  fakeRequests,
  filler,
  loadedMessages,
  messages,
  resetFake,
  scrollListTo,
  seedSession,
  sendAndWait,
  tokenBarUsed,
  usagePercent,
  userMessages,
  openNewConversation,
  putSessionSettings,
} from "./support";

// The e2e server runs claude-haiku-4-5: W 200K, reply reservation 40K, safety 20K, so
// capacity is 140K; compaction runs at 80 % (112K) and aims for 40 % (56K).
const CAPACITY = 140_000;

/** What the fake answers the summarizer with, when a test queues it. */
const SUMMARY = [
  "### Session Summary",
  "We are debugging the login flow; the refresh path in src/auth/session.ts fails.",
  "### Key Decisions",
  "- Keep the first turn verbatim and condense the filler turns.",
  "### Pending Tasks",
  "- Reproduce the failing refresh and add a regression test.",
].join("\n");

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

/** Types a slash command (or any text) and presses Enter; the menu is closed because of the space. */
async function runCommand(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("composer-input");
  await expect(input).toBeEnabled();
  await input.fill(text);
  await input.press("Enter");
}

/** A session at about 55 %: above the 40 % target (so there is something to condense) and below the 80 % threshold. */
function seedHalfFull(request: Parameters<typeof seedSession>[0], title: string): Promise<string> {
  return seedSession(request, title, [
    "First turn: we are chasing an auth bug together [[reply:Ready.]]",
    `Login fails in src/auth/login.ts with "Error: invalid_grant". ${filler(19_000, 1)} [[reply:ok 1]]`,
    `More logs. ${filler(19_000, 2)} [[reply:ok 2]]`,
    `Even more logs. ${filler(19_000, 3)} [[reply:ok 3]]`,
    `The latest logs. ${filler(19_000, 4)} [[reply:ok 4]]`,
  ]);
}

test("at the threshold the session compacts itself: a divider appears, the bar turns green, the summary expands", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await openNewConversation(page);
  await sendAndWait(page, "First turn: we are debugging the login flow together [[reply:Ready.]]");
  await sendAndWait(
    page,
    `Second turn: refreshToken() in src/auth/session.ts throws "TypeError: token is undefined". ${filler(2_000, 1)} [[reply:ok]]`,
  );

  const divider = page.getByTestId("compaction-divider");
  let crossed = false;
  for (let i = 0; i < 10 && !crossed; i++) {
    const percent = await usagePercent(page);
    expect(percent).toBeLessThan(80);
    if (percent + 14 < 74) {
      // ~13.6 % per chunk, landing clearly below the threshold.
      await sendAndWait(page, `Chunk ${i}. ${filler(19_000, i)} [[reply:ok ${i}]]`, { timeout: 60_000 });
      await expect(divider).toHaveCount(0);
      continue;
    }
    // This message lands at ~92 %: the server compacts before answering it (the message itself
    // crossed the threshold), so the summarizer is the next call to reach the fake and takes the
    // queued summary; the reply then follows the message's own directive.
    await enqueueFake(request, [{ kind: "reply", text: SUMMARY }]);
    const tokens = Math.round(((92 - percent) / 100) * CAPACITY);
    await sendAndWait(page, `Chunk ${i}, the one that crosses. ${filler(tokens, i)} [[reply:ok ${i}]]`, { timeout: 90_000 });
    crossed = true;
  }
  expect(crossed).toBe(true);

  // The divider arrived with the reply, without a reload.
  await expect(divider).toHaveCount(1);
  await expect(divider).toHaveAttribute("data-trigger", "auto");
  await expect(divider).toHaveAttribute("data-status", "applied");
  await expect(divider).toHaveAttribute("data-method", "llm");
  await expect(divider.getByTestId("compaction-title")).toHaveText(/^Context condensed \([\d,]+ → [\d,]+ tokens, −\d+ %\)$/);
  await expect(divider.getByTestId("compaction-hint").filter({ hasText: "auto" })).toBeVisible();
  await expect(divider.getByTestId("compaction-undo")).toBeVisible();
  await expect(tokenBarUsed(page)).toHaveAttribute("data-status", "normal");
  expect(await usagePercent(page)).toBeLessThan(70);

  // The condensed turns stay browsable, dimmed; the first turn is always kept. (The list draws
  // only the rows near the view: it is scrolled to the turns checked.)
  await scrollListTo(page, userMessages(page).first());
  const second = userMessages(page).nth(1);
  await expect(second).toHaveAttribute("data-in-window", "false");
  await expect(second).toHaveAttribute("data-condensed", "true");
  await expect(second).toHaveClass(/opacity-45/);
  await expect(second).toContainText("src/auth/session.ts");
  await expect(userMessages(page).first()).toHaveAttribute("data-in-window", "true");
  await page.getByTestId("message-list").evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(userMessages(page).last()).toHaveAttribute("data-in-window", "true");

  // Expanding shows the summary's sections, what was preserved and what it cost.
  const summary = divider.getByTestId("compaction-summary");
  await expect(summary).toHaveCount(0);
  await divider.getByTestId("compaction-expand").click();
  await expect(divider.getByTestId("compaction-expand")).toHaveAttribute("aria-expanded", "true");
  await expect(summary).toBeVisible();
  await expect(summary.locator('[data-testid="compaction-section"][data-title="Session Summary"]')).toContainText(
    "src/auth/session.ts",
  );
  await expect(summary.locator('[data-testid="compaction-section"][data-title="Key Decisions"]')).toBeVisible();
  await expect(summary.locator('[data-testid="compaction-section"][data-title="Pending Tasks"]')).toBeVisible();
  await expect(summary).toContainText(/Preserved details/i);
  await expect(summary).toContainText("automatic (threshold reached)");
  await expect(summary.getByTestId("compaction-cost")).toHaveText(/^\$\d/);

  // The conversation goes on in the same chat.
  await sendAndWait(page, "Are you still with me? [[reply:Yes, the summary has the details.]]");
  await expect(assistantMessages(page).last()).toContainText("Yes, the summary has the details.");

  // The divider is the server's history, not client state.
  await page.reload();
  await expect(page.getByTestId("compaction-divider")).toHaveCount(1);
  await expect(page.getByTestId("compaction-divider")).toHaveAttribute("data-trigger", "auto");
  await scrollListTo(page, userMessages(page).first());
  await expect(userMessages(page).nth(1)).toHaveAttribute("data-condensed", "true");
});

test("a reply that crosses the threshold frees the composer at once; the background compaction's divider follows", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const sessionId = await seedSession(request, "Background compaction", [
    "First turn: we are reading long logs [[reply:Ready.]]",
    `Log part 1. ${filler(19_000, 1)} [[reply:ok 1]]`,
    `Log part 2. ${filler(19_000, 2)} [[reply:ok 2]]`,
    `Log part 3. ${filler(19_000, 3)} [[reply:ok 3]]`,
    `Log part 4. ${filler(19_000, 4)} [[reply:ok 4]]`,
    `Log part 5. ${filler(19_000, 5)} [[reply:ok 5]]`,
  ]);
  await page.goto(`/?session=${sessionId}`);
  await expect.poll(() => loadedMessages(page)).toBe(12);
  await expect.poll(() => usagePercent(page)).toBeGreaterThan(60);
  expect(await usagePercent(page)).toBeLessThan(75);

  // The message is small, so nothing happens before the request; the ~19 % reply crosses the
  // threshold and the compaction runs after the turn. Steps: the reply, then a slow summarizer.
  await enqueueFake(request, [
    { kind: "reply", text: `Here are the logs: ${filler(30_000, 6)}` },
    { kind: "slow", delayMs: 4_000, text: SUMMARY },
  ]);
  await sendAndWait(page, "Print all the logs again", { timeout: 60_000 });
  // The reply is saved and the composer is free while the summary is still being written.
  await expect(page.getByTestId("composer-input")).toBeEnabled();
  const divider = page.getByTestId("compaction-divider");
  await expect(divider).toHaveCount(0);
  expect(await usagePercent(page)).toBeGreaterThanOrEqual(80);
  await expect(page.getByTestId("compaction-progress")).toHaveAttribute("data-kind", "auto");

  await expect(divider).toHaveCount(1, { timeout: 30_000 });
  await expect(divider).toHaveAttribute("data-trigger", "auto");
  await expect(page.getByTestId("compaction-progress")).toHaveCount(0);
  await expect(tokenBarUsed(page)).toHaveAttribute("data-status", "normal");
  // The divider sits after the reply it followed.
  const reply = assistantMessages(page).last();
  await expect(reply).toContainText("Here are the logs");
  const replyBox = await reply.boundingBox();
  const dividerBox = await divider.boundingBox();
  expect(replyBox && dividerBox && dividerBox.y > replyBox.y).toBeTruthy();
  await scrollListTo(page, userMessages(page).first());
  await expect(userMessages(page).nth(1)).toHaveAttribute("data-condensed", "true");

  await sendAndWait(page, "Thanks [[reply:You are welcome.]]");
  await expect(assistantMessages(page).last()).toContainText("You are welcome.");
});

test("/compact --force with instructions condenses below the threshold, and the chat goes on", async ({ page, request }) => {
  test.setTimeout(180_000);
  const sessionId = await seedHalfFull(request, "Manual compaction");
  await page.goto(`/?session=${sessionId}`);
  await expect.poll(() => loadedMessages(page)).toBe(10);
  await expect.poll(() => usagePercent(page)).toBeGreaterThan(45);
  const before = await usagePercent(page);
  expect(before).toBeLessThan(80);

  // A slow summarizer, so the progress is visible while it runs.
  await enqueueFake(request, [{ kind: "slow", delayMs: 1_500, text: SUMMARY }]);
  await runCommand(page, "/compact --force focus on the auth bug");
  await expect(page.getByTestId("compaction-progress")).toContainText("Condensing");
  await expect(page.getByTestId("composer-input")).toBeDisabled();

  const divider = page.getByTestId("compaction-divider");
  await expect(divider).toHaveCount(1);
  await expect(divider).toHaveAttribute("data-trigger", "manual");
  await expect(page.getByTestId("compaction-progress")).toHaveCount(0);
  await expect(page.getByTestId("command-feedback")).toHaveCount(0);
  await expect.poll(() => usagePercent(page)).toBeLessThan(before);
  // The new divider is brought into view and read out (a polite live region keeps the words).
  await expect(divider).toBeInViewport();
  await expect(page.getByTestId("compaction-announcement")).toHaveAttribute("aria-live", "polite");
  await expect(page.getByTestId("compaction-announcement")).toContainText(/^Context condensed: [\d,]+ → [\d,]+ tokens/);
  // The command is not a chat message.
  await expect.poll(() => loadedMessages(page)).toBe(10);
  // The state before it is a checkpoint on the timeline, without a reload.
  await page.getByTestId("open-checkpoints").click();
  await expect(page.getByTestId("checkpoint-tag").filter({ hasText: "pre-compaction" })).toHaveCount(1);
  await page.getByTestId("open-checkpoints").click();

  // The summarizer was asked to follow the instructions.
  const calls = (await fakeRequests(request)).filter((r) => r.method === "POST" && r.path === "/v1/messages");
  expect(JSON.stringify(calls.at(-1)?.body ?? null)).toContain("focus on the auth bug");

  await divider.getByTestId("compaction-expand").click();
  await expect(divider.getByTestId("compaction-instructions")).toHaveText("focus on the auth bug");
  await expect(divider.getByTestId("compaction-summary")).toContainText("manual (/compact)");

  // Chatting continues without a reload.
  await sendAndWait(page, "Where were we? [[reply:On the auth bug.]]");
  await expect(assistantMessages(page).last()).toContainText("On the auth bug.");
  await expect(page.getByTestId("compaction-divider")).toHaveCount(1);

  // One manual compaction per 30 s.
  await runCommand(page, "/compact --force");
  const feedback = page.getByTestId("command-feedback");
  await expect(feedback).toHaveAttribute("data-code", "rate_limited");
  await expect(feedback).toContainText(/You can compact again in \d+ s/);
  await expect(page.getByTestId("compaction-divider")).toHaveCount(1);
});

test("Compact now on the token bar condenses a session at 98 % with automatic compaction off", async ({ page, request }) => {
  test.setTimeout(180_000);
  const sessionId = await seedSession(request, "Nearly full", ["First turn: we are filling the window on purpose [[reply:Ready.]]"]);
  // Nothing condenses it by itself: the bar's menu is the way out short of the window sliding.
  await putSessionSettings(request, sessionId, { auto_compact: false });
  // Filled to 93–98 % by turns that shrink as it nears the top: a turn past the capacity would
  // make the window slide instead.
  const used = async () => {
    const res = await request.get(`/api/context/status?session_id=${sessionId}`);
    return ((await res.json()) as { usage_percent: number }).usage_percent;
  };
  for (let i = 1, percent = await used(); percent < 93 && i <= 20; i++, percent = await used()) {
    const tokens = Math.max(1_000, Math.min(20_000, Math.round(((96 - percent) / 100) * CAPACITY * 0.8)));
    const res = await request.post(`/api/session/${sessionId}/messages`, {
      headers: { Accept: "application/json" },
      data: { content: `Chunk ${i}. ${filler(tokens, i)} [[reply:ok ${i}]]` },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  await page.goto(`/?session=${sessionId}`);
  await expect.poll(() => usagePercent(page)).toBeGreaterThan(93);
  await expect(tokenBarUsed(page)).toHaveAttribute("data-status", "critical");
  await expect(page.getByTestId("compaction-divider")).toHaveCount(0);
  const before = await usagePercent(page);

  await enqueueFake(request, [{ kind: "reply", text: SUMMARY }]);
  await page.getByTestId("token-bar").hover();
  const compactNow = page.getByTestId("token-bar-tooltip").getByRole("button", { name: "Compact now" });
  await compactNow.click();
  const divider = page.getByTestId("compaction-divider");
  await expect(divider).toHaveCount(1);
  await expect(divider).toHaveAttribute("data-trigger", "manual");
  await expect(divider).toHaveAttribute("data-status", "applied");
  await expect.poll(() => usagePercent(page)).toBeLessThan(before - 20);
  await expect(divider).toBeInViewport();
  await expect(page.getByTestId("compaction-announcement")).toContainText("Context condensed");
});

test("Undo restores the condensed turns to the window and the bar goes back up", async ({ page, request }) => {
  test.setTimeout(180_000);
  const sessionId = await seedHalfFull(request, "Undo compaction");
  await enqueueFake(request, [{ kind: "reply", text: SUMMARY }]);
  const res = await request.post("/api/context/compact", { data: { session_id: sessionId, force: true } });
  expect(res.status(), await res.text()).toBe(201);

  // The divider of a compaction made elsewhere comes from the history on open: one marker,
  // with no second "view begins here" line for the same compaction.
  await page.goto(`/?session=${sessionId}`);
  const divider = page.getByTestId("compaction-divider");
  await expect(divider).toHaveCount(1);
  await expect(page.getByTestId("cutoff-marker")).toHaveCount(0);
  await expect(divider).toHaveAttribute("data-status", "applied");
  const condensed = page.locator('[data-testid="message"][data-condensed="true"]');
  await expect(condensed.first()).toBeVisible();
  const condensedCount = await condensed.count();
  expect(condensedCount).toBeGreaterThan(0);
  await expect(condensed.first()).toHaveClass(/opacity-45/);
  await expect.poll(() => usagePercent(page)).toBeGreaterThan(0);
  const compacted = await usagePercent(page);

  await divider.getByTestId("compaction-undo").click();
  await expect(divider).toHaveAttribute("data-status", "reverted");
  await expect(divider.getByTestId("compaction-title")).toHaveText("Compaction undone");
  await expect(divider.getByTestId("compaction-undo")).toHaveCount(0);
  await expect(condensed).toHaveCount(0);
  // Every turn is back in Claude's view, none dimmed.
  await expect(page.locator('[data-testid="message"][data-in-window="false"]')).toHaveCount(0);
  await expect(userMessages(page).nth(1)).not.toHaveClass(/opacity-45/);
  await expect.poll(() => usagePercent(page)).toBeGreaterThan(compacted);

  await page.reload();
  await expect(page.getByTestId("compaction-divider")).toHaveAttribute("data-status", "reverted");
  await expect(page.locator('[data-testid="message"][data-in-window="false"]')).toHaveCount(0);
});

test("the command menu completes /compact, and /compact says why when it has nothing worth condensing", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Hello [[reply:Hi.]]");
  const input = page.getByTestId("composer-input");
  const menu = page.getByTestId("command-menu");

  await input.fill("/");
  await expect(menu).toBeVisible();
  const option = menu.getByTestId("command-option").filter({ hasText: "/compact" });
  await expect(option).toContainText("Condense older turns into a summary now");
  await expect(option).toHaveAttribute("aria-selected", "true");
  // A menu opening under a resting pointer keeps the first command highlighted.
  const last = await menu.getByTestId("command-option").last().boundingBox();
  await input.press("Escape");
  await expect(menu).toHaveCount(0);
  await page.mouse.move(last!.x + last!.width / 2, last!.y + last!.height / 2);
  await input.fill("");
  await input.fill("/");
  await expect(option).toHaveAttribute("aria-selected", "true");
  // A real movement over another command does move the highlight.
  await page.mouse.move(last!.x + last!.width / 2 + 5, last!.y + last!.height / 2);
  await expect(option).toHaveAttribute("aria-selected", "false");
  await input.press("Escape");
  await expect(menu).toHaveCount(0);
  await input.press("c");
  await expect(menu).toBeVisible();
  await input.press("Tab");
  await expect(input).toHaveValue("/compact ");
  await expect(menu).toHaveCount(0);

  // A typed /compact runs below the threshold too; with nothing older than the one turn it
  // says so instead.
  await input.press("Enter");
  const feedback = page.getByTestId("command-feedback");
  await expect(feedback).toHaveAttribute("data-code", "nothing_to_compact");
  await expect(feedback).toContainText("no older unprotected turns to condense");
  // Shown inline, not as a chat message, and nothing was condensed.
  await expect(messages(page)).toHaveCount(2);
  await expect(page.getByTestId("compaction-divider")).toHaveCount(0);
  await expect(input).toHaveValue("");

  // A mistyped option stays in the composer with the usage.
  await input.fill("/compact --frce now");
  await input.press("Enter");
  await expect(feedback).toHaveAttribute("data-code", "bad_command");
  await expect(feedback).toContainText("Unknown option --frce");
  await expect(input).toHaveValue("/compact --frce now");

  // Sending a message clears the line; an unknown /word is an ordinary message.
  await input.fill("/usr/local/bin is on my PATH [[reply:Noted.]]");
  await input.press("Enter");
  await expect(assistantMessages(page).last()).toContainText("Noted.");
  await expect(feedback).toHaveCount(0);
});

test("settings pick the summary template, automatic compaction, target and summary model; templates can be saved and deleted", async ({
  page,
  request,
}) => {
  await openNewConversation(page);
  await sendAndWait(page, "Hello [[reply:Hi.]]");
  // A template of one's own, in the account's settings.
  await page.getByTestId("account-settings-link").click();
  const account = page.getByTestId("account-settings-panel");
  const name = `Migration notes ${Date.now()}`;
  await account.getByTestId("template-name").fill(name);
  await account
    .getByTestId("template-body")
    .fill("Summarize for a database migration: keep table names, row counts, failed queries and the rollback plan.");
  await account.getByTestId("template-save").click();
  const item = account.getByTestId("template-item").filter({ hasText: name });
  await expect(item).toBeVisible();
  await expect(account.getByTestId("template-name")).toHaveValue("");
  await page.keyboard.press("Escape");

  // The session's own settings use it.
  await page.getByTestId("open-settings").click();
  const panel = page.getByTestId("settings-panel");
  await expect(panel.getByTestId("settings-auto-compact")).toBeChecked();
  await expect(panel.getByTestId("settings-target")).toHaveValue("40");
  await expect(panel.getByTestId("settings-template")).toHaveValue("general");
  for (const preset of ["general", "debugging", "code_review", "architecture"]) {
    await expect(panel.locator(`[data-testid="settings-template"] option[value="${preset}"]`)).toHaveCount(1);
  }

  await panel.getByTestId("settings-template").selectOption({ label: name });
  await panel.getByTestId("settings-auto-compact").uncheck();
  await panel.getByTestId("settings-target").fill("30");
  await panel.getByTestId("settings-summary-model").selectOption("claude-opus-4-5");
  await panel.getByTestId("settings-save").click();
  await expect(panel.getByText("Saved.", { exact: true })).toBeVisible();

  const sessionId = new URL(page.url()).searchParams.get("session");
  const stored = await request.get(`/api/context/settings?session_id=${sessionId}`);
  const { effective } = (await stored.json()) as { effective: Record<string, unknown> };
  expect(effective.auto_compact).toBe(false);
  expect(effective.compaction_target).toBeCloseTo(0.3);
  expect(effective.summary_model).toBe("claude-opus-4-5");
  expect(typeof effective.compaction_template).toBe("string");
  const templateId = effective.compaction_template as string;
  expect(templateId).toMatch(/^[0-9a-f-]{36}$/);

  // The panel shows what was saved when it opens again.
  await page.keyboard.press("Escape");
  await page.getByTestId("open-settings").click();
  await expect(panel.getByTestId("settings-auto-compact")).not.toBeChecked();
  await expect(panel.getByTestId("settings-target")).toHaveValue("30");
  await expect(panel.getByTestId("settings-template")).toHaveValue(templateId);
  await expect(panel.getByTestId("settings-summary-model")).toHaveValue("claude-opus-4-5");

  // A target at or above the threshold is refused before the round trip.
  await panel.getByTestId("settings-target").fill("85");
  await panel.getByTestId("settings-save").click();
  await expect(panel.getByTestId("settings-error")).toContainText(/between 10% and 70%|below the compaction threshold/);
  await panel.getByTestId("settings-target").fill("30");

  // Deleting the chosen template falls back to the default.
  await page.keyboard.press("Escape");
  await page.getByTestId("account-settings-link").click();
  await item.getByTestId("template-delete").click();
  await expect(account.getByTestId("template-item").filter({ hasText: name })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await page.getByTestId("open-settings").click();
  await expect(panel.getByTestId("settings-template")).toHaveValue("general");
  const list = await request.get("/api/context/templates");
  const { templates } = (await list.json()) as { templates: { id: string }[] };
  expect(templates.some((t) => t.id === templateId)).toBe(false);
});

test("/compact that would gain only a few percent says how little and dims nothing", async ({ page, request }) => {
  const sessionId = await seedSession(request, "Little to condense", [
    "A short note [[reply:Noted.]]",
    "Another short note [[reply:Noted.]]",
    "A third short note [[reply:Noted.]]",
    `The long one: ${filler(3_000)} [[reply:Read it.]]`,
  ]);
  await page.goto(`/?session=${sessionId}`);
  await expect.poll(() => loadedMessages(page)).toBe(8);
  await runCommand(page, "/compact");
  const feedback = page.getByTestId("command-feedback");
  await expect(feedback).toHaveAttribute("data-code", "little_gain");
  await expect(feedback).toContainText(/Only [\d,]+ tokens \([\d.]+% of what Claude is sent\) could be condensed/);
  await expect(page.getByTestId("compaction-divider")).toHaveCount(0);
  await expect(page.locator('[data-testid="message"][data-condensed="true"]')).toHaveCount(0);
});
