// The activity page lists the account's audit log, newest first, filtered by kind.
import { expect, test } from "@playwright/test";
import { openNewConversation, resetFake, sendAndWait } from "./support";

test.beforeEach(async ({ request }) => resetFake(request));

test("what you do shows up on the activity page, newest first, filterable", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Start the audit trail [[reply:Noted.]]");
  await page.getByTestId("composer-input").fill('/save-progress "audit demo"');
  await page.getByTestId("composer-input").press("Enter");
  await expect(page.getByText(/Checkpoint saved/)).toBeVisible();

  const title = (await page.getByTestId("session-title").textContent()) ?? "";
  expect(title).not.toBe("New conversation");
  await page.getByTestId("activity-link").click();
  await expect(page).toHaveURL(/\/activity$/);
  const events = page.getByTestId("activity-event");
  await expect(events.first()).toHaveAttribute("data-action", "checkpoint.created");
  await expect(page.locator('[data-action="session.created"]').first()).toBeVisible();
  await expect(events.first()).toContainText("“audit demo”");
  // Named by the session's title, a link back to it, not a hex id.
  const sessionLink = events.first().getByTestId("activity-session");
  await expect(sessionLink).toHaveText(title);
  await expect(events.first()).not.toContainText(/\b[0-9a-f]{8}\b/);

  await page.getByTestId("activity-filter").selectOption("settings.*");
  await expect(page.getByTestId("activity-empty")).toBeVisible();
  await page.getByTestId("activity-filter").selectOption("checkpoint.*");
  await expect(events.first()).toHaveAttribute("data-action", "checkpoint.created");
  await sessionLink.click();
  await expect(page.getByTestId("session-title")).toHaveText(title);
});
