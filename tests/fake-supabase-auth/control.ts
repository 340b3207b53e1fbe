/**
 * Typed client for the control endpoints of a standalone fake Supabase Auth server (e.g. the one
 * Playwright starts as a web server), for tests that cannot reach the in-process handle.
 */
import { controlCaller } from "../fake-http";
import type {
  CreateUserInput,
  EmailType,
  FakeSession,
  FakeUser,
  MintOptions,
  RecordedAuthRequest,
  RotateKeyOptions,
  RotateKeyResult,
  SentEmail,
} from "./types";

export interface FakeSupabaseAuthControl {
  reset(): Promise<void>;
  rotateKey(opts?: RotateKeyOptions): Promise<RotateKeyResult>;
  mintToken(opts?: MintOptions): Promise<string>;
  emails(filter?: { to?: string; type?: EmailType }): Promise<SentEmail[]>;
  /** The newest email to an address (optionally of one type); throws when there is none. */
  latestEmail(to: string, type?: EmailType): Promise<SentEmail>;
  users(): Promise<FakeUser[]>;
  createUser(input: CreateUserInput): Promise<FakeUser>;
  sessions(userId?: string): Promise<FakeSession[]>;
  requests(): Promise<RecordedAuthRequest[]>;
  health(): Promise<boolean>;
}

export function fakeSupabaseAuthControl(baseUrl: string): FakeSupabaseAuthControl {
  const call = controlCaller("fake-supabase-auth", baseUrl);
  const query = (params: Record<string, string | undefined>): string => {
    const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
    return defined.length ? `?${new URLSearchParams(defined)}` : "";
  };
  const control: FakeSupabaseAuthControl = {
    async reset() {
      await call("POST", "/__control/reset", {});
    },
    async rotateKey(opts = {}) {
      return (await call("POST", "/__control/rotate-key", opts)) as RotateKeyResult;
    },
    async mintToken(opts = {}) {
      return ((await call("POST", "/__control/mint", opts)) as { token: string }).token;
    },
    async emails(filter = {}) {
      return (await call("GET", `/__control/emails${query(filter)}`)) as SentEmail[];
    },
    async latestEmail(to, type) {
      const emails = await control.emails({ to, type });
      const latest = emails.at(-1);
      if (!latest) throw new Error(`fake-supabase-auth: no ${type ? `${type} ` : ""}email to ${to}`);
      return latest;
    },
    async users() {
      return (await call("GET", "/__control/users")) as FakeUser[];
    },
    async createUser(input) {
      return (await call("POST", "/__control/users", input)) as FakeUser;
    },
    async sessions(userId) {
      return (await call("GET", `/__control/sessions${query({ user: userId })}`)) as FakeSession[];
    },
    async requests() {
      return (await call("GET", "/__control/requests")) as RecordedAuthRequest[];
    },
    async health() {
      try {
        return (await fetch(new URL("/health", baseUrl))).ok;
      } catch {
        return false;
      }
    },
  };
  return control;
}
