// Custom instructions and a session's system prompt (issue 33): set in the settings panels,
// counted on the token bar's System row, and sent to Claude at the start of every request.
import { expect, test, type Page } from "@playwright/test";
import { fakeRequests, resetFake, seedSession, sendAndWait } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

/** The token bar's System row, in tokens. */
async function systemTokens(page: Page): Promise<number> {
  await page.getByTestId("token-bar").hover();
  const row = page.getByTestId("token-bar-row-system");
  await expect(row).toBeVisible();
  const digits = ((await row.textContent()) ?? "").match(/([\d,]+)\s*$/)?.[1] ?? "";
  await page.mouse.move(0, 0);
  return Number(digits.replace(/,/g, ""));
}

const NOTE = "I am a marine biologist on a research vessel; answer briefly and use metric units.";

test("custom instructions reach new chats, show in the session's system prompt, count on the bar and are sent to Claude", async ({ page, request }) => {
  const before = await seedSession(request, "Before instructions", []);
  await page.goto(`/?session=${before}`);
  await expect(page.getByTestId("token-bar")).toBeVisible();
  const bare = await systemTokens(page);

  // Account settings: write and save the instructions.
  await page.getByTestId("open-settings").click();
  await page.getByTestId("open-account-settings").click();
  const account = page.getByTestId("account-settings-panel");
  await expect(account.getByRole("heading", { name: "Custom instructions" })).toBeVisible();
  await account.getByLabel(/What should Claude know about you/).fill(NOTE);
  await account.getByTestId("custom-instructions-save").click();
  await expect(account.getByTestId("custom-instructions-status")).toContainText("Saved");
  const saved = await request.get("/api/account/instructions");
  expect(((await saved.json()) as { instructions: string }).instructions).toBe(NOTE);

  // A chat started now carries them: more tokens on the System row than the chat from before.
  const after = await seedSession(request, "After instructions", []);
  await page.goto(`/?session=${after}`);
  await expect(page.getByTestId("token-bar")).toBeVisible();
  const withNote = await systemTokens(page);
  expect(withNote).toBeGreaterThan(bare + 10);

  // The session's settings show both, and a change to its prompt is counted at once.
  await page.getByTestId("open-settings").click();
  const panel = page.getByTestId("settings-panel");
  await expect(panel.getByTestId("session-instructions-input")).toHaveValue(NOTE);
  const prompt = panel.getByTestId("system-prompt-input");
  await expect(prompt).not.toHaveValue("");
  await prompt.fill(`You are the ship's assistant. ${"Log every depth reading with its time and position. ".repeat(12)}`);
  await panel.getByTestId("system-prompt-save").click();
  await expect(panel.getByTestId("system-prompt-status")).toContainText("Saved");
  await panel.getByRole("button", { name: "Close settings" }).click();
  await expect.poll(() => systemTokens(page)).toBeGreaterThan(withNote + 50);

  // Claude gets them first, in the cached part of the request.
  await sendAndWait(page, "How deep is the Challenger Deep?");
  const sent = (await fakeRequests(request)).filter((r) => r.path === "/v1/messages" && Array.isArray(r.body?.system));
  const system = sent.at(-1)?.body?.system as { text: string }[];
  expect(system[0].text.startsWith("You are the ship's assistant.")).toBe(true);
  expect(system[0].text).toContain(NOTE);

  // The chat from before kept what it had.
  const old = await request.get(`/api/session/${before}/system-prompt`);
  expect(((await old.json()) as { instructions: string }).instructions).toBe("");
  await request.put("/api/account/instructions", { data: { instructions: "" } });
});
