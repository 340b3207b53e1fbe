// Failed API-key authentications, counted per client address before the key is looked up. The
// per-key and per-user limits (./index.ts) count in Postgres once the caller is known; a stream
// of unknown keys has no caller to count against, and each one would cost a database lookup.
// So this count lives in the process, needs no database, and refuses with 429 before the lookup:
// it is per instance (N instances allow N times as much), which is enough to keep one client
// from turning key guesses into database load. Each address may fail a burst, then a few a minute;
// the instance as a whole a larger burst, so that addresses a client invents (X-Forwarded-For
// without a trusted proxy, or one IPv6 network after another) cannot multiply the lookups.
// A key that already succeeded on this instance passes without counting: a flood of guesses
// never locks out an integration that is already working.
import "server-only";
import { isIP } from "node:net";
import { authEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { countRefusal } from "@/lib/metrics";

/** Failures one client address may make at once, and how many more per minute after that. */
export const ADDRESS_FAILURES = { burst: 20, perMinute: 10 } as const;
/** Failures the whole instance takes at once, and per minute, from all addresses together. */
export const INSTANCE_FAILURES = { burst: 200, perMinute: 300 } as const;
/** Addresses (and good keys) remembered at most; the oldest go first, which only forgives them. */
const MAX_ENTRIES = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

interface State {
  addresses: Map<string, Bucket>;
  instance: Bucket;
  /** Hashes of keys that authenticated here lately: they skip the count. */
  goodKeys: Set<string>;
  /** Lookups in flight by key hash, settling true when the key was good. */
  pending: Map<string, Promise<boolean>>;
}

// On globalThis like the other per-process state: Next.js may load this module once per route bundle.
const g = globalThis as typeof globalThis & { __threadkeeperFailedAuth?: State };
function state(): State {
  g.__threadkeeperFailedAuth ??= {
    addresses: new Map(),
    instance: { tokens: INSTANCE_FAILURES.burst, at: Date.now() },
    goodKeys: new Set(),
    pending: new Map(),
  };
  return g.__threadkeeperFailedAuth;
}

/** Forgets every count (tests). */
export function resetFailedAuth(): void {
  delete g.__threadkeeperFailedAuth;
}

function refill(b: Bucket, limit: { burst: number; perMinute: number }, now: number): Bucket {
  b.tokens = Math.min(limit.burst, b.tokens + ((now - b.at) * limit.perMinute) / 60_000);
  b.at = now;
  return b;
}

function retryAfterSeconds(b: Bucket, limit: { perMinute: number }): number {
  return Math.max(1, Math.ceil(((1 - b.tokens) * 60) / limit.perMinute));
}

/** Makes room for `key` in a bounded Map or Set by dropping its oldest entry. */
function makeRoom(collection: { size: number; keys(): Iterator<string>; delete(key: string): boolean }, key: string): void {
  if (collection.size < MAX_ENTRIES) return;
  const oldest = collection.keys().next();
  if (!oldest.done && oldest.value !== key) collection.delete(oldest.value);
}

/** What a key lookup reports back: its outcome decides whether the failure it reserved stays taken. */
export interface AuthAttempt {
  /** The key was found and valid: give the reservation back and let the key skip the count from now on. */
  succeeded(): void;
  /** Unknown, revoked or expired: the failure stays counted, and the key no longer skips the count. */
  failed(): void;
  /** Neither (the database failed): give the reservation back. */
  abandoned(): void;
}

const PASS: AuthAttempt = { succeeded() {}, failed() {}, abandoned() {} };

/**
 * Before a key is looked up: reserves one failure from the address's and the instance's buckets,
 * or refuses with 429 `too_many_auth_failures` when either is empty. A reservation rather than a
 * count afterwards, so a burst of concurrent guesses cannot all pass the check before the first
 * fails. One lookup per key at a time: concurrent requests with a key being looked up wait for
 * its answer, so a new integration's first burst costs one reservation, not one each.
 */
export async function beginKeyLookup(address: string, keyHash: string): Promise<AuthAttempt> {
  const s = state();
  for (let inFlight = s.pending.get(keyHash); inFlight; inFlight = s.pending.get(keyHash)) await inFlight;
  if (s.goodKeys.has(keyHash)) return { ...PASS, failed: () => s.goodKeys.delete(keyHash) };
  const now = Date.now();
  let bucket = s.addresses.get(address);
  if (bucket) s.addresses.delete(address);
  else bucket = { tokens: ADDRESS_FAILURES.burst, at: now };
  makeRoom(s.addresses, address);
  // Re-inserted, so the Map's order is least recently seen first.
  s.addresses.set(address, refill(bucket, ADDRESS_FAILURES, now));
  const instance = refill(s.instance, INSTANCE_FAILURES, now);
  const refused = bucket.tokens < 1 ? ("address" as const) : instance.tokens < 1 ? ("instance" as const) : null;
  if (refused) throw tooManyFailures(refused, refused === "address" ? retryAfterSeconds(bucket, ADDRESS_FAILURES) : retryAfterSeconds(instance, INSTANCE_FAILURES));
  bucket.tokens -= 1;
  instance.tokens -= 1;
  const held = bucket;
  let answer: (good: boolean) => void = () => {};
  s.pending.set(keyHash, new Promise<boolean>((resolve) => (answer = resolve)));
  let settled = false;
  const settle = (good: boolean, giveBack: boolean) => {
    if (settled) return;
    settled = true;
    if (giveBack) {
      held.tokens = Math.min(ADDRESS_FAILURES.burst, held.tokens + 1);
      s.instance.tokens = Math.min(INSTANCE_FAILURES.burst, s.instance.tokens + 1);
    }
    if (good) {
      makeRoom(s.goodKeys, keyHash);
      s.goodKeys.add(keyHash);
    }
    s.pending.delete(keyHash);
    answer(good);
  };
  return {
    succeeded: () => settle(true, true),
    failed: () => settle(false, false),
    abandoned: () => settle(false, true),
  };
}

function tooManyFailures(per: "address" | "instance", retryAfter: number): AppError {
  countRefusal("failed_auth");
  const who = per === "address" ? "from your address" : "on this server";
  return new AppError(
    429,
    "too_many_auth_failures",
    `Too many requests with unknown, revoked or expired API keys ${who}. Retry in ${retryAfter} s.`,
    { per, retry_after_seconds: retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}

/**
 * The client's address as this deployment can know it. Next.js's server writes the socket's
 * address into X-Forwarded-For when the request has none, and leaves one the client sent alone;
 * each reverse proxy in front appends the address it saw. With THREADKEEPER_TRUST_PROXY=N
 * proxies, the client is the N-th entry from the right; with none, the last entry, which a
 * client can choose by sending the header itself (the instance's bucket bounds what that gains).
 * IPv6 addresses count by their /64, which one client usually holds whole.
 */
export function clientAddress(req: Request): string {
  const entries = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return "unknown";
  const hops = Math.max(1, authEnv().THREADKEEPER_TRUST_PROXY ?? 0);
  const entry = entries[Math.max(0, entries.length - hops)] as string;
  return normalizeAddress(entry);
}

/** An address without port, brackets or zone; IPv4-mapped as IPv4; IPv6 as its /64. */
export function normalizeAddress(raw: string): string {
  let a = raw.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1] as string;
  else if (/^[\d.]+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  a = a.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return mapped[1] as string;
  if (isIP(a) !== 6) return a.slice(0, 100);
  // A dotted IPv4 tail is two groups.
  a = a.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, p, q, r, t) => `${((Number(p) << 8) | Number(q)).toString(16)}:${((Number(r) << 8) | Number(t)).toString(16)}`);
  const [head, tail = ""] = a.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = a.includes("::") ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((x) => parseInt(x, 16).toString(16))
    .join(":")}::/64`;
}
