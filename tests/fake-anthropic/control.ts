/**
 * Typed client for the control endpoints of a standalone fake (e.g. the one Playwright starts as
 * a web server), for tests that cannot reach the in-process `FakeAnthropic` object.
 */
import { controlCaller } from "../fake-http";
import type { FakeStep, RecordedRequest } from "./types";

export interface FakeAnthropicControl {
  enqueue(...steps: FakeStep[]): Promise<void>;
  reset(): Promise<void>;
  requests(): Promise<RecordedRequest[]>;
  /** Body of the last request to `path` (default /v1/messages); null when none came. */
  lastBody(path?: string): Promise<Record<string, unknown> | null>;
  health(): Promise<boolean>;
}

export function fakeAnthropicControl(baseUrl: string): FakeAnthropicControl {
  const call = controlCaller("fake-anthropic", baseUrl);
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
    async lastBody(path = "/v1/messages") {
      const requests = (await call("GET", "/__control/requests")) as RecordedRequest[];
      return requests.findLast((r) => r.path === path)?.body ?? null;
    },
    async health() {
      try {
        return (await fetch(new URL("/health", baseUrl))).ok;
      } catch {
        return false;
      }
    },
  };
}
