// Claude's replies as markdown in the browser: what renders, the copy button, tables on a
// phone, and that hostile text in a message or a reply never runs or becomes a link.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, enqueueFake, messages, openNewConversation, resetFake, sendAndWait, userMessages } from "./support";

const RICH_REPLY = [
  "## Release plan",
  "",
  "We ship **on Friday** once the checks pass:",
  "",
  "- run the *migrations*",
  "- deploy `api` to staging",
  "",
  "| step | owner | notes |",
  "| --- | --- | --- |",
  "| build | Ada | cached layers, about four minutes on the shared runners |",
  "| deploy | Linus | blue/green, with the old stack kept warm for an hour |",
  "",
  "```ts",
  "const answer: number = 42; // checked",
  "```",
  "",
  "See [the runbook](https://example.com/runbook).",
].join("\n");

const CODE = "const answer: number = 42; // checked";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

/** Collects Content-Security-Policy violations the page reports. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  return violations;
}

test("a markdown reply renders headings, emphasis, lists, a table, highlighted code and a safe link", async ({ page, request }) => {
  const violations = watchCsp(page);
  await openNewConversation(page);
  await enqueueFake(request, [{ kind: "reply", text: RICH_REPLY }]);
  await sendAndWait(page, "How do we release?");

  const reply = assistantMessages(page).last();
  await expect(reply.getByRole("heading", { level: 2, name: "Release plan" })).toBeVisible();
  await expect(reply.locator("strong")).toHaveText("on Friday");
  await expect(reply.locator("em")).toHaveText("migrations");
  await expect(reply.locator("ul > li")).toHaveCount(2);
  await expect(reply.locator("li code")).toHaveText("api");

  const table = reply.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["step", "owner", "notes"]);
  await expect(table.getByRole("row")).toHaveCount(3);

  const block = reply.getByTestId("code-block");
  await expect(block).toHaveAttribute("data-language", "ts");
  const keyword = block.locator("code.hljs .hljs-keyword").first();
  await expect(keyword).toHaveText("const");
  // Highlighted means a different colour from the code around it.
  const colours = await block.locator("code.hljs").evaluate((code) => {
    const kw = code.querySelector(".hljs-keyword");
    return { code: getComputedStyle(code).color, keyword: kw ? getComputedStyle(kw).color : "" };
  });
  expect(colours.keyword).not.toBe(colours.code);

  const link = reply.getByRole("link", { name: "the runbook" });
  await expect(link).toHaveAttribute("href", "https://example.com/runbook");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");

  // The user's own message stays plain text.
  await expect(userMessages(page).last().locator("strong, h2, a")).toHaveCount(0);
  expect(violations).toEqual([]);
});

test("the copy button copies a code block, from the mouse or the keyboard, and says so", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openNewConversation(page);
  await enqueueFake(request, [{ kind: "reply", text: RICH_REPLY }]);
  await sendAndWait(page, "Show me the code");

  const copy = assistantMessages(page).last().getByTestId("code-block").getByTestId("copy-button");
  await expect(copy).toHaveAccessibleName("Copy ts code");
  await copy.click();
  await expect(copy).toHaveAttribute("data-state", "copied");
  await expect(copy).toContainText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
  // The feedback goes away by itself.
  await expect(copy).toHaveAttribute("data-state", "idle", { timeout: 5_000 });

  await page.evaluate(() => navigator.clipboard.writeText("something else"));
  await copy.focus();
  await page.keyboard.press("Enter");
  await expect(copy).toHaveAttribute("data-state", "copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
});

test("on a phone a wide table scrolls inside the reply instead of widening the page", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openNewConversation(page);
  await enqueueFake(request, [{ kind: "reply", text: RICH_REPLY }]);
  await sendAndWait(page, "Table please");

  const scroller = assistantMessages(page).last().getByRole("region", { name: "Table" });
  await expect(scroller).toBeVisible();
  const sizes = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(sizes.scroll).toBeGreaterThan(sizes.client);
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(390);
});

const HOSTILE = [
  'Look: <img src=x onerror="window.__pwned=1"> here',
  "",
  "<script>window.__pwned=1</script>",
  "",
  "[click](javascript:window.__pwned=1)",
].join("\n");

test("hostile HTML and javascript: links in a message or a reply never run and never become links", async ({ page, request }) => {
  const violations = watchCsp(page);
  const fetchedX: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/x") fetchedX.push(r.url());
  });
  const pwned = () => page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);

  await openNewConversation(page);
  await enqueueFake(request, [{ kind: "reply", text: HOSTILE }]);
  await sendAndWait(page, HOSTILE);

  const check = async () => {
    const all = messages(page);
    await expect(all).toHaveCount(2);
    await expect(assistantMessages(page).last()).toContainText('<img src=x onerror="window.__pwned=1">');
    await expect(userMessages(page).last()).toContainText("<script>window.__pwned=1</script>");
    await expect(all.locator("script")).toHaveCount(0);
    await expect(all.locator("img")).toHaveCount(0);
    await expect(all.locator("[onerror]")).toHaveCount(0);
    await expect(all.locator('a[href^="javascript:" i]')).toHaveCount(0);
    // The words of the javascript: link stay, visibly not a link.
    const removed = assistantMessages(page).last().getByTestId("unsafe-link");
    await expect(removed).toHaveText("click");
    await expect(assistantMessages(page).last().getByRole("link", { name: "click" })).toHaveCount(0);
    await removed.click();
    expect(await pwned()).toBeUndefined();
  };

  await check();
  await page.reload();
  await check();
  expect(fetchedX).toEqual([]);
  expect(violations).toEqual([]);
});

test("a streaming markdown reply shows its caret after the last word, and the saved reply replaces it", async ({ page }) => {
  await openNewConversation(page);
  const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ");
  await page.getByTestId("composer-input").fill(`Stream it [[slow:3000]] [[reply:- **first** item\n- ${words}]]`);
  await page.getByTestId("composer-input").press("Enter");

  const streaming = page.getByTestId("streaming-reply");
  await expect(streaming.locator("li strong")).toHaveText("first");
  // The caret sits inside the list item being written, not on a line of its own.
  await expect(streaming.locator("li [data-testid='streaming-caret']")).toBeVisible();

  const reply = assistantMessages(page).last();
  await expect(reply).toContainText("w29");
  await expect(streaming).toHaveCount(0);
  await expect(reply.locator("li")).toHaveCount(2);
  await expect(page.getByTestId("streaming-caret")).toHaveCount(0);
});
