// The hardened edge in local mode, as a hostile web page and a rebinding DNS name would
// meet it: a real browser on another origin, a foreign Host header, and the headers every
// response carries.
import http from "node:http";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { APP_PORT } from "./ports";
import { FAKE_URL } from "./support";

const APP = `http://127.0.0.1:${APP_PORT}`;

async function sessionCount(request: APIRequestContext): Promise<number> {
  const res = await request.get("/api/session?limit=200");
  return ((await res.json()) as { sessions: unknown[] }).sessions.length;
}

/** A raw request with a Host header of our choosing (browsers and fetch will not send one). */
function withHost(path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(`${APP}${path}`, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on("error", reject);
  });
}

test("a page on another origin cannot create a session, by form or by fetch", async ({ page, request }) => {
  const before = await sessionCount(request);
  // Any other origin will do: the fake Anthropic server's health page plays the attacker's site.
  await page.goto(`${FAKE_URL}/health`);

  const answer = page.waitForResponse((r) => r.url() === `${APP}/api/session`);
  await page.evaluate((target) => {
    const form = document.createElement("form");
    form.method = "POST";
    form.action = target;
    form.enctype = "text/plain";
    const field = document.createElement("input");
    field.name = '{"title":"csrf","x":"';
    field.value = '"}';
    form.append(field);
    document.body.append(form);
    form.submit();
  }, `${APP}/api/session`);
  const res = await answer;
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ error: { code: "csrf_rejected" } });

  await page.goto(`${FAKE_URL}/health`);
  await page.evaluate(async (target) => {
    // no-cors: the page cannot read the answer, but the request is still sent.
    await fetch(target, { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: '{"title":"csrf"}' });
  }, `${APP}/api/session`);
  expect(await sessionCount(request)).toBe(before);
});

test("a foreign Host header (DNS rebinding) is refused on pages and API; loopback names are served", async () => {
  expect(await withHost("/api/session", `attacker.example:${APP_PORT}`)).toBe(403);
  expect(await withHost("/", `attacker.example:${APP_PORT}`)).toBe(403);
  expect(await withHost("/api/session", `localhost:${APP_PORT}`)).toBe(200);
  expect(await withHost("/api/session", `[::1]:${APP_PORT}`)).toBe(200);
});

test("pages, API answers and static files carry the security headers; the workspace runs under its CSP", async ({ page, request }) => {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  const doc = await page.goto("/");
  await expect(page.getByTestId("launch-empty")).toBeVisible();
  const pageHeaders = doc?.headers() ?? {};
  expect(pageHeaders["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(pageHeaders["content-security-policy"]).not.toContain("unsafe-eval");
  expect(pageHeaders["content-security-policy"]).toContain("frame-ancestors 'none'");

  const api = (await request.get("/api/session")).headers();
  expect(api["content-security-policy"]).toContain("default-src 'none'");

  const script = await page.locator("script[src^='/_next/static/']").first().getAttribute("src");
  const asset = (await request.get(script ?? "")).headers();

  for (const headers of [pageHeaders, api, asset]) {
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
  }
  expect(violations).toEqual([]);
});
