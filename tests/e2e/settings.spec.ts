// Settings where people look for them: the model under the title, the session's settings
// apart from the account's (defaults, templates, API keys), and "Save as my default".
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { fakeRequests, resetFake, seedSession, sendAndWait } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

test("the model picker under the title switches the session's model for the next reply", async ({ page, request }) => {
  const id = await seedSession(request, "Model switch", ["First question"]);
  await page.goto(`/?session=${id}`);
  const picker = page.getByTestId("model-picker");
  await expect(picker).toHaveAccessibleName("Model");
  await picker.selectOption("claude-opus-4-5");
  await expect.poll(async () => ((await (await request.get(`/api/context/settings?session_id=${id}`)).json()) as { effective: { model: string } }).effective.model).toBe("claude-opus-4-5");
  await expect(picker).toHaveValue("claude-opus-4-5");
  await sendAndWait(page, "Second question [[reply:Answered by Opus.]]");
  const chats = (await fakeRequests(request)).filter((r) => r.path === "/v1/messages" && r.body?.stream);
  expect(chats.at(-1)?.body?.model).toBe("claude-opus-4-5");
});

test("a model with an announced end of life says when; a retired one is offered no more, except to a session already on it", async ({ page, request }) => {
  // The SDK's table: Mythos Preview retired on 30 June 2026, Sonnet 4.5 retires on 30 November 2026.
  await page.clock.setFixedTime(new Date("2026-11-28T12:00:00Z"));
  const id = await seedSession(request, "Lifecycle", ["First question"]);
  await page.goto(`/?session=${id}`);
  const picker = page.getByTestId("model-picker");
  await expect(picker.locator('option[value="claude-sonnet-4-5"]')).toHaveText("Claude Sonnet 4.5 · retires 30 Nov 2026");
  await expect(picker.locator('option[value="claude-haiku-4-5"]')).toHaveText("Claude Haiku 4.5");
  await expect(picker.locator('option[value="claude-mythos-preview"]')).toHaveCount(0);
  // Nor is it offered as the default for new sessions.
  await page.getByTestId("open-settings").click();
  await page.getByTestId("open-account-settings").click();
  const account = page.getByTestId("account-settings-panel");
  await expect(account.getByTestId("settings-model").locator('option[value="claude-sonnet-4-5"]')).toContainText("retires 30 Nov 2026");
  await expect(account.getByTestId("settings-model").locator('option[value="claude-mythos-preview"]')).toHaveCount(0);
  await page.keyboard.press("Escape");

  // A session already on the retired model (here one from a Threadkeeper export made before
  // it retired, imported back) still shows it, marked.
  const exported = (await (await request.get(`/api/session/${id}/export?format=json`)).json()) as { session: Record<string, unknown> };
  const title = `On a retired model ${Date.now()}`;
  exported.session = { ...exported.session, id: randomUUID(), title, model: "claude-mythos-preview" };
  const started = await request.post("/api/import", {
    multipart: { file: { name: "lifecycle.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(exported)) } },
  });
  expect(started.status(), await started.text()).toBe(202);
  const job = ((await started.json()) as { import: { id: string } }).import.id;
  await expect
    .poll(async () => ((await (await request.get(`/api/import/${job}`)).json()) as { import: { status: string } }).import.status, { timeout: 30_000 })
    .toBe("done");
  const listed = (await (await request.get("/api/session?limit=200")).json()) as { sessions: { id: string; title: string }[] };
  const old = listed.sessions.find((s) => s.title === title)?.id ?? "";
  expect(old).not.toBe("");
  // Moving a session onto it is refused.
  const moved = await request.put(`/api/context/settings?session_id=${id}`, { data: { model: "claude-mythos-preview" } });
  expect(moved.status()).toBe(400);
  expect(((await moved.json()) as { error: { details: { code: string } } }).error.details.code).toBe("model_retired");
  await page.goto(`/?session=${old}`);
  await expect(picker).toHaveValue("claude-mythos-preview");
  await expect(picker.locator('option[value="claude-mythos-preview"]')).toHaveText("Claude Mythos Preview · retired");
  // Two days later Sonnet 4.5 is retired too, and gone from the list.
  await page.clock.setFixedTime(new Date("2026-11-30T12:00:00Z"));
  await page.reload();
  await expect(picker).toHaveValue("claude-mythos-preview");
  await expect(picker.locator('option[value="claude-sonnet-4-5"]')).toHaveCount(0);
});

test("session settings are apart from the account's; Save as my default makes new sessions start with them", async ({ page, request }) => {
  const id = await seedSession(request, "Defaults", ["Hello"]);
  await page.goto(`/?session=${id}`);
  try {
    await page.getByTestId("open-settings").click();
    const panel = page.getByTestId("settings-panel");
    await expect(panel.getByRole("heading", { name: "Session settings" })).toBeVisible();
    await expect(panel.getByTestId("api-keys-section")).toHaveCount(0);
    await panel.getByTestId("settings-threshold").fill("70");
    await panel.getByTestId("settings-save-default").click();
    await expect(panel.getByRole("status")).toHaveText("Saved as your default for new sessions.");

    // The account's settings show it, with the templates and the API keys.
    await panel.getByTestId("open-account-settings").click();
    const account = page.getByTestId("account-settings-panel");
    await expect(account.getByTestId("settings-threshold")).toHaveValue("70");
    await expect(account.getByTestId("api-keys-section")).toBeVisible();
    await expect(account.getByTestId("template-name")).toBeVisible();

    const fresh = await request.post("/api/session", { data: {} });
    const { session } = (await fresh.json()) as { session: { id: string } };
    const settings = await (await request.get(`/api/context/settings?session_id=${session.id}`)).json();
    expect((settings as { effective: { compaction_threshold: number } }).effective.compaction_threshold).toBeCloseTo(0.7);
  } finally {
    // Other tests expect the stock defaults.
    expect((await request.put("/api/context/settings", { data: { compaction_threshold: 0.8 } })).ok()).toBe(true);
  }
});
