// /docs: the OpenAPI document rendered by Swagger UI, reached from the workspace, working
// under the pages' strict CSP (nonce + strict-dynamic, no eval) without a single violation,
// usable for real calls ("Try it out" passes the CSRF rule), and readable in light and dark
// at desktop and phone sizes. Screenshots land in the test's output folder.
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { openNewConversation, resetFake } from "./support";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

/** Every CSP violation the page reports, by event and on the console. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const seen: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) seen.push(msg.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...seen, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

async function openDocs(page: Page): Promise<void> {
  await expect(page.locator(".swagger-ui .info .title")).toContainText("Threadkeeper API", { timeout: 30_000 });
  await expect(page.locator(".swagger-ui .opblock-tag").first()).toBeVisible();
}

async function shoot(page: Page, info: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: false });
}

test("the workspace links to /docs, which renders every route group under the page CSP without a violation", async ({ page }) => {
  const violations = await watchCsp(page);
  await openNewConversation(page);
  const [res] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === "/docs"),
    page.getByTestId("api-docs-link").click(),
  ]);
  await expect(page).toHaveURL(/\/docs$/);
  const csp = (await res.allHeaders())["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).not.toContain("unsafe-eval");
  await openDocs(page);
  await expect(page).toHaveTitle(/API docs/);
  for (const tag of ["Sessions", "Messages", "Context", "Checkpoints", "Memory", "Projects"]) {
    await expect(page.locator(`.swagger-ui .opblock-tag[data-tag="${tag}"]`)).toBeVisible();
  }

  // An operation opens with its parameters, body and responses, the error envelope among them.
  await page.locator("#operations-Messages-sendMessage .opblock-summary").click();
  const send = page.locator("#operations-Messages-sendMessage");
  await expect(send.locator(".opblock-body")).toBeVisible();
  await expect(send.getByText("text/event-stream").first()).toBeVisible();
  await expect(send.locator(".responses-table")).toContainText("409");
  await page.locator(".swagger-ui .btn.authorize").click();
  await expect(page.locator(".swagger-ui .dialog-ux")).toContainText("apiKey");
  await page.locator(".swagger-ui .dialog-ux .close-modal").click();
  expect(await violations()).toEqual([]);
});

test("Try it out calls the API from the page: a GET and a bodiless DELETE pass the CSRF rule", async ({ page, request }) => {
  const violations = await watchCsp(page);
  const created = await request.post("/api/session", { data: { title: "made for the docs" } });
  const { session } = (await created.json()) as { session: { id: string } };
  await page.goto("/docs");
  await openDocs(page);

  const list = page.locator("#operations-Sessions-listSessions");
  await list.locator(".opblock-summary").click();
  await list.getByRole("button", { name: "Try it out" }).click();
  await list.getByRole("button", { name: "Execute" }).click();
  await expect(list.locator(".live-responses-table tbody .response-col_status").first()).toHaveText("200");
  await expect(list.locator(".live-responses-table")).toContainText("made for the docs");

  const remove = page.locator("#operations-Sessions-deleteSession");
  await remove.locator(".opblock-summary").click();
  await remove.getByRole("button", { name: "Try it out" }).click();
  await remove.locator('input[placeholder="id"]').fill(session.id);
  await remove.getByRole("button", { name: "Execute" }).click();
  await expect(remove.locator(".live-responses-table tbody .response-col_status").first()).toHaveText("204");
  expect((await request.get(`/api/session/${session.id}`)).status()).toBe(404);
  expect(await violations()).toEqual([]);
});

for (const [label, size] of [
  ["desktop", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`readable in light and dark on a ${label} (${size.width}x${size.height})`, async ({ page }, info) => {
    const violations = await watchCsp(page);
    await page.setViewportSize(size);
    await page.goto("/docs");
    await openDocs(page);
    await page.locator("#operations-Sessions-createSession .opblock-summary").click();
    await expect(page.locator("#operations-Sessions-createSession .opblock-body")).toBeVisible();
    // Nothing pushes the page sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(1);
    await shoot(page, info, `docs-${label}-light`);
    const light = await colours(page);
    expect(light.dark).toBe(false);
    expect(light.title).toBeGreaterThanOrEqual(4.5);
    expect(light.path).toBeGreaterThanOrEqual(4.5);

    // The workspace's theme puts "dark" on <html>; the page switches Swagger UI's own dark theme on with it.
    await page.evaluate(() => document.documentElement.classList.add("dark"));
    await expect(page.locator("html")).toHaveClass(/\bdark-mode\b/);
    const dark = await colours(page);
    expect(dark.dark).toBe(true);
    expect(dark.title).toBeGreaterThanOrEqual(4.5);
    expect(dark.path).toBeGreaterThanOrEqual(4.5);
    await shoot(page, info, `docs-${label}-dark`);
    await page.locator("#operations-Sessions-createSession .responses-wrapper").scrollIntoViewIfNeeded();
    await shoot(page, info, `docs-${label}-dark-responses`);
    await page.evaluate(() => document.documentElement.classList.remove("dark"));
    await expect(page.locator("html")).not.toHaveClass(/\bdark-mode\b/);
    await shoot(page, info, `docs-${label}-light-responses`);
    expect(await violations()).toEqual([]);
  });
}

/**
 * WCAG contrast ratios of the document's title and an operation's path against the page, and
 * whether the page is dark: readable means at least 4.5 either way.
 */
async function colours(page: Page): Promise<{ dark: boolean; title: number; path: number }> {
  return page.evaluate(() => {
    const rgb = (el: Element, prop: "color" | "backgroundColor") =>
      (getComputedStyle(el)[prop].match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const background = luminance(rgb(document.querySelector(".tk-docs") as Element, "backgroundColor"));
    const text = (selector: string) => ratio(luminance(rgb(document.querySelector(selector) as Element, "color")), background);
    return { dark: background < 0.2, title: text(".swagger-ui .info .title"), path: text(".swagger-ui .opblock-summary-path") };
  });
}
