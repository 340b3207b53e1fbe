// The recall tool in the browser: Claude (the fake server) searches an earlier session, and the
// chat shows the search as a collapsible "Recalled from …" block rather than a message of yours.
import { expect, test } from "@playwright/test";
import { assistantMessages, openNewConversation, resetFake, sendAndWait, typeAndSend, userMessages } from "./support";

test.beforeEach(async ({ request }) => resetFake(request));

test("Claude recalls what was said in another session; the chat shows a Recalled from block that opens", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Our boat is called Saudade and moors at pier 7. [[reply:Noted.]]");

  await openNewConversation(page);
  await typeAndSend(page, 'Where does the boat moor? [[tool_use:recall {"query":"Saudade pier"}]] [[reply:Let me look that up.]]');
  const block = page.getByTestId("recall-block");
  await expect(block).toBeVisible({ timeout: 30_000 });
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(page.getByTestId("composer-input")).toBeEnabled();
  await expect(block).toContainText("Recalled from");
  await expect(block).toContainText("1 excerpt");
  // Not a message you typed: one "You" bubble, the question.
  await expect(userMessages(page)).toHaveCount(1);

  const excerpt = block.getByTestId("recall-excerpt");
  await expect(excerpt).toBeHidden();
  await block.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(excerpt).toBeVisible();
  await expect(excerpt).toContainText("moors at pier 7");
  await expect(block).toContainText("Searched for “Saudade pier”");
  // The reply that called the tool says what it is doing, not "Tool call: recall".
  await expect(assistantMessages(page).first()).toContainText("Let me look that up.");

  // It survives a reload.
  await page.reload();
  await expect(page.getByTestId("recall-block")).toContainText("Recalled from");
});

test("the recall tool can be turned off in the settings", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, "hello [[reply:hi]]");
  await page.getByTestId("open-settings").click();
  const toggle = page.getByTestId("settings-recall-tool");
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("settings-panel")).toContainText("Saved.");
  await page.reload();
  await page.getByTestId("open-settings").click();
  await expect(page.getByTestId("settings-recall-tool")).not.toBeChecked();
});
