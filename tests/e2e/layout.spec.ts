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
