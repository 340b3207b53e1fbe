// The app shell is the viewport: only the message list scrolls, whatever the conversation holds.
import { expect, test, type Page } from "@playwright/test";
import { loadedMessages, resetFake, seedSession } from "./support";

const CODE_TURNS = Array.from({ length: 8 }, (_, i) => `Step ${i + 1}:\n\n\`\`\`ts\nconst step${i} = await run(${i}); // copy me\n\`\`\``);

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

async function documentFits(page: Page): Promise<{ height: number; window: number; scrollY: number }> {
  return page.evaluate(() => ({ height: document.documentElement.scrollHeight, window: window.innerHeight, scrollY: window.scrollY }));
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`at ${size.width}×${size.height} the document never grows past the window and only the messages scroll`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const sessionId = await seedSession(request, "Code everywhere", CODE_TURNS);
    await page.goto(`/?session=${sessionId}`);
    await expect(page.getByTestId("copy-button").first()).toBeAttached();
    // Every turn is loaded; the list draws only the rows near the view, so not every copy button.
    await expect.poll(() => loadedMessages(page)).toBe(CODE_TURNS.length * 2);

    const fits = await documentFits(page);
    expect(fits.height).toBeLessThanOrEqual(fits.window);

    // The wheel over the sidebar, the header and the composer moves nothing; over the messages it scrolls them.
    const sidebar = size.width >= 768 ? [page.getByTestId("session-list")] : [];
    for (const target of [...sidebar, page.getByTestId("composer-input"), page.locator("main header")]) {
      await target.hover();
      await page.mouse.wheel(0, 2_000);
      expect((await documentFits(page)).scrollY).toBe(0);
    }
    const list = page.getByTestId("message-list");
    await list.evaluate((el) => el.scrollTo(0, 0));
    await page.getByTestId("message").first().hover();
    await page.mouse.wheel(0, 600);
    await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    expect((await documentFits(page)).scrollY).toBe(0);
  });
}

test("on a phone every button of the chat is at least 40 px tall and wide", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const sessionId = await seedSession(request, "Tap targets", ["A reply with code:\n\n```ts\nconst x = 1;\n```"]);
  await page.goto(`/?session=${sessionId}`);
  await expect(page.getByTestId("copy-message").first()).toBeAttached();
  const small = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("button, select, summary")]
      .filter((el) => el.offsetParent !== null)
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.height < 40 || box.width < 40))
      .map(({ el, box }) => `${el.getAttribute("aria-label") ?? el.textContent?.trim()} ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
  expect(small).toEqual([]);
});

/**
 * The header's rows: how many distinct heights its controls sit at (24 px apart at least). The
 * model picker is not counted: it is the title's second line, in whichever row the title is; nor
 * are the token bar's details, a popup that opens when the bar slides under the resting pointer.
 * Polled by the tests: a side panel opening resizes the header as it slides in.
 */
async function headerRows(page: Page): Promise<number> {
  return page.getByTestId("chat-header").evaluate((header) => {
    const tops = [...header.querySelectorAll<HTMLElement>("h1, button, select:not([data-testid='model-picker']), [data-testid='token-bar']")]
      .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().width > 0 && !el.closest("[data-testid='token-bar-tooltip']"))
      .map((el) => el.getBoundingClientRect())
      .map((r) => r.top + r.height / 2);
    const rows: number[] = [];
    for (const t of tops.sort((a, b) => a - b)) if (!rows.some((r) => Math.abs(r - t) < 24)) rows.push(t);
    return rows.length;
  });
}

const LONG_TITLE = "Quarterly planning for the payments migration";

test("the header keeps one row beside a side panel, and a phone shows most of a long title", async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const sessionId = await seedSession(request, LONG_TITLE, ["Plan the migration [[reply:Here is a plan.]]"]);
  await page.goto(`/?session=${sessionId}`);
  await expect(page.getByTestId("session-title")).toHaveText(LONG_TITLE);
  await expect.poll(() => headerRows(page)).toBe(1);

  // The checkpoint timeline beside the chat (a 704 px column), then the canvas (640 px).
  await page.getByTestId("open-checkpoints").click();
  await expect(page.getByTestId("checkpoint-panel")).toBeVisible();
  await expect.poll(() => headerRows(page)).toBe(1);
  await expect(page.getByTestId("token-bar")).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("open-settings")).toBeInViewport({ ratio: 1 });
  await page.getByTestId("open-checkpoints").click();
  await page.getByTestId("open-canvas").click();
  await expect(page.getByTestId("canvas-panel")).toBeVisible();
  await expect.poll(() => headerRows(page)).toBe(1);
  await expect(page.getByTestId("open-settings")).toBeInViewport({ ratio: 1 });

  // A phone: two rows, the first the title's, which shows at least 25 characters of it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/?session=${sessionId}`);
  const title = page.getByTestId("session-title");
  await expect(title).toHaveText(LONG_TITLE);
  await expect.poll(() => headerRows(page)).toBe(2);
  const shown = await title.evaluate((h) => {
    const full = h.scrollWidth;
    return Math.floor((h.clientWidth / full) * (h.textContent ?? "").length);
  });
  expect(shown).toBeGreaterThanOrEqual(25);
});
