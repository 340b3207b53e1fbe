// Stop, edit and regenerate in the browser: nothing is ever deleted; what is replaced stays
// visible as an earlier version, and Claude is sent only the current one.
import { expect, test } from "@playwright/test";
import { assistantMessages, currentSessionId, fakeRequests, openNewConversation, resetFake, sendAndWait, typeAndSend, userMessages } from "./support";

test.beforeEach(async ({ request }) => resetFake(request));

test("Stop ends the reply mid-way and keeps what was written; Esc stops too", async ({ page }) => {
  await openNewConversation(page);
  const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
  await typeAndSend(page, `Write a long list [[slow:8000]] [[reply:${words}]]`);
  await expect(page.getByTestId("streaming-reply")).toContainText("w2 ");
  await page.getByTestId("stop-button").click();

  const reply = assistantMessages(page).last();
  await expect(reply).toHaveAttribute("data-status", "interrupted");
  await expect(reply).toContainText("w1");
  expect(await reply.textContent()).not.toContain("w59");
  await expect(page.getByTestId("send-error")).toHaveCount(0);
  await expect(page.getByTestId("composer-input")).toBeEnabled();

  await typeAndSend(page, `Another long one [[slow:8000]] [[reply:${words}]]`);
  await expect(page.getByTestId("streaming-reply")).toContainText("w2 ");
  await page.keyboard.press("Escape");
  await expect(assistantMessages(page).last()).toHaveAttribute("data-status", "interrupted");
});

test("Regenerate and Edit keep the earlier versions behind a ‹ 1/2 › switcher instead of stacking them", async ({ page, request }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Name a colour [[reply:Blue.]]");
  await page.getByTestId("regenerate").click();
  // One reply shown, the new one; the first is one click away.
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(page.getByTestId("composer-input")).toBeEnabled();
  const reply = assistantMessages(page);
  await expect(reply).toHaveAttribute("data-replaced", "false");
  await expect(reply.getByTestId("version-position")).toHaveText("2 / 2");
  await reply.getByRole("button", { name: "Previous version" }).click();
  await expect(reply).toHaveAttribute("data-replaced", "true");
  await expect(reply.getByTestId("earlier-version-label")).toBeVisible();
  await expect(reply.getByTestId("version-position")).toHaveText("1 / 2");
  await reply.getByRole("button", { name: "Next version" }).click();
  await expect(reply).toHaveAttribute("data-replaced", "false");

  await page.getByTestId("edit-message").click();
  const form = page.getByTestId("edit-message-form");
  await form.locator("textarea").fill("Name a fruit [[reply:Mango.]]");
  await form.locator("textarea").press("Enter");
  await expect(assistantMessages(page).last()).toContainText("Mango.");
  await expect(userMessages(page)).toHaveCount(1);
  await expect(userMessages(page)).toContainText("Name a fruit");
  await expect(userMessages(page).getByTestId("version-position")).toHaveText("2 / 2");

  // Claude was sent only the edited message.
  const last = (await fakeRequests(request)).filter((r) => r.path === "/v1/messages" && r.body?.stream).at(-1);
  const sent = JSON.stringify(last?.body?.messages);
  expect(sent).toContain("Name a fruit");
  expect(sent).not.toContain("Name a colour");

  // The earlier message shows with its own replies (and their switcher); after a reload too.
  await page.reload();
  await expect(userMessages(page)).toHaveCount(1);
  await userMessages(page).getByRole("button", { name: "Previous version" }).click();
  await expect(userMessages(page)).toContainText("Name a colour");
  await expect(userMessages(page)).toHaveAttribute("data-replaced", "true");
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).getByTestId("version-position")).toHaveText("2 / 2");
});

test("any message can be edited and any reply regenerated: a new version from there, the later turns kept in the old one", async ({ page, request }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Plan a trip [[reply:Where to?]]");
  await sendAndWait(page, "Lisbon [[reply:Lisbon it is.]]");
  await sendAndWait(page, "Add a museum day [[reply:Museum added.]]");
  await expect(page.getByTestId("edit-message")).toHaveCount(3);
  await expect(page.getByTestId("regenerate")).toHaveCount(3);

  // Edit the second message: the turns after it leave the view, kept as the earlier version.
  await userMessages(page).nth(1).getByTestId("edit-message").click();
  const form = page.getByTestId("edit-message-form");
  await form.locator("textarea").fill("Porto [[reply:Porto it is.]]");
  await form.locator("textarea").press("Enter");
  await expect(assistantMessages(page).last()).toContainText("Porto it is.");
  await expect(page.getByTestId("composer-input")).toBeEnabled();
  await expect(userMessages(page)).toHaveCount(2);
  await expect(page.getByText("Add a museum day")).toHaveCount(0);
  const edited = userMessages(page).nth(1);
  await expect(edited.getByTestId("version-position")).toHaveText("2 / 2");
  const sent = JSON.stringify((await fakeRequests(request)).filter((r) => r.path === "/v1/messages" && r.body?.stream).at(-1)?.body?.messages);
  expect(sent).toContain("Plan a trip");
  expect(sent).not.toContain("Lisbon");

  // The earlier version, whole: the old message and the turn after it.
  await edited.getByRole("button", { name: "Previous version" }).click();
  await expect(userMessages(page)).toHaveCount(3);
  await expect(page.getByText("Add a museum day")).toBeVisible();
  await userMessages(page).nth(1).getByRole("button", { name: "Next version" }).click();
  await expect(userMessages(page)).toHaveCount(2);

  // Regenerate the first reply: the first message asked again as a new version.
  await assistantMessages(page).first().getByTestId("regenerate").click();
  await expect(page.getByTestId("composer-input")).toBeEnabled();
  await expect(userMessages(page)).toHaveCount(1);
  await expect(userMessages(page).first().getByTestId("version-position")).toHaveText("2 / 2");
  await expect(assistantMessages(page)).toHaveCount(1);
  await page.reload();
  await expect(userMessages(page)).toHaveCount(1);
  await expect(userMessages(page)).toContainText("Plan a trip");
});

test("a reload mid-reply shows the reply still being written and follows it to its end", async ({ page }) => {
  await openNewConversation(page);
  const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
  // Long enough to outlast a reload on a busy machine: the reply must still be streaming after it.
  await typeAndSend(page, `Write a long list [[slow:12000]] [[reply:${words}]]`);
  await expect(page.getByTestId("streaming-reply")).toContainText("w2 ");
  // The server saves the reply as it streams (every second): wait until it has, then reload.
  const id = await currentSessionId(page);
  await expect
    .poll(async () => {
      const saved = (await (await page.request.get(`/api/session/${id}/messages`)).json()) as {
        messages: { role: string; status: string; text: string }[];
      };
      return saved.messages.some((m) => m.role === "assistant" && m.status === "streaming" && m.text.includes("w1"));
    })
    .toBe(true);
  await page.reload();

  const inProgress = page.getByTestId("streaming-reply");
  await expect(inProgress).toBeVisible();
  await expect(inProgress).toContainText("w1");
  await expect(page.getByTestId("composer-input")).toBeDisabled();
  await expect(page.getByTestId("stop-button")).toBeVisible();
  await expect(page.getByRole("button", { name: "Regenerate" })).toHaveCount(0);

  // The server finishes it: the whole reply, saved, and the composer free again.
  const reply = assistantMessages(page).last();
  await expect(reply).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
  await expect(reply).toContainText("w59");
  await expect(inProgress).toHaveCount(0);
  await expect(page.getByTestId("composer-input")).toBeEnabled();
});
