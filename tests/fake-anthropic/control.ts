/**
 * Typed client for the control endpoints of a standalone fake (e.g. the one Playwright starts as
 * a web server), for tests that cannot reach the in-process `FakeAnthropic` object.
 */
import type { FakeStep, RecordedRequest } from "./types";

export interface FakeAnthropicControl {
  enqueue(...steps: FakeStep[]): Promise<void>;
  reset(): Promise<void>;
  requests(): Promise<RecordedRequest[]>;
  health(): Promise<boolean>;
}

export function fakeAnthropicControl(baseUrl: string): FakeAnthropicControl {
  const base = baseUrl.replace(/\/+$/, "");
  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`fake-anthropic ${method} ${path} → ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : null;
  }
  return {
    async enqueue(...steps) {
      await call("POST", "/__control/enqueue", steps);
    },
    async reset() {
      await call("POST", "/__control/reset", {});
    },
    async requests() {
      return (await call("GET", "/__control/requests")) as RecordedRequest[];
    },
    async health() {
      try {
        return (await fetch(`${base}/health`)).ok;
      } catch {
        return false;
      }
    },
  };
}
