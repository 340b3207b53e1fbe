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
    async health() {
      try {
        return (await fetch(new URL("/health", baseUrl))).ok;
      } catch {
        return false;
      }
    },
  };
}
