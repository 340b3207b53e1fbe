import { expect, test } from "@playwright/test";
import { resetFake, seedSession } from "./support";

// Said through the product: four user messages (replies from the fake's default), then the
// memory panel's Archive stores their facts. Ingrid's move supersedes where she lived; the
// offsite is said twice, so it is one fact seen twice.
const TURNS = [
  "My cousin Ingrid lives in Tromso and works as a nurse.",
  "Our team offsite is on June 12th in Valencia, budget $3,200.",
  "Update: Ingrid moved to Bergen last month for the new job.",
  "Our team offsite is on June 12th in Valencia, budget $3,200.",
];

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

test("archiving stores facts; the panel shows them, jumps to where they were said, and deletes a wrong one", async ({ page, request }) => {
  const sessionId = await seedSession(request, "Family and offsite", TURNS);
  await page.goto(`/?session=${sessionId}`);
  await expect(page.locator('[data-testid="message"][data-seq="7"]')).toBeVisible();

  await page.getByTestId("open-memory").click();
  const panel = page.getByTestId("memory-panel");
  const section = panel.getByTestId("memory-facts-section");
  await expect(section.getByTestId("facts-empty")).toHaveText(
    "No facts yet: facts are learned when the conversation is condensed or archived.",
  );

  await panel.getByTestId("memory-archive").click();
  await expect(panel.getByTestId("memory-notice")).toContainText("archived", { timeout: 30_000 });

  // Current facts: Bergen (with its kinds and where it was said) and the offsite, seen twice.
  const current = section.getByTestId("facts-current").getByTestId("fact");
  const bergen = current.filter({ hasText: "Ingrid moved to Bergen" });
  await expect(bergen).toBeVisible();
  await expect(bergen.getByTestId("fact-kind")).toHaveText(["place", "date"]);
  await expect(bergen.getByTestId("fact-said")).toContainText("said just now");
  await expect(bergen.getByTestId("fact-provenance")).toHaveText("this session, message 5");
  const offsite = current.filter({ hasText: "offsite is on June 12th" });
  await expect(offsite).toHaveCount(1);
  await expect(offsite.getByTestId("fact-seen")).toHaveText("seen 2 times");
  await expect(current.filter({ hasText: "Tromso" })).toHaveCount(0);

  // Where she lived before: collapsed under "Earlier, replaced", saying what replaced it.
  const toggle = section.getByTestId("facts-replaced-toggle");
  await expect(toggle).toHaveText(/Earlier, replaced \(1\)/);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const tromso = section.getByTestId("facts-replaced").getByTestId("fact");
  await expect(tromso).toContainText("Ingrid lives in Tromso");
  await expect(tromso).toHaveAttribute("data-current", "false");
  await expect(tromso.getByTestId("fact-replaced-by")).toContainText("Ingrid moved to Bergen");
  await expect(tromso.getByTestId("memory-pin")).toHaveCount(0);

  // Pin the offsite: pinned facts never expire.
  await offsite.getByTestId("memory-pin").click();
  await expect(offsite.getByTestId("memory-pinned")).toBeVisible();
  const offsiteId = await offsite.getAttribute("data-memory-id");
  expect(((await (await request.get(`/api/memory/${offsiteId}`)).json()) as { memory: { pinned: boolean } }).memory.pinned).toBe(true);

  // Search labels fact hits as facts; the Facts filter leaves the archive's summary out.
  await panel.getByTestId("memory-search").fill("Valencia offsite budget");
  const hits = panel.getByTestId("memory-hit");
  await expect(hits.filter({ has: page.locator('[data-kind="summary"]') }).first()).toBeVisible();
  await panel.getByTestId("memory-search-kind").getByRole("button", { name: "Facts" }).click();
  await expect(hits.first()).toHaveAttribute("data-kind", "fact");
  await expect(hits.filter({ has: page.locator('[data-kind="summary"]') })).toHaveCount(0);
  const hit = hits.filter({ hasText: "offsite is on June 12th" });
  await expect(hit.getByTestId("memory-kind")).toHaveText("Fact");
  await expect(hit.getByTestId("fact-provenance")).toHaveText("this session, message 3");

  // Deleting the wrong fact: gone from the panel and the API; the fact it replaced is current again.
  const bergenId = await bergen.getAttribute("data-memory-id");
  await bergen.getByTestId("memory-delete").click();
  await bergen.getByTestId("memory-delete-confirm").click();
  await expect(section.locator(`[data-memory-id="${bergenId}"]`)).toHaveCount(0);
  expect((await request.get(`/api/memory/${bergenId}`)).status()).toBe(404);
  await expect(current.filter({ hasText: "Ingrid lives in Tromso" })).toBeVisible();
  await expect(section.getByTestId("facts-replaced-toggle")).toHaveCount(0);

  // Provenance jumps to the message: the panel closes and the message is marked and focused.
  await current.filter({ hasText: "Ingrid lives in Tromso" }).getByTestId("fact-provenance").click();
  await expect(panel).toHaveCount(0);
  const said = page.locator('[data-testid="message"][data-seq="1"]');
  await expect(said).toHaveAttribute("data-jump-target", "true");
  await expect(said).toBeFocused();
  await expect(said).toBeInViewport();
});

test("a fact from another session is labelled where it loads and found by search; its link opens that session at the message", async ({ page, request }) => {
  const earlier = await seedSession(request, "Neighbours", ["Hi there.", "My neighbour Olek lives in Torun and keeps bees."]);
  expect((await request.post(`/api/session/${earlier}/archive`, { data: {} })).status()).toBe(201);
  const later = await seedSession(request, "Honey", ["Where does Olek keep his bees these days?"]);
  await page.goto(`/?session=${later}`);
  await page.getByTestId("open-memory").click();
  const panel = page.getByTestId("memory-panel");

  // Loaded into the later session's first message: marked as a fact, with where it was said.
  const loaded = panel.getByTestId("memory-loaded").filter({ hasText: "Olek lives in Torun" });
  await expect(loaded.getByTestId("memory-kind")).toHaveText("Fact");
  await expect(loaded.getByTestId("fact-provenance")).toHaveText("“Neighbours”, message 3");

  await panel.getByTestId("memory-search-kind").getByRole("button", { name: "Facts" }).click();
  await panel.getByTestId("memory-search").fill("Olek bees Torun");
  const hit = panel.getByTestId("memory-hit").filter({ hasText: "Olek lives in Torun" });
  await expect(hit.getByTestId("fact-provenance")).toHaveAttribute("data-here", "false");
  await hit.getByTestId("fact-provenance").click();
  await expect(panel).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`session=${earlier}`));
  await expect(page.getByTestId("session-title")).toHaveText("Neighbours");
  const said = page.locator('[data-testid="message"][data-seq="3"]');
  await expect(said).toBeFocused();
  await expect(said).toContainText("Olek lives in Torun");
});

test("a session with nothing condensed or archived has no facts yet", async ({ page, request }) => {
  const sessionId = await seedSession(request, "Quiet session", ["Just saying hello."]);
  await page.goto(`/?session=${sessionId}`);
  await page.getByTestId("open-memory").click();
  await expect(page.getByTestId("memory-facts-section").getByTestId("facts-empty")).toBeVisible();
});
