// SaaS mode in the browser: a new user signs up, chats, signs out, is sent back to sign-in,
// signs in again to find the conversation, and a second user sees none of it. The app talks
// to the fake Supabase Auth server through the real supabase-js in the page.
import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./axe";
import { FAKE_AUTH_PORT } from "./ports";
import { assistantMessages, resetFake, sendAndWait, watchCsp } from "./support";

const PASSWORD = "a long enough password";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

async function signUp(page: Page, email: string): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel("Repeat password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function startNew(page: Page): Promise<void> {
  await expect(page.getByTestId("launch-empty")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // The composer unlocks once the page is hydrated: before that, Sign out is a button with no
  // handler yet, and a click on it is lost (seen on a busy machine).
  await expect(page.getByTestId("composer-input")).toBeEnabled();
}

async function signOut(page: Page): Promise<void> {
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/login$/);
}

test("sign up, chat, sign out, sent back to sign-in, sign in again; another user sees nothing", async ({ page }) => {
  const violations = watchCsp(page);
  const email = `ada-${Date.now()}@example.com`;

  // Signed out, the workspace sends the visitor to sign in, and its API answers 401.
  const first = await page.goto("/");
  expect(first?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  expect((await page.request.get("/api/session")).status()).toBe(401);

  await page.getByRole("link", { name: "Create one" }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await signUp(page, email);
  await startNew(page);
  await expect(page.getByTestId("account-email")).toHaveText(email);

  await sendAndWait(page, "Hello from a signed-in user");
  await expect(assistantMessages(page).last()).toContainText("Hello from a signed-in user");
  await expect(page.getByTestId("session-item")).toHaveCount(1);

  await signOut(page);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.request.get("/api/session")).status()).toBe(401);

  // A wrong password is refused in words; the right one brings the conversation back.
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("auth-error")).toHaveText("Wrong email or password.");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("session-item")).toHaveCount(1);
  await expect(page.getByTestId("launch-recent")).toHaveCount(1);

  // A second account starts empty, with nothing the first one left typed in this browser.
  await page.getByTestId("composer-input").fill("Ada's private half-thought");
  await expect.poll(() => page.evaluate(() => Object.keys(window.localStorage).filter((k) => k.startsWith("threadkeeper.draft.")).length)).toBe(1);
  await signOut(page);
  expect(await page.evaluate(() => Object.keys(window.localStorage).filter((k) => k.startsWith("threadkeeper.draft.")))).toEqual([]);
  await signUp(page, `grace-${Date.now()}@example.com`);
  await expect(page.getByTestId("launch-empty")).toBeVisible();
  await expect(page.getByTestId("composer-input")).toHaveValue("");
  await expect(page.getByTestId("launch-recent")).toHaveCount(0);
  await expect(page.getByTestId("session-item")).toHaveCount(0);

  expect(violations).toEqual([]);
});

test("a deep link survives signing in, and a signed-in user skips the sign-in page", async ({ page }) => {
  const email = `lin-${Date.now()}@example.com`;
  await signUp(page, email);
  await startNew(page);
  await sendAndWait(page, "Remember this thread");
  const url = page.url();
  await signOut(page);

  await page.goto(url);
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(url);
  await expect(assistantMessages(page).last()).toContainText("Remember this thread");

  await page.goto("/login");
  await expect(page).toHaveURL(/\/$/);
});

test("a forgotten password is reset through the emailed link", async ({ page, request }) => {
  const email = `reset-${Date.now()}@example.com`;
  await signUp(page, email);
  await startNew(page);
  await signOut(page);

  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByTestId("auth-notice")).toContainText(email);

  // The fake keeps the email Supabase would send; its link verifies and comes back with a code.
  const emails = (await (await request.get(`http://127.0.0.1:${FAKE_AUTH_PORT}/__control/emails?to=${encodeURIComponent(email)}&type=recovery`)).json()) as {
    link: string;
  }[];
  expect(emails).toHaveLength(1);
  await page.goto(emails[0].link);
  await expect(page).toHaveURL(/\/update-password/);
  const newPassword = "an even longer new password";
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat new password").fill(newPassword);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/$/);
  await startNew(page);

  await signOut(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("auth-error")).toHaveText("Wrong email or password.");
  await page.getByLabel("Password").fill(newPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/$/);
});

for (const scheme of ["light", "dark"] as const) {
  test(`the sign-in pages have no serious or critical axe violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [path, heading] of [
      ["/login", "Sign in"],
      ["/signup", "Create your account"],
      ["/reset-password", "Reset your password"],
      ["/update-password", "Choose a new password"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
      expect(await seriousViolations(page), path).toEqual([]);
    }
    // A refused sign-in shows its error, which must read as well as the form.
    await page.goto("/login");
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("auth-error")).toBeVisible();
    expect(await seriousViolations(page), "/login with an error").toEqual([]);
  });
}
