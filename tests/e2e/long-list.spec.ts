// A long session's list (issue 33): only the rows near the view are drawn, older pages load on
// scrolling up without moving what is read, "Jump to latest" comes back from anywhere (also
// while a reply streams) and counts what arrived meanwhile, and a search jump shows the start
// of a message that was neither loaded nor drawn. Sessions are stored through the drop-in (a
// resent history) because hundreds of sends would take minutes.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { loadedMessages, messages, resetFake } from "./support";

test.beforeEach(async ({ request }) => resetFake(request));

const WORDS = ["river", "stone", "garden", "signal", "harbor", "market", "window", "lantern", "meadow", "copper", "thread", "castle"];
const words = (i: number, n: number) => Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(" ");

/**
 * A session of `count` messages (user and assistant in turn, seq = position) plus Claude's
 * answer to the last; `texts` replaces the text at some seqs.
 */
async function seedLong(request: APIRequestContext, count: number, texts: Record<number, string> = {}): Promise<string> {
  const history = Array.from({ length: count }, (_, k) => {
    const seq = k + 1;
    const user = seq % 2 === 1;
    const text = texts[seq] ?? `${user ? "Question" : "Answer"} ${seq}: ${words(seq, user ? 6 + (seq % 9) : 18 + ((seq * 37) % 90))}`;
    return { role: user ? "user" : "assistant", content: text };
  });
  // The last message is the user's, answered now.
  history[count - 1] = { role: "user", content: `Question ${count}: the newest [[reply:Answer ${count + 1}: the newest reply.]]` };
  const res = await request.post("/api/anthropic/v1/messages", {
    headers: { "anthropic-version": "2023-06-01" },
    data: { model: "claude-haiku-4-5", max_tokens: 256, messages: history },
    timeout: 120_000,
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return res.headers()["threadkeeper-session-id"];
}

const list = (page: Page) => page.getByTestId("message-list");
const fromBottom = (page: Page) => list(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/** The first message whose top is inside the list's view, and where its top is. */
function firstInView(page: Page): Promise<{ seq: string; top: number } | null> {
  return list(page).evaluate((el) => {
    const box = el.getBoundingClientRect();
    for (const m of el.querySelectorAll<HTMLElement>('[data-testid="message"]')) {
      const top = m.getBoundingClientRect().top;
      if (top >= box.top) return { seq: m.dataset.seq ?? "", top };
    }
    return null;
  });
}

async function scrollBy(page: Page, dy: number): Promise<void> {
  await list(page).evaluate((el, d) => {
    el.scrollTop += d;
  }, dy);
}

test("a long session draws only the rows in view, and older pages load without moving what is read", async ({ page, request }) => {
  test.setTimeout(240_000);
  const id = await seedLong(request, 400);
  await page.goto(`/?session=${id}`);
  await expect(messages(page).last()).toContainText("Answer 401");
  await expect.poll(() => loadedMessages(page)).toBe(50);
  // At the bottom: nothing to jump to, and only the rows near the view are in the DOM.
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
  expect(await messages(page).count()).toBeLessThan(30);

  // Up to the top of the loaded page: the previous page is fetched, and the message read at
  // the top stays exactly where it was.
  await list(page).evaluate((el) => {
    el.scrollTop = 100;
  });
  const before = await firstInView(page);
  expect(before).not.toBeNull();
  await scrollBy(page, -100);
  await expect.poll(() => loadedMessages(page)).toBe(100);
  const still = page.locator(`[data-testid="message"][data-seq="${before!.seq}"]`);
  const moved = async () => Math.abs((await still.evaluate((el) => el.getBoundingClientRect().top)) - (before!.top + 100));
  await expect.poll(moved).toBeLessThan(2);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(await moved()).toBeLessThan(2);

  // All the way up, page after page: the whole history is loaded, and still only a screenful is drawn.
  const earlier = page.getByTestId("load-earlier");
  for (let i = 0; i < 20 && (await earlier.count()) > 0; i++) {
    const loaded = await loadedMessages(page);
    await list(page).evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect.poll(() => loadedMessages(page)).toBeGreaterThan(loaded);
  }
  await expect(earlier).toHaveCount(0);
  expect(await loadedMessages(page)).toBeGreaterThanOrEqual(400);
  await list(page).evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(messages(page).first()).toHaveAttribute("data-seq", "1");
  await expect(page.getByTestId("load-earlier")).toHaveCount(0);
  expect(await messages(page).count()).toBeLessThan(30);
  expect(await page.evaluate(() => document.getElementsByTagName("*").length)).toBeLessThan(2500);

  // "Jump to latest" is a real button, and brings the newest reply back.
  const jump = page.getByRole("button", { name: "Jump to latest" });
  await expect(jump).toBeVisible();
  await jump.click();
  await expect(messages(page).last()).toContainText("Answer 401");
  await expect(messages(page).last()).toBeInViewport();
  await expect.poll(() => fromBottom(page)).toBeLessThan(4);
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
  await expect(page.getByTestId("composer-input")).toBeFocused();
});

test("a streaming reply keeps the list pinned at the bottom; scrolled up, it is not pulled down and the reply is counted as new", async ({ page, request }) => {
  test.setTimeout(180_000);
  const id = await seedLong(request, 120);
  await page.goto(`/?session=${id}`);
  await expect(messages(page).last()).toContainText("Answer 121");

  const lines = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the long reply, ${words(i, 8)}.`).join("\n\n");
  await page.getByTestId("composer-input").fill(`Tell me a long story [[slow:9000]] [[reply:${lines}]]`);
  await page.getByTestId("composer-input").press("Enter");
  const streaming = page.getByTestId("streaming-reply");
  await expect(streaming).toContainText("Line 8");
  // Pinned: as the reply grows, the bottom stays in view.
  await expect.poll(() => fromBottom(page)).toBeLessThan(4);
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);

  // Scrolled up into the history while it streams: the button offers the way back, and the view stays put.
  await list(page).evaluate((el) => {
    el.scrollTop = 2000;
  });
  const jump = page.getByTestId("jump-to-latest");
  await expect(jump).toBeVisible();
  await expect(jump).toContainText("replying");
  const reading = await firstInView(page);
  expect(reading).not.toBeNull();

  // The reply is saved while the reader is up in the history: it is counted, not scrolled to.
  await expect(page.getByTestId("composer-input")).toBeEnabled({ timeout: 60_000 });
  await expect(jump).toHaveAttribute("data-new-count", /^[1-9]/);
  await expect(jump).toHaveAccessibleName(/^\d+ new messages?$/);
  const read = page.locator(`[data-testid="message"][data-seq="${reading!.seq}"]`);
  expect(Math.abs((await read.evaluate((el) => el.getBoundingClientRect().top)) - reading!.top)).toBeLessThan(2);

  await jump.click();
  await expect.poll(() => fromBottom(page)).toBeLessThan(4);
  await expect(messages(page).last()).toContainText("Line 40");
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);
});

test("a search jump shows the start of a long message, whether it was loaded or not", async ({ page, request }) => {
  test.setTimeout(180_000);
  const stamp = Date.now() % 1_000_000;
  const far = `farwhistle${stamp}`;
  const near = `nearwhistle${stamp}`;
  const long = (word: string) => [`${word} begins here.`, ...Array.from({ length: 70 }, (_, i) => `Paragraph ${i + 1}: ${words(i, 14)}.`)].join("\n\n");
  // Seq 4 is pages away from the newest; seq 380 is loaded with the first page but not drawn.
  const id = await seedLong(request, 400, { 4: long(far), 380: long(near) });
  await page.goto(`/?session=${id}`);
  await expect(messages(page).last()).toContainText("Answer 401");

  for (const [word, seq] of [[far, 4], [near, 380]] as const) {
    await page.keyboard.press("Control+k");
    await page.getByTestId("history-search-input").fill(word);
    await expect(page.getByTestId("history-hit").first()).toContainText(word);
    await page.keyboard.press("Enter");
    const target = page.locator(`[data-testid="message"][data-seq="${seq}"]`);
    await expect(target).toHaveAttribute("data-jump-target", "true");
    await expect(target).toBeFocused();
    // Its first line is in view, near the top of the list: the start is where reading begins.
    const [listTop, listBottom] = await list(page).evaluate((el) => [el.getBoundingClientRect().top, el.getBoundingClientRect().bottom]);
    const start = await target.getByText(`${word} begins here.`).evaluate((el) => el.getBoundingClientRect().top);
    expect(start).toBeGreaterThanOrEqual(listTop);
    expect(start).toBeLessThan(listBottom - 40);
  }
});
