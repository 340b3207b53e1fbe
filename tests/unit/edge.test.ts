import { describe, expect, it } from "vitest";
import { assertSameOriginWrite, hostPolicy, isAllowedHost } from "@/lib/api/edge";
import { pageCsp } from "@/lib/api/security-headers";
import type { AuthMethod } from "@/lib/auth";
import { AppError } from "@/lib/errors";

describe("Host policy", () => {
  const local = hostPolicy(true, undefined);

  it.each(["localhost", "localhost:3000", "127.0.0.1", "127.0.0.1:3000", "[::1]", "[::1]:3000", "LOCALHOST:3000"])(
    "local mode serves loopback %s",
    (host) => expect(isAllowedHost(host, local)).toBe(true),
  );

  it.each([
    "evil.com",
    "evil.com:3000",
    "localhost.evil.com",
    "127.0.0.1.nip.io",
    "localhost.",
    "192.168.1.20:3000",
    "[::2]:3000",
    "user@localhost",
    "localhost/path",
    "",
  ])("local mode refuses %s (DNS rebinding)", (host) => expect(isAllowedHost(host, local)).toBe(false));

  it("refuses a missing Host in local mode", () => expect(isAllowedHost(null, local)).toBe(false));

  it("serves extra hosts from THREADKEEPER_ALLOWED_HOSTS, by name or name:port", () => {
    const policy = hostPolicy(true, " tk.example.com, box.lan:8443 ");
    expect(isAllowedHost("tk.example.com", policy)).toBe(true);
    expect(isAllowedHost("tk.example.com:3000", policy)).toBe(true);
    expect(isAllowedHost("box.lan:8443", policy)).toBe(true);
    expect(isAllowedHost("box.lan:9000", policy)).toBe(false);
    expect(isAllowedHost("other.example.com", policy)).toBe(false);
    expect(isAllowedHost("localhost:3000", policy)).toBe(true);
  });

  it("SaaS mode serves any host unless a list is configured", () => {
    expect(isAllowedHost("app.threadkeeper.dev", hostPolicy(false, undefined))).toBe(true);
    expect(isAllowedHost("evil.com", hostPolicy(false, "app.threadkeeper.dev"))).toBe(false);
    expect(isAllowedHost("app.threadkeeper.dev", hostPolicy(false, "app.threadkeeper.dev"))).toBe(true);
  });
});

function write(headers: Record<string, string>, method = "POST"): Request {
  return new Request("http://127.0.0.1:3000/api/session", { method, headers: { host: "127.0.0.1:3000", ...headers }, body: "{}" });
}

function rejection(req: Request, via: AuthMethod = "local"): string | null {
  try {
    assertSameOriginWrite(req, via);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(403);
    expect((err as AppError).code).toBe("csrf_rejected");
    return (err as AppError).message;
  }
}

describe("CSRF rule for cookie and local-mode writes", () => {
  const json = { "content-type": "application/json" };

  it("accepts a same-origin JSON write from the app's own page", () => {
    expect(rejection(write({ ...json, origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }))).toBeNull();
    expect(rejection(write({ "content-type": "application/json; charset=utf-8", origin: "http://127.0.0.1:3000" }))).toBeNull();
  });

  it("accepts JSON writes from non-browser clients (no Origin, no Sec-Fetch-Site)", () => {
    expect(rejection(write(json))).toBeNull();
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""])(
    "refuses a write of content-type %j (what a cross-site form can send)",
    (type) => expect(rejection(write(type ? { "content-type": type } : {}))).toMatch(/must be JSON/),
  );

  it("refuses a write from another site, by Sec-Fetch-Site or Origin", () => {
    expect(rejection(write({ ...json, "sec-fetch-site": "cross-site" }))).toMatch(/Cross-site/);
    expect(rejection(write({ ...json, "sec-fetch-site": "same-site", origin: "http://127.0.0.1:3000" }))).toMatch(/Cross-site/);
    expect(rejection(write({ ...json, origin: "http://evil.com" }))).toMatch(/another origin/);
    expect(rejection(write({ ...json, origin: "http://127.0.0.1:4000" }))).toMatch(/another origin/);
    expect(rejection(write({ ...json, origin: "null" }))).toMatch(/another origin/);
  });

  it("applies to every write method, cookie callers too, and not to reads", () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) expect(rejection(write({ "content-type": "text/plain" }, method))).not.toBeNull();
    expect(rejection(write({ ...json, origin: "http://evil.com" }), "cookie")).not.toBeNull();
    const read = new Request("http://127.0.0.1:3000/api/session", { headers: { origin: "http://evil.com", "sec-fetch-site": "cross-site" } });
    expect(rejection(read)).toBeNull();
  });

  it("exempts a verified bearer token, which a foreign page cannot attach", () => {
    expect(rejection(write({ "content-type": "text/plain", origin: "http://evil.com", "sec-fetch-site": "cross-site" }), "bearer")).toBeNull();
  });
});

describe("page Content-Security-Policy", () => {
  it("allows scripts by nonce only, no eval in production, no framing", () => {
    const csp = pageCsp({ nonce: "abc", dev: false, connect: ["https://proj.supabase.co"] });
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self' https://proj.supabase.co");
    expect(csp).toContain("object-src 'none'");
    expect(pageCsp({ nonce: "abc", dev: true, connect: [] })).toContain("'unsafe-eval'");
  });

  it("lets canvas media load from https origins only, never plain http", () => {
    const directives = new Map(
      pageCsp({ nonce: "abc", dev: false, connect: [] })
        .split("; ")
        .map((d) => [d.split(" ")[0], d.split(" ").slice(1)] as const),
    );
    expect(directives.get("img-src")).toContain("https:");
    expect(directives.get("media-src")).toEqual(["'self'", "https:"]);
    expect([...directives.values()].flat()).not.toContain("http:");
  });
});
