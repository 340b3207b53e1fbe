// A key from the app (issue 33), on an instance of its own started without ANTHROPIC_API_KEY:
// the empty chat says there is no key before anything is sent, Account settings take one (kept
// 0600 in the data folder, never shown again), and the next message goes to Claude with it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startApp, type AppServer } from "./crash-server";
import { KEYLESS_PORT } from "./ports";
import { assistantMessages, fakeRequests, resetFake } from "./support";

const URL = `http://127.0.0.1:${KEYLESS_PORT}`;
const KEY = "sk-ant-api03-typed-into-settings-e2e-WXYZ";
const dir = path.join(os.tmpdir(), `tk-keyless-e2e-${Date.now()}`);
const keyFile = `${dir}-anthropic-key`;
let app: AppServer | undefined;

test.beforeAll(async () => {
  app = await startApp(dir, { port: KEYLESS_PORT, env: { ANTHROPIC_API_KEY: "" } });
});
test.afterAll(() => {
  app?.kill();
  fs.rmSync(keyFile, { force: true });
});

test("the empty chat says there is no key; a key saved in Account settings is used at once and never shown", async ({ page, request }) => {
  await resetFake(request);
  await page.goto(URL);
  const notice = page.getByTestId("no-key-notice");
  await expect(notice).toContainText("No Anthropic key is set");
  await expect(page.getByTestId("composer-input")).toBeEnabled();

  await notice.getByRole("button", { name: "Add a key" }).click();
  const section = page.getByTestId("anthropic-key");
  await expect(section.getByTestId("anthropic-key-status")).toHaveAttribute("data-source", "none");
  // A malformed key is refused in words, not JSON.
  await section.getByLabel("Your key").fill("hunter2");
  await section.getByTestId("anthropic-key-save").click();
  await expect(section.getByTestId("anthropic-key-error")).toContainText("starts with sk-ant-");
  await expect(section.getByTestId("anthropic-key-error")).not.toContainText("{");

  await section.getByLabel("Your key").fill(KEY);
  await section.getByTestId("anthropic-key-save").click();
  await expect(section.getByTestId("anthropic-key-status")).toHaveAttribute("data-source", "app");
  await expect(section.getByTestId("anthropic-key-status")).toContainText("ending in WXYZ");
  await expect(section.getByTestId("anthropic-key-input")).toHaveValue("");
  expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
  // Nothing the API answers carries the key.
  const answered = await (await page.request.get(`${URL}/api/account/anthropic-key`)).text();
  expect(answered).not.toContain(KEY.slice(0, 20));
  await page.getByRole("button", { name: "Close settings" }).click();
  await expect(notice).toHaveCount(0);

  // The next message goes to Claude, with the key, without a restart.
  const input = page.getByTestId("composer-input");
  await input.fill("Hello with a key [[reply:Hello from Claude.]]");
  await input.press("Enter");
  await expect(assistantMessages(page).last()).toContainText("Hello from Claude.", { timeout: 30_000 });
  await expect(page.getByTestId("offline-label")).toHaveCount(0);
  const calls = (await fakeRequests(request)).filter((r) => r.path === "/v1/messages") as unknown as { headers: Record<string, string> }[];
  const credential = calls.at(-1)?.headers ?? {};
  expect(credential["x-api-key"] ?? credential.authorization?.replace(/^Bearer /, "")).toBe(KEY);

  // Removed from Account settings: a new chat says so again.
  await page.goto(URL);
  await page.getByTestId("account-settings-link").click();
  await section.getByTestId("anthropic-key-remove").click();
  await expect(section.getByTestId("anthropic-key-status")).toHaveAttribute("data-source", "none");
  expect(fs.existsSync(keyFile)).toBe(false);
  await page.getByRole("button", { name: "Close settings" }).click();
  await expect(page.getByTestId("no-key-notice")).toBeVisible();
});
