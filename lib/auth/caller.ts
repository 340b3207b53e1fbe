// Who is calling, as every layer from the limits up sees it.
import "server-only";
import type { ApiTool, Scope } from "@/lib/contract";
import type { Quota } from "@/lib/limits/quota";

/**
 * How the caller proved who they are. A verified bearer token or API key is exempt from the
 * browser CSRF rule: a browser never attaches either on its own.
 */
export type AuthMethod = "local" | "cookie" | "bearer" | "key";

/** The API key a request came with: it acts as the key's owner, limited to its scopes. */
export interface CallerKey {
  id: string;
  name: string;
  scopes: Scope[];
  /** Which of Threadkeeper's own tools its requests offer Claude; null: the session's settings. */
  tools: ApiTool[] | null;
}

export interface Caller {
  userId: string;
  email: string | null;
  via: AuthMethod;
  /** SaaS mode: the sign-in the token belongs to. */
  signInId?: string | null;
  /** Only for `via: "key"`; every other caller holds every scope. */
  key?: CallerKey;
  /** A key's requests bucket, already taken by the key lookup itself (see Admission). */
  requests?: Quota;
}
