import { expect, test } from "@playwright/test";
import {
  assistantMessages,
  currentSessionId,
  messages,
  openNewConversation,
  resetFake,
  seedSession,
  sendAndWait,
  typeAndSend,
  userMessages,
} from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

test("/save-progress saves a labelled checkpoint; Resume in a new fork forks the session at it", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Let us build the auth feature [[reply:Sure, auth first.]]");
  await sendAndWait(page, "Add the login form [[reply:Login form added.]]");
  const original = await currentSessionId(page);

  await typeAndSend(page, '/save-progress "completed auth feature"');
  const feedback = page.getByTestId("command-feedback");
  await expect(feedback).toHaveAttribute("data-code", "ok");
  await expect(feedback).toContainText(/Checkpoint saved · [0-9a-f]{8} · completed auth feature/);
  const shortId = /· ([0-9a-f]{8}) ·/.exec((await feedback.textContent()) ?? "")![1];
  // A command is not a chat message.
  await expect(messages(page)).toHaveCount(4);

  await sendAndWait(page, "Now start on billing [[reply:Billing started.]]");
  await expect(messages(page)).toHaveCount(6);

  await page.getByTestId("open-checkpoints").click();
  const panel = page.getByTestId("checkpoint-panel");
  await expect(panel).toBeVisible();
  const item = panel.getByTestId("checkpoint-item").filter({ hasText: "completed auth feature" });
  await expect(item).toHaveCount(1);
  expect(await item.getAttribute("data-checkpoint-id")).toMatch(new RegExp(`^${shortId}`));
  await expect(item.getByTestId("checkpoint-tokens")).toContainText("tokens");
  await item.hover();
  await expect(item.getByTestId("checkpoint-preview")).toContainText("Login form added.");

  // The button says it forks, before it is pressed: this session is not rewound.
  const resume = item.getByTestId("checkpoint-resume");
  await expect(resume).toHaveText("Resume in a new fork");
  await expect(resume).toHaveAccessibleDescription(/new session \(a fork\).*this session stays as it is/);
  await resume.click();
  await expect.poll(() => new URL(page.url()).searchParams.get("session")).not.toBe(original);
  const fork = await currentSessionId(page);
  await expect(page.getByTestId("forked-from")).toBeVisible();
  // The fork holds the conversation up to the checkpoint, not the turn after it.
  await expect(messages(page)).toHaveCount(4);
  await expect(assistantMessages(page).last()).toContainText("Login form added.");
  await expect(page.getByText("Billing started.")).toHaveCount(0);
  // Protecting a message the fork shares with the original marks it in the fork only.
  const shared = userMessages(page).nth(1);
  await shared.getByTestId("protect-toggle").click();
  await expect(shared.getByTestId("protected-badge")).toBeVisible();

  // The original is unchanged and lists the fork.
  await page.getByTestId("forked-from").click();
  await expect.poll(() => new URL(page.url()).searchParams.get("session")).toBe(original);
  await expect(messages(page)).toHaveCount(6);
  await expect(assistantMessages(page).last()).toContainText("Billing started.");
  await expect(userMessages(page).nth(1)).toContainText("Add the login form");
  await expect(userMessages(page).nth(1).getByTestId("protected-badge")).toHaveCount(0);
  await expect(page.getByTestId("forked-from")).toHaveCount(0);
  const forkLink = panel.getByTestId("fork-link");
  await expect(forkLink).toHaveCount(1);
  await expect(forkLink).toHaveAttribute("data-session-id", fork);
  await forkLink.click();
  await expect.poll(() => new URL(page.url()).searchParams.get("session")).toBe(fork);
  await expect(userMessages(page).nth(1).getByTestId("protected-badge")).toBeVisible();
  await page.getByTestId("forked-from").click();
  await expect.poll(() => new URL(page.url()).searchParams.get("session")).toBe(original);

  // /checkpoint without a label works too, and Delete removes an item.
  await typeAndSend(page, "/checkpoint");
  await expect(feedback).toContainText(/Checkpoint saved · [0-9a-f]{8}(?! ·)/);
  const newId = /saved · ([0-9a-f]{8})/.exec((await feedback.textContent()) ?? "")![1];
  const unlabelled = panel.locator(`[data-testid="checkpoint-item"][data-checkpoint-id^="${newId}"]`);
  // Named after its turn, not "auto".
  await expect(unlabelled.getByTestId("checkpoint-label")).toHaveText(/^Now start on billing/);
  await unlabelled.getByTestId("checkpoint-delete").click();
  await expect(unlabelled).toHaveCount(0);
  await expect(panel.getByTestId("checkpoint-item").filter({ hasText: "completed auth feature" })).toHaveCount(1);
});

test("a launch opens on a new conversation, no dialog, offering the recent sessions; the picker searches and resumes", async ({ page, request }) => {
  const kw = `zebracorn${Date.now()}`;
  await seedSession(request, "Picker other", ["Nothing special in here [[reply:Fine.]]"]);
  const wanted = await seedSession(request, "Picker wanted", [`Please remember the word ${kw} [[reply:Remembered.]]`]);

  await page.goto("/");
  const empty = page.getByTestId("launch-empty");
  await expect(empty).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("composer-input")).toBeEnabled();
  const recent = empty.getByTestId("launch-recent");
  await expect(recent.first()).toContainText("Picker wanted");
  await expect(recent.first()).toContainText("Remembered.");
  await recent.first().getByTestId("launch-resume").click();
  await expect.poll(() => new URL(page.url()).searchParams.get("session")).toBe(wanted);
  await expect(page.getByTestId("session-title")).toHaveText("Picker wanted");
  await expect(assistantMessages(page).last()).toContainText("Remembered.");

  // The picker (from the sidebar) searches every session's messages and resumes one.
  await page.getByTestId("open-picker").first().click();
  const picker = page.getByTestId("session-picker");
  await expect(picker).toBeVisible();
  const row = picker.getByTestId("picker-row").filter({ hasText: "Picker wanted" });
  await expect(row).toContainText("Last:");
  await expect(row).toContainText(/checkpoints? • .*tokens/);
  await picker.getByTestId("picker-search").fill(kw);
  await expect(picker.getByTestId("picker-row")).toHaveCount(1);
  await expect(picker.getByTestId("picker-row")).toContainText("Picker wanted");
  await picker.getByTestId("picker-close").click();
  await expect(picker).toHaveCount(0);

  // Browse checkpoints opens the session with its timeline.
  await page.getByTestId("open-picker").first().click();
  await picker.getByTestId("picker-row").filter({ hasText: "Picker other" }).getByTestId("picker-browse").click();
  await expect(picker).toHaveCount(0);
  await expect(page.getByTestId("session-title")).toHaveText("Picker other");
  await expect(page.getByTestId("checkpoint-panel")).toBeVisible();
});

test("a project can be created, assigned to the open session, and used to filter the picker", async ({ page, request }) => {
  const name = `Empire ${Date.now()}`;
  const id = await seedSession(request, "Service orchestration", ["All tests pass now [[reply:Great.]]"]);
  await page.goto(`/?session=${id}`);
  await expect(page.getByTestId("session-picker")).toHaveCount(0);
  await expect(page.getByTestId("session-title")).toHaveText("Service orchestration");

  await page.getByTestId("open-picker").first().click();
  const picker = page.getByTestId("session-picker");
  await picker.getByTestId("project-new").fill(name);
  await picker.getByTestId("project-create").click();
  await expect(picker.getByTestId("project-new")).toHaveValue("");
  // Names are unique.
  await picker.getByTestId("project-new").fill(name);
  await picker.getByTestId("project-create").click();
  await expect(picker.getByTestId("project-error")).toContainText("already exists");
  await picker.getByTestId("picker-close").click();
  await expect(picker).toHaveCount(0);

  const patched = page.waitForResponse((r) => r.url().includes(`/api/session/${id}`) && r.request().method() === "PATCH");
  await page.getByTestId("session-project").selectOption({ label: name });
  expect((await patched).ok()).toBe(true);

  await page.getByTestId("open-picker").first().click();
  await picker.getByTestId("picker-project").selectOption({ label: name });
  await expect(picker.getByTestId("picker-row")).toHaveCount(1);
  await expect(picker.getByTestId("picker-row")).toContainText("Service orchestration");
  await expect(picker.getByTestId("picker-row")).toContainText(name);
});
