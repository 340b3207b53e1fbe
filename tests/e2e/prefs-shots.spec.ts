// Screenshots of issue 33's new settings sections (custom instructions, the session's system
// prompt, the Anthropic key) and the keyless empty chat, at desktop and phone width, light and
// dark, into /tmp/shots-prefs/ for a person to look at. Each view also checks what it shows.
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startApp, type AppServer } from "./crash-server";
import { KEYLESS_PORT } from "./ports";
import { seedSession } from "./support";

const OUT = process.env.TK_SHOTS_DIR ?? "/tmp/shots-prefs";
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const KEYLESS = `http://127.0.0.1:${KEYLESS_PORT}`;
let app: AppServer | undefined;

test.afterAll(() => app?.kill());

async function each(page: Page, name: string, show: () => Promise<void>): Promise<void> {
  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await show();
      await page.screenshot({ path: path.join(OUT, `${name}-${size}-${scheme}.png`) });
    }
  }
}

test("the settings sections and the keyless empty chat, desktop and phone, light and dark", async ({ page, request }) => {
  test.setTimeout(180_000);
  await request.put("/api/account/instructions", { data: { instructions: "I'm a data engineer. Answer concisely, SQL first, and say when you are unsure." } });
  const id = await seedSession(request, "Pipeline review", ["How should I partition the events table? [[reply:By day, on created_at.]]"]);
  await request.put(`/api/session/${id}/system-prompt`, { data: { instructions: "I'm a data engineer. Answer concisely, SQL first, and say when you are unsure." } });

  await each(page, "session-system-prompt", async () => {
    await page.goto(`/?session=${id}`);
    await page.getByTestId("open-settings").click();
    const section = page.getByTestId("system-prompt");
    await expect(section.getByTestId("system-prompt-tokens")).toContainText("tokens");
    await section.scrollIntoViewIfNeeded();
  });

  await each(page, "account-instructions", async () => {
    await page.goto(`/?session=${id}`);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("open-account-settings").click();
    const section = page.getByTestId("custom-instructions");
    await expect(section.getByTestId("custom-instructions-input")).toHaveValue(/data engineer/);
    await section.scrollIntoViewIfNeeded();
  });

  app = await startApp(path.join(os.tmpdir(), `tk-shots-keyless-${Date.now()}`), { port: KEYLESS_PORT, env: { ANTHROPIC_API_KEY: "" } });
  await each(page, "no-key-empty-chat", async () => {
    await page.goto(KEYLESS);
    await expect(page.getByTestId("no-key-notice")).toBeVisible();
  });
  await each(page, "account-anthropic-key", async () => {
    await page.goto(KEYLESS);
    await page.getByTestId("no-key-add").click();
    const section = page.getByTestId("anthropic-key");
    await expect(section.getByTestId("anthropic-key-status")).toHaveAttribute("data-source", "none");
    await section.scrollIntoViewIfNeeded();
  });
  await request.put("/api/account/instructions", { data: { instructions: "" } });
});
