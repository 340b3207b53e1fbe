// Deterministic, realistic-looking developer-chat text for seeding: prose mixed with code,
// file paths, identifiers and numbers, so tiktoken counts vary from message to message.

export type Rand = () => number;

/** mulberry32: a tiny seeded PRNG, so every run seeds the same history. */
export function rng(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const USER_SENTENCES = [
  "The build fails on CI but passes locally, any idea why?",
  "Can you refactor this so the retry logic lives in one place?",
  "I'm seeing a 429 from the API after about forty requests a minute.",
  "Why does the migration lock the whole table instead of a single row?",
  "Please add a unit test for the empty-input case.",
  "The window cutoff marker shows up in the wrong place after a reload.",
  "Let's rename fetchUserData to loadProfile everywhere.",
  "What's the cleanest way to stream Server-Sent Events from a route handler?",
  "I pasted the stack trace below; it crashes right after the second await.",
  "Should we keep the calibration factor per model or per tokenizer family?",
  "The dashboard chart is off by one day in UTC+13.",
  "Can you explain why the tool_result has to follow the tool_use immediately?",
  "Memory usage climbs to 1.2 GB after about 3,000 messages.",
  "Make the token bar pulse when usage crosses the threshold.",
  "Our p95 latency went from 180 ms to 740 ms after the last deploy.",
  "Does PGlite support `for update skip locked` in version 0.5?",
];

const ASSISTANT_SENTENCES = [
  "The failure comes from a race between the two writers: both read next_seq before either commits.",
  "I moved the retry loop into a single helper with exponential backoff and jitter, capped at 8 seconds.",
  "A 429 means the per-minute token budget is spent; honour the retry-after header instead of retrying at once.",
  "Postgres takes an ACCESS EXCLUSIVE lock for ALTER TABLE ... ADD COLUMN with a volatile default.",
  "Here is a test that covers the empty array, a single element and a list with duplicates.",
  "The cutoff is computed from turn_seq, so a reload must read window_start_turn from the session row.",
  "I renamed the function and updated the 14 call sites; the public API in index.ts re-exports the new name.",
  "Return a ReadableStream from the handler and enqueue `event:` and `data:` lines separated by a blank line.",
  "The second await resolves after the component unmounted, so setState runs on a stale closure.",
  "Per model is safer: two models sharing a tokenizer can still differ by a few percent on code-heavy input.",
  "Dates are stored as timestamptz but formatted with the server's offset; format them on the client instead.",
  "The Messages API rejects a request whose tool_use has no matching tool_result in the next user message.",
  "Each message keeps its parsed content blocks in memory; paging the list to 200 items bounds that.",
  "I added a CSS animation keyed on usage_percent >= threshold_percent, disabled for prefers-reduced-motion.",
  "The regression matches the new N+1 query in the session list; one join brings it back to about 190 ms.",
  "Yes, PGlite 0.5.x is PostgreSQL 18, so SKIP LOCKED works, although there is only ever one connection.",
  "Note that the estimate is raw cl100k; multiply by the calibration factor (about 1.3) before comparing with C.",
  "Running the suite again shows 212 passed, 0 failed, 3 skipped in 41.7 s.",
];

const PATHS = [
  "lib/context/window.ts",
  "lib/db/messages.ts",
  "app/api/session/[id]/messages/route.ts",
  "components/context/TokenBar.tsx",
  "supabase/migrations/20261122000001_spine.sql",
  "tests/integration/chat.test.ts",
  "lib/tokens/calibration.ts",
  "~/.config/threadkeeper/settings.json",
  "src/server/handlers/upload.go",
  "packages/ui/src/Button.stories.tsx",
];

const SNIPPETS = [
  "```ts\nexport function clamp(x: number, lo: number, hi: number): number {\n  return Math.min(hi, Math.max(lo, x));\n}\n```",
  "```sql\nselect turn_seq, sum(token_count) from messages\nwhere session_id = $1 group by turn_seq order by turn_seq desc limit 20;\n```",
  "```ts\nconst res = await fetch(`/api/context/status?session_id=${id}`);\nif (!res.ok) throw new Error(`status ${res.status}`);\n```",
  "```python\nfor attempt in range(5):\n    try:\n        return client.messages.create(**params)\n    except RateLimitError:\n        time.sleep(2 ** attempt)\n```",
  "```\nTypeError: Cannot read properties of undefined (reading 'turnSeq')\n    at selectWindow (lib/context/window.ts:41:23)\n    at assembleWindow (lib/chat/context.ts:88:21)\n```",
  "```json\n{ \"compaction_threshold\": 0.8, \"output_reservation\": 0.2, \"safety_buffer\": 0.1 }\n```",
  "```bash\nnpm run typecheck && npx vitest run tests/unit --reporter=dot\n```",
  "```tsx\n<TokenBar used={status.current_tokens} capacity={status.capacity_tokens} pulse={near} />\n```",
];

export function pick<T>(r: Rand, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** A uniform integer in [lo, hi]. */
export function int(r: Rand, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

function decorate(r: Rand, s: string): string {
  const x = r();
  if (x < 0.2) return `${s} See ${pick(r, PATHS)}:${1 + Math.floor(r() * 400)}.`;
  if (x < 0.35) return `${s} (took ${(r() * 900).toFixed(1)} ms over ${1 + Math.floor(r() * 5000)} rows)`;
  return s;
}

/** One user message: two to four sentences, now and then a snippet. */
export function userText(r: Rand): string {
  const parts: string[] = [];
  const n = 2 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) parts.push(decorate(r, pick(r, USER_SENTENCES)));
  if (r() < 0.35) parts.push(pick(r, SNIPPETS));
  return parts.join(" ");
}

/** One assistant message: three to six sentences, often with a snippet. */
export function assistantText(r: Rand): string {
  const parts: string[] = [];
  const n = 3 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) parts.push(decorate(r, pick(r, ASSISTANT_SENTENCES)));
  if (r() < 0.6) parts.splice(1 + Math.floor(r() * (parts.length - 1)), 0, pick(r, SNIPPETS));
  return parts.join(r() < 0.5 ? " " : "\n\n");
}

/** A typical new user message of about 150 tokens; `variant` changes its text (and so defeats caches). */
export function newUserMessage(variant: number): string {
  const r = rng(0x5eed + variant);
  return [
    `Run ${variant}: I tried the change you suggested in ${pick(r, PATHS)} and the tests still fail.`,
    pick(r, SNIPPETS),
    `${pick(r, USER_SENTENCES)} ${pick(r, USER_SENTENCES)}`,
    `It happens on roughly ${Math.floor(r() * 100)}% of runs, and only when the session has more than ${1000 + Math.floor(r() * 9000)} messages.`,
    `${pick(r, USER_SENTENCES)} ${pick(r, USER_SENTENCES)}`,
    `For reference, ${pick(r, ASSISTANT_SENTENCES).toLowerCase()}`,
  ].join("\n\n");
}
