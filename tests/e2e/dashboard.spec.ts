// The usage dashboard in the browser: a session chatted against the fake Anthropic API (with a
// compaction) shows up in every chart, the page loads, fails and retries in words, fits a
// phone, runs under the page CSP, and a new SaaS user meets the empty state (a signed-out
// visitor is sent to sign in first).
import { expect, test, type Page } from "@playwright/test";
import { SAAS_PORT } from "./ports";
import { enqueueFake, filler, openNewConversation, resetFake, watchCsp } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

const chart = (page: Page, id: string) => page.getByTestId(id).locator("svg.recharts-surface").first();

test("a chatted session shows in every chart: tokens and cost per day, cache, calibration, compactions, top sessions, turns", async ({
  page,
  request,
}) => {
  const violations = watchCsp(page);
  const title = `Dashboard e2e ${Date.now()}`;
  const created = await request.post("/api/session", { data: { title, settings: { output_reservation: 0.5, safety_buffer: 0.3, auto_compact: false } } });
  expect(created.status()).toBe(201);
  const { session } = (await created.json()) as { session: { id: string } };
  const send = async (content: string) => {
    const res = await request.post(`/api/session/${session.id}/messages`, { headers: { Accept: "application/json" }, data: { content } });
    expect(res.ok(), await res.text()).toBeTruthy();
  };
  for (let i = 0; i < 4; i++) await send(`Part ${i} of the plan. ${filler(3000, i)}`);
  await enqueueFake(request, [{ kind: "reply", text: "Summary: the plan has four parts, all about the rollout." }]);
  const compacted = await request.post("/api/context/compact", { data: { session_id: session.id, force: true } });
  expect(compacted.status(), await compacted.text()).toBe(201);
  for (let i = 4; i < 6; i++) await send(`Part ${i}, after the summary. ${filler(500, i)}`);

  // The way in from the workspace.
  await openNewConversation(page);
  await page.getByTestId("dashboard-link").click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("summary-cards")).toBeVisible();

  await page.goto(`/dashboard?session=${session.id}`);
  await expect(page.getByTestId("dashboard-empty")).toHaveCount(0);
  await expect(page.getByTestId("total-cost")).toHaveText(/^\$\d/);
  await expect(chart(page, "chart-tokens")).toBeVisible();
  await expect(page.getByTestId("chart-tokens").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await page.getByTestId("tokens-mode-cost").click();
  await expect(page.getByTestId("chart-tokens")).toContainText("Cost per day");
  await expect(chart(page, "chart-cache")).toBeVisible();
  // A fresh data folder has one day of calls: a point, not yet a line.
  await expect(page.getByTestId("chart-cache").locator(".recharts-line-dot").first()).toBeVisible();
  await expect(chart(page, "chart-calibration")).toBeVisible();
  await expect(page.getByTestId("chart-compactions").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByTestId("compaction-list")).toContainText(title);
  await expect(page.getByTestId("top-sessions").locator(`[data-session-id="${session.id}"]`)).toContainText(title);

  // The session's turns: six measured turns, the compaction marked where it ran.
  await expect(page.getByTestId("session-chooser")).toHaveValue(session.id);
  await expect(chart(page, "chart-turns")).toBeVisible();
  await expect(page.getByTestId("turns-summary")).toContainText("6 turns");
  await expect(page.getByTestId("chart-turns").locator(".turn-compaction line")).toHaveCount(1);
  await expect(page.getByTestId("chart-turns")).toContainText("Compaction (1)");

  // The CSV link downloads the same days.
  const href = await page.getByRole("link", { name: "CSV" }).first().getAttribute("href");
  const csv = await page.request.get(href ?? "");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect((await csv.text()).split("\r\n")[0]).toMatch(/^day,requests,input_tokens/);

  // A phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(chart(page, "chart-turns")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  expect(violations).toEqual([]);
});

test("while the summary loads the page says so; a failure is shown with the server's words and a retry", async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let calls = 0;
  await page.route("**/api/usage/summary*", async (route) => {
    calls += 1;
    if (calls === 1) {
      await held;
      await route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "unavailable", message: "The database is restarting; try again in a moment." } }),
      });
    } else {
      await route.continue();
    }
  });
  await page.goto("/dashboard");
  await expect(page.getByTestId("dashboard-loading")).toBeVisible();
  release();
  await expect(page.getByTestId("dashboard-error")).toContainText("The database is restarting");
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("dashboard-error")).toHaveCount(0);
  await expect(page.getByTestId("summary-cards").or(page.getByTestId("dashboard-empty"))).toBeVisible();
});

test("SaaS: a signed-out visitor is sent to sign in; a new user sees what the dashboard will show", async ({ page }) => {
  const violations = watchCsp(page);
  const saas = `http://localhost:${SAAS_PORT}`;
  await page.goto(`${saas}/dashboard`);
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  expect((await page.request.get(`${saas}/api/usage/summary`)).status()).toBe(401);

  const password = "a long enough password";
  await page.goto(`${saas}/signup`);
  await page.getByLabel("Email").fill(`dash-${Date.now()}@example.com`);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel("Repeat password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto(`${saas}/dashboard`);
  const empty = page.getByTestId("dashboard-empty");
  await expect(empty).toBeVisible();
  await expect(empty).toContainText("No usage yet");
  await expect(empty).toContainText("Cache hit rate");
  await expect(page.getByTestId("summary-cards")).toHaveCount(0);
  expect(violations).toEqual([]);
});
