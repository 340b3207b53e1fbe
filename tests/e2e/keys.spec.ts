// The keys page in the settings panel, in a real browser against `next start`: create a key
// with chosen scopes, copy its secret the one time it is shown, use it from outside the
// browser, see its last use, and revoke it after a confirmation.
import { expect, test } from "@playwright/test";
import { openNewConversation, resetFake, sendAndWait } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

test("create a key, copy it once, use it within its scopes, revoke it", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openNewConversation(page);
  await sendAndWait(page, "Hello [[reply:Hi.]]");

  await page.getByTestId("account-settings-link").click();
  const panel = page.getByTestId("account-settings-panel");
  const section = panel.getByTestId("api-keys-section");
  await expect(section).toBeVisible();

  // A key needs a name.
  await section.getByTestId("api-key-create").click();
  await expect(section.getByTestId("api-keys-error")).toContainText("name");

  const name = `e2e reader ${Date.now()}`;
  await section.getByTestId("api-key-name").fill(name);
  await section.getByTestId("api-key-scope-write").uncheck();
  await section.getByTestId("api-key-expiry").selectOption({ label: "In 30 days" });
  await section.getByTestId("api-key-create").click();

  const secretBox = section.getByTestId("api-key-new");
  await expect(secretBox).toContainText("You will not see this key again");
  const secret = (await section.getByTestId("api-key-secret").textContent()) ?? "";
  expect(secret).toMatch(/^tk_live_[0-9A-Za-z]{38}$/);
  await section.getByTestId("api-key-copy").click();
  await expect(section.getByTestId("api-key-copy")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  const item = section.getByTestId("api-key-item").filter({ hasText: name });
  await expect(item).toContainText(secret.slice(0, 16));
  await expect(item).toContainText("read");
  await expect(item).not.toContainText("write");
  await expect(item).toContainText("never used");
  await expect(item).toContainText(/expires in (29|30) d/);

  // Outside the browser, within its scope: a read works, a write is refused.
  const auth = { authorization: `Bearer ${secret}` };
  expect((await request.get("/api/session", { headers: auth })).status()).toBe(200);
  const write = await request.post("/api/session", { headers: auth, data: { title: "not allowed" } });
  expect(write.status()).toBe(403);
  expect(await write.json()).toMatchObject({ error: { code: "insufficient_scope", details: { required_scope: "write" } } });

  // Once dismissed, the secret is gone for good: not on the page, not after reopening.
  await section.getByTestId("api-key-secret-done").click();
  await expect(section.getByTestId("api-key-new")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await page.getByTestId("account-settings-link").click();
  const reopened = page.getByTestId("account-settings-panel").getByTestId("api-keys-section");
  const again = reopened.getByTestId("api-key-item").filter({ hasText: name });
  await expect(again).toContainText("last used just now");
  expect(await page.content()).not.toContain(secret.slice(16));

  // Which of Threadkeeper's own tools the key's API sessions offer Claude: chosen here, kept on the key.
  const tools = again.getByTestId("api-key-tools");
  await expect(tools).toHaveValue("default");
  await tools.selectOption({ label: "None" });
  await expect
    .poll(async () => ((await (await request.get("/api/keys")).json()) as { keys: { name: string; tools: string[] | null }[] }).keys.find((k) => k.name === name)?.tools)
    .toEqual([]);
  await page.keyboard.press("Escape");
  await page.getByTestId("account-settings-link").click();
  await expect(page.getByTestId("account-settings-panel").getByTestId("api-key-item").filter({ hasText: name }).getByTestId("api-key-tools")).toHaveValue("none");

  // Revoking asks first; keeping it changes nothing.
  await again.getByTestId("api-key-revoke").click();
  await expect(again.getByRole("alertdialog")).toContainText("refused from the next request on");
  await again.getByTestId("api-key-revoke-cancel").click();
  await expect(again.getByRole("alertdialog")).toHaveCount(0);
  expect((await request.get("/api/session", { headers: auth })).status()).toBe(200);

  await again.getByTestId("api-key-revoke").click();
  await again.getByTestId("api-key-revoke-confirm").click();
  await expect(reopened.getByTestId("api-key-list").getByText(name)).toHaveCount(0);
  await reopened.getByText(/Revoked \(\d+\)/).click();
  await expect(reopened.getByTestId("api-key-revoked-list").getByTestId("api-key-item").filter({ hasText: name })).toHaveAttribute(
    "data-status",
    "revoked",
  );
  const refused = await request.get("/api/session", { headers: auth });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ error: { code: "invalid_api_key", details: { reason: "revoked" } } });
});

test("the token bar's tooltip shows today's tokens across sessions", async ({ page }) => {
  await openNewConversation(page);
  await sendAndWait(page, "Count this [[reply:Counted.]]");
  await page.getByTestId("token-bar").hover();
  await expect(page.getByTestId("token-bar-today")).toContainText(/Today: [\d.]+[KM]? tokens · all sessions/);
});
