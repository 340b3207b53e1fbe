// The theme (system, light or dark) and the app icons, under the pages' strict CSP.
import { expect, test, type Page } from "@playwright/test";
import { SAAS_PORT } from "./ports";
import { openNewConversation, watchCsp } from "./support";

const html = (page: Page) => page.locator("html");
const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test("the theme toggle switches to dark, survives a reload, and follows the system when asked to", async ({ page }) => {
  const violations = watchCsp(page);
  await page.emulateMedia({ colorScheme: "light" });
  await openNewConversation(page);
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  const lightBackground = await pageBackground(page);

  const toggle = page.getByTestId("theme-toggle");
  await expect(toggle.getByTestId("theme-system")).toHaveAttribute("aria-pressed", "true");
  await toggle.getByRole("button", { name: "Dark theme" }).click();
  await expect(html(page)).toHaveClass(/\bdark\b/);
  await expect(toggle.getByTestId("theme-dark")).toHaveAttribute("aria-pressed", "true");
  expect(await pageBackground(page)).not.toBe(lightBackground);

  // The saved choice is applied by next-themes' inline script (allowed by the CSP nonce)
  // before the page hydrates.
  await page.reload();
  await expect(html(page)).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
  // The reload opens a new conversation again, itself dark.
  await expect(page.getByTestId("launch-empty")).toBeVisible();
  await expect(page.getByTestId("theme-dark")).toHaveAttribute("aria-pressed", "true");

  await page.getByTestId("theme-light").click();
  await expect(html(page)).not.toHaveClass(/\bdark\b/);

  // "System" follows the operating system's preference, live.
  await page.getByTestId("theme-system").click();
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(html(page)).toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html(page)).not.toHaveClass(/\bdark\b/);

  expect(violations).toEqual([]);
});

test("a dark system preference shows the dark theme from the first paint", async ({ page }) => {
  const violations = watchCsp(page);
  // What <html> carries once the document is parsed, before any bundle has run.
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      document.documentElement.dataset.parsedClass = document.documentElement.className;
    });
  });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await expect(html(page)).toHaveAttribute("data-parsed-class", /\bdark\b/);
  await expect(html(page)).toHaveClass(/\bdark\b/);
  const darkBackground = await pageBackground(page);
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  expect(await pageBackground(page)).not.toBe(darkBackground);
  expect(violations).toEqual([]);
});

const PUBLIC_FILES: [string, RegExp][] = [
  ["/favicon.ico", /^image\/(x-icon|vnd\.microsoft\.icon)/],
  ["/icon.svg", /^image\/svg\+xml/],
  ["/apple-touch-icon.png", /^image\/png/],
  ["/icon-192.png", /^image\/png/],
  ["/icon-512.png", /^image\/png/],
  ["/icon-maskable-512.png", /^image\/png/],
  ["/manifest.webmanifest", /^application\/manifest\+json/],
];

test("the icons and the web manifest are linked from the page and load, signed in or not", async ({ page, request }) => {
  await page.goto("/");
  const head = page.locator("head");
  await expect(head.locator('link[rel="icon"][href^="/favicon.ico"]')).toHaveCount(1);
  await expect(head.locator('link[rel="icon"][href^="/icon.svg"]')).toHaveCount(1);
  await expect(head.locator('link[rel="apple-touch-icon"][href^="/apple-touch-icon.png"]')).toHaveCount(1);
  await expect(head.locator('link[rel="manifest"][href^="/manifest.webmanifest"]')).toHaveCount(1);

  // The SaaS instance sends signed-out visitors to /login; its icons must load all the same.
  for (const origin of ["", `http://127.0.0.1:${SAAS_PORT}`]) {
    for (const [path, type] of PUBLIC_FILES) {
      const res = await request.get(`${origin}${path}`, { maxRedirects: 0 });
      expect(res.status(), `${origin}${path}`).toBe(200);
      expect(res.headers()["content-type"], path).toMatch(type);
      expect(res.headers()["x-content-type-options"], path).toBe("nosniff");
    }
  }
  const manifest = (await (await request.get("/manifest.webmanifest")).json()) as { icons: { src: string }[] };
  for (const icon of manifest.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
});
