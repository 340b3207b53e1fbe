// The storage banner, on an instance of its own started with a warning level above any disk's
// free space (THREADKEEPER_STORAGE_WARN_MB): the level comes from the server's real reading of
// its data folder, so the whole way from statfs to the page is exercised.
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { startApp, type AppServer } from "./crash-server";
import { STORAGE_PORT } from "./ports";

const STORAGE_URL = `http://127.0.0.1:${STORAGE_PORT}`;
let app: AppServer | undefined;

test.afterAll(() => app?.kill());

test("a disk under the warning level shows a dismissible status banner saying how much is left", async ({ page }) => {
  app = await startApp(path.join(os.tmpdir(), `tk-storage-e2e-${Date.now()}`), {
    port: STORAGE_PORT,
    // A petabyte: every disk is "low"; no floor, so writes still go through.
    env: { THREADKEEPER_STORAGE_WARN_MB: String(2 ** 30), THREADKEEPER_STORAGE_FLOOR_MB: "0" },
  });
  await page.goto(STORAGE_URL);
  const banner = page.getByTestId("storage-banner");
  await expect(banner).toHaveAttribute("data-level", "low");
  await expect(banner).toHaveAttribute("role", "status");
  await expect(banner).toContainText(/The server's disk is filling up: \d+(\.\d)? (MB|GB) left\./);
  await expect(banner).toContainText("once it is full, new messages can't be saved");
  // Its colours against either theme's page (contrast), its role and its button's name.
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="storage-banner"]').analyze();
    expect(violations.map((v) => `${scheme}: ${v.id}`)).toEqual([]);
  }

  // A warning, not a wall: it can be put away, and the conversation goes on below it.
  await page.getByRole("button", { name: "Dismiss the disk space warning" }).click();
  await expect(banner).toHaveCount(0);
});
