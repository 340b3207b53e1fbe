import { expect, type Locator, type Page, type APIRequestContext } from "@playwright/test";
import { FAKE_PORT } from "./ports";

export const FAKE_URL = `http://127.0.0.1:${FAKE_PORT}`;

/** Clears queued steps and fired one-shot faults so tests do not leak into each other. */
export async function resetFake(request: APIRequestContext): Promise<void> {
  const res = await request.post(`${FAKE_URL}/__control/reset`);
  expect(res.ok()).toBeTruthy();
}

export async function enqueueFake(request: APIRequestContext, steps: unknown[]): Promise<void> {
  const res = await request.post(`${FAKE_URL}/__control/enqueue`, { data: steps });
  expect(res.ok()).toBeTruthy();
}

export const messages = (page: Page) => page.getByTestId("message");
export const assistantMessages = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]');
export const userMessages = (page: Page) => page.locator('[data-testid="message"][data-role="user"]');
export const tokenBarUsed = (page: Page) => page.getByTestId("token-bar-used");

export async function usagePercent(page: Page): Promise<number> {
  return Number(await tokenBarUsed(page).getAttribute("data-percent"));
}

/** Types a message and presses Enter without waiting for the reply. */
export async function typeAndSend(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("composer-input");
  await expect(input).toBeEnabled();
  await input.fill(text);
  await input.press("Enter");
}

/**
 * The newest saved reply drawn in the list (0 when none). The list is virtualised, so counting
 * drawn replies says nothing once a session is longer than a screen; a send keeps the list at
 * its bottom, where the newest reply is drawn.
 */
export async function newestReplySeq(page: Page): Promise<number> {
  return assistantMessages(page).evaluateAll((els) => Math.max(0, ...els.map((e) => Number(e.getAttribute("data-seq")))));
}

/** Sends a message and waits until its reply is saved and the composer is free again. */
export async function sendAndWait(page: Page, text: string, opts: { timeout?: number } = {}): Promise<void> {
  const before = await newestReplySeq(page);
  await typeAndSend(page, text);
  await expect.poll(() => newestReplySeq(page), { timeout: opts.timeout ?? 30_000 }).toBeGreaterThan(before);
  await expect(page.getByTestId("composer-input")).toBeEnabled({ timeout: opts.timeout ?? 30_000 });
}

/** How many messages the list holds (loaded pages), drawn or not. */
export async function loadedMessages(page: Page): Promise<number> {
  return Number(await page.getByTestId("message-list").getAttribute("data-loaded-count"));
}

/**
 * Scrolls the virtualised list from its top down, a screen at a time, until `target` is drawn,
 * then brings it into view. Only rows near the viewport exist in the DOM, so a message far from
 * the view cannot be found by a locator until the list is scrolled to it.
 */
export async function scrollListTo(page: Page, target: Locator): Promise<void> {
  const list = page.getByTestId("message-list");
  await list.evaluate((el) => {
    el.scrollTop = 0;
  });
  for (let step = 0; step < 400; step++) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if ((await target.count()) > 0) {
      // The virtualiser may redraw the row while it settles (a detached element): look again.
      const shown = await target
        .first()
        .scrollIntoViewIfNeeded({ timeout: 5_000 })
        .then(() => true, () => false);
      if (shown) return;
      continue;
    }
    const moved = await list.evaluate((el) => {
      const before = el.scrollTop;
      el.scrollTop += Math.round(el.clientHeight * 0.7);
      return el.scrollTop !== before;
    });
    if (!moved && step > 0) break;
  }
  await expect(target.first()).toBeAttached();
}

// Plain lowercase words: the fake counts each as ~1.15 tokens and tiktoken as ~1, so the
// app's calibrated estimate and the fake's measurement stay close.
const WORDS = [
  "river", "stone", "garden", "signal", "harbor", "market", "window", "lantern", "meadow", "copper",
  "thread", "castle", "orange", "planet", "silver", "forest", "bridge", "candle", "valley", "anchor",
];

/** About `tokens` tokens as the fake Anthropic server counts them. */
export function filler(tokens: number, seed = 0): string {
  const words = Math.round(tokens / 1.15);
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(i * 7 + seed) % WORDS.length]);
  return out.join(" ");
}

/** The open session's id, from the URL the workspace keeps in sync. */
export async function currentSessionId(page: Page): Promise<string> {
  await expect(page).toHaveURL(/[?&]session=[0-9a-f-]{36}/);
  const id = new URL(page.url()).searchParams.get("session");
  if (!id) throw new Error("no session in the URL");
  return id;
}

/** Changes one session's settings through the API (e.g. `{ auto_compact: false }`). */
export async function putSessionSettings(
  request: APIRequestContext,
  sessionId: string,
  settings: Record<string, unknown>,
): Promise<void> {
  const res = await request.put(`/api/context/settings?session_id=${sessionId}`, { data: settings });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Creates a session and sends messages through the JSON API (faster than typing them). */
export async function seedSession(request: APIRequestContext, title: string, contents: string[]): Promise<string> {
  const created = await request.post("/api/session", { data: { title } });
  expect(created.status()).toBe(201);
  const { session } = (await created.json()) as { session: { id: string } };
  for (const content of contents) {
    const res = await request.post(`/api/session/${session.id}/messages`, {
      headers: { Accept: "application/json" },
      data: { content },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  return session.id;
}

export interface FakeRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
}

/** Every request the fake Anthropic server received since the last reset, oldest first. */
export async function fakeRequests(request: APIRequestContext): Promise<FakeRequest[]> {
  const res = await request.get(`${FAKE_URL}/__control/requests`);
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as FakeRequest[];
}

/**
 * Opens the app on a fresh, unsaved conversation. Without `?session=` the app greets with
 * the session picker (or the crash-recovery prompt); "Start new" leaves an empty workspace.
 */
export async function openNewConversation(page: Page): Promise<void> {
  await page.goto("/");
  const empty = page.getByTestId("launch-empty");
  const recovery = page.getByTestId("recovery-prompt");
  await expect(empty.or(recovery)).toBeVisible();
  if (await recovery.isVisible()) await page.getByTestId("recovery-dismiss").click();
  await expect(empty).toBeVisible();
}

/** Collects the Content-Security-Policy violations the page reports (a test expects none). */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  return violations;
}
