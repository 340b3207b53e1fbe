import { expect, test, type APIRequestContext } from "@playwright/test";
import { enqueueFake, fakeRequests, resetFake, sendAndWait } from "./support";

const SUMMARY = "We decided to use PGlite with pgvector for the embedded database; migrations live in supabase/migrations.";

test.beforeEach(async ({ request }) => {
  await resetFake(request);
});

async function createSession(request: APIRequestContext, title: string): Promise<string> {
  const res = await request.post("/api/session", { data: { title } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { session: { id: string } }).session.id;
}

async function memoryTokens(request: APIRequestContext, sessionId: string): Promise<number> {
  const res = await request.get(`/api/context/status?session_id=${sessionId}`);
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { breakdown: { memory: number } }).breakdown.memory;
}

test("a memory saved earlier loads into a new session; the panel drops, finds and deletes it", async ({ page, request }) => {
  const saved = await request.post("/api/memory/session", { data: { summary: SUMMARY } });
  expect(saved.status(), await saved.text()).toBe(201);
  const memoryId = ((await saved.json()) as { memory: { id: string } }).memory.id;

  const sessionId = await createSession(request, "Memory recall");
  await page.goto(`/?session=${sessionId}`);
  await enqueueFake(request, [{ kind: "reply", text: "PGlite with pgvector; migrations are in supabase/migrations." }]);
  await sendAndWait(page, "Which embedded database did we choose, and where are migrations?");

  // The memory went into the system prompt of the session's first request.
  const calls = (await fakeRequests(request)).filter((r) => r.path === "/v1/messages");
  expect(calls.some((r) => JSON.stringify(r.body?.system ?? "").includes("supabase/migrations"))).toBe(true);
  expect(await memoryTokens(request, sessionId)).toBeGreaterThan(0);

  // Said in the chat, under the first message: how many, show, undo (and restore), kept on reload.
  const line = page.getByTestId("memories-line");
  await expect(line).toContainText(/Loaded \d+ memor(y|ies) from earlier sessions/);
  const count = Number(await line.getAttribute("data-kept"));
  await line.getByTestId("memories-line-undo").click();
  await expect(line).toHaveAttribute("data-kept", "0");
  await expect(line).toContainText("Memories from earlier sessions dropped");
  expect(await memoryTokens(request, sessionId)).toBe(0);
  await line.getByTestId("memories-line-undo").click();
  await expect(line).toHaveAttribute("data-kept", String(count));
  await page.reload();
  await expect(page.getByTestId("memories-line")).toHaveAttribute("data-kept", String(count));
  await page.getByTestId("memories-line").getByTestId("memories-line-show").click();
  await expect(page.getByTestId("memory-panel")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("memory-panel")).toHaveCount(0);

  await page.getByTestId("open-memory").click();
  const panel = page.getByTestId("memory-panel");
  await expect(panel).toBeVisible();
  const loaded = panel.locator(`[data-testid="memory-loaded"][data-memory-id="${memoryId}"]`);
  await expect(loaded).toBeVisible();
  await expect(loaded).toContainText("PGlite with pgvector");
  await expect(loaded).toContainText("tokens");
  await expect(loaded).toHaveAttribute("data-dropped", "false");

  // Drop: struck through, out of the next request, and the token bar's status is refetched.
  // Other tests share this server's database, so more memories may be loaded: compare, don't expect 0.
  const withMemory = await memoryTokens(request, sessionId);
  expect(withMemory).toBeGreaterThan(0);
  const statusRefetch = page.waitForResponse((r) => r.url().includes(`/api/context/status?session_id=${sessionId}`));
  await loaded.getByTestId("memory-drop").click();
  await expect(loaded).toHaveAttribute("data-dropped", "true");
  await expect(loaded.getByTestId("memory-summary")).toHaveClass(/line-through/);
  await expect(loaded.getByTestId("memory-drop")).toHaveText("Restore");
  await statusRefetch;
  const dropped = await memoryTokens(request, sessionId);
  expect(dropped).toBeLessThan(withMemory);

  // Restore brings it back; drop it again to leave it out.
  await loaded.getByTestId("memory-drop").click();
  await expect(loaded).toHaveAttribute("data-dropped", "false");
  await expect.poll(() => memoryTokens(request, sessionId)).toBe(withMemory);
  await loaded.getByTestId("memory-drop").click();
  await expect(loaded).toHaveAttribute("data-dropped", "true");

  // Search finds it with its relevance; pin it, then delete it.
  await panel.getByTestId("memory-search").fill("pgvector");
  const hit = panel.locator(`[data-testid="memory-hit"][data-memory-id="${memoryId}"]`);
  await expect(hit).toBeVisible();
  await expect(hit.getByTestId("memory-relevance")).toContainText("relevance");
  await hit.getByTestId("memory-pin").click();
  await expect(hit.getByTestId("memory-pinned")).toBeVisible();
  await expect(hit.getByTestId("memory-pin")).toHaveText("Unpin");

  await hit.getByTestId("memory-delete").click();
  await hit.getByTestId("memory-delete-confirm").click();
  await expect(hit).toHaveCount(0);
  expect((await request.get(`/api/memory/${memoryId}`)).status()).toBe(404);

  // A search again no longer finds it.
  await panel.getByTestId("memory-search").fill("pgvector migrations");
  await expect(panel.getByTestId("memory-search")).toHaveValue("pgvector migrations");
  await expect(panel.locator(`[data-testid="memory-hit"][data-memory-id="${memoryId}"]`)).toHaveCount(0);
});

test("Remember saves a memory for the open session and Archive turns the session into one", async ({ page, request }) => {
  const sessionId = await createSession(request, "Memory by hand");
  await page.goto(`/?session=${sessionId}`);
  await enqueueFake(request, [{ kind: "reply", text: "Noted." }]);
  await sendAndWait(page, "The staging database runs on port 5544.");

  await page.getByTestId("open-memory").click();
  const panel = page.getByTestId("memory-panel");
  await panel.getByTestId("memory-new").fill("Staging Postgres listens on port 5544, not 5432.");
  await panel.getByTestId("memory-save").click();
  await expect(panel.getByTestId("memory-notice")).toContainText("saved");
  await expect(panel.getByTestId("memory-new")).toHaveValue("");
  await expect(panel.getByTestId("memory-saved").filter({ hasText: "port 5544, not 5432" })).toBeVisible();

  const own = (await (await request.get(`/api/memory/session/${sessionId}`)).json()) as {
    memories: { summary: string; session_id: string; source: string }[];
  };
  expect(own.memories.some((m) => m.summary.includes("not 5432") && m.source === "manual" && m.session_id === sessionId)).toBe(true);

  await panel.getByTestId("memory-archive").click();
  await expect(panel.getByTestId("memory-notice")).toContainText("archived", { timeout: 30_000 });
  await expect(panel.getByTestId("memory-saved").filter({ hasText: "5544" }).first()).toBeVisible();

  // Escape closes the panel.
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
});
