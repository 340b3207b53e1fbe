import { describe, expect, it } from "vitest";
import { extractMustKeep, MUST_KEEP_KINDS, type MustKeepItem, type MustKeepKind, type TranscriptTurn } from "@/lib/context/compaction";

const turn = (turnSeq: number, user: string, assistant: string): TranscriptTurn => ({
  turnSeq,
  messages: [
    { role: "user", text: user },
    { role: "assistant", text: assistant },
  ],
});

const of = (items: MustKeepItem[], kind: MustKeepKind) => items.filter((i) => i.kind === kind).map((i) => i.text);

const TRACE = "```\nTypeError: Cannot read properties of undefined (reading 'id')\n    at createSession (src/auth/session.ts:42:17)\n```";
const CODE = '```ts\nexport async function createSession(userId: string) {\n  if (!userId) throw new Error("missing user");\n  return db.insert(sessions).values({ userId });\n}\n```';

const DEV_CHAT: TranscriptTurn[] = [
  turn(
    2,
    `The login page crashes after I click submit. Here's the trace:\n${TRACE}\nIt started after we upgraded to next@15.5.28. Can you look at \`useAuthStore\`?`,
    [
      "The crash comes from `createSession()` being called before the user row exists. I checked src/auth/session.ts and app/api/login/route.ts.",
      "We decided to use a server action instead of the API route, because it avoids the extra round trip. Set `SESSION_TTL=3600` in .env.local and keep DATABASE_URL=postgres://app:hunter2@localhost:5432/app out of git.",
      "See https://nextjs.org/docs/app/api-reference/functions/server-actions for details.",
      CODE,
      "TODO: add a regression test for the empty user case.\n- [ ] migrate the remaining callers of fetchUserData\nThe next step is to remove the old route once the action ships. Running npm test now shows 3 failed, 41 passed. The API returned 502 Bad Gateway twice.",
    ].join("\n\n"),
  ),
  turn(
    3,
    "Also the worker logs error: ENOENT: no such file or directory, open 'config/app.yaml' on boot.",
    "```yaml\nserver:\n  port: 8080\n  max_connections: 100\n```\nInstall with pip install requests==2.31.0 and run with --max-old-space-size=4096. The docs are at https://docs.python-requests.org/en/latest/.",
  ),
];

describe("extractMustKeep on a realistic dev chat", () => {
  const items = extractMustKeep(DEV_CHAT);

  it("finds decisions as whole sentences", () => {
    expect(of(items, "decision")).toEqual([
      "We decided to use a server action instead of the API route, because it avoids the extra round trip.",
    ]);
  });

  it("finds error messages: the trace line, failing runs, HTTP errors, errno codes", () => {
    expect(of(items, "error")).toEqual([
      "TypeError: Cannot read properties of undefined (reading 'id')",
      "Running npm test now shows 3 failed, 41 passed.",
      "The API returned 502 Bad Gateway twice.",
      "Also the worker logs error: ENOENT: no such file or directory, open 'config/app.yaml' on boot.",
    ]);
  });

  it("finds pending tasks: TODO, unchecked boxes, next steps", () => {
    expect(of(items, "pending_task")).toEqual([
      "TODO: add a regression test for the empty user case.",
      "migrate the remaining callers of fetchUserData",
      "The next step is to remove the old route once the action ships.",
    ]);
  });

  it("finds file paths (with line numbers stripped) and well-known files", () => {
    expect(of(items, "file_path")).toEqual(["src/auth/session.ts", "app/api/login/route.ts", ".env.local", "config/app.yaml"]);
  });

  it("finds config: version pins, env vars (secrets by name only), settings lines, flags", () => {
    const config = of(items, "config");
    expect(config).toEqual(
      expect.arrayContaining(["next@15.5.28", "SESSION_TTL=3600", "DATABASE_URL", "port: 8080", "max_connections: 100", "requests==2.31.0", "--max-old-space-size=4096"]),
    );
    expect(config.join(" ")).not.toContain("hunter2");
  });

  it("finds URLs without trailing punctuation", () => {
    expect(of(items, "url")).toEqual([
      "https://nextjs.org/docs/app/api-reference/functions/server-actions",
      "https://docs.python-requests.org/en/latest/",
    ]);
  });

  it("keeps fenced code blocks whole, fences included", () => {
    const blocks = of(items, "code_block");
    expect(blocks).toContain(TRACE);
    expect(blocks).toContain(CODE);
    expect(blocks).toHaveLength(3);
  });

  it("finds identifiers in backticks and camelCase names, not names inside kept code blocks", () => {
    expect(of(items, "identifier")).toEqual(["useAuthStore", "createSession", "fetchUserData"]);
    // userId appears only inside the kept code block.
    expect(of(items, "identifier")).not.toContain("userId");
  });

  it("orders items by kind rank, then first appearance", () => {
    const ranks = items.map((i) => MUST_KEEP_KINDS.indexOf(i.kind));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });
});

describe("extractMustKeep precision and dedup", () => {
  it("does not flood on ordinary prose: no development artifacts, only the user's plans, tastes and dates", () => {
    const prose = [
      "Thanks! That makes sense. What do you think about the naming?",
      "Happy to help. The naming is fine. I usually prefer shorter names, but it's a matter of taste.",
      "In general, React components should be small. Node.js and Next.js both handle this well.",
      "TypeScript and JavaScript are both fine here. Use res.json() for the body and call it a day.",
      "Should we use Redis instead of Postgres for this?",
      "Error handling looks good to me. I'll take a look at the PR tomorrow morning, and the Monday standup is at 10.",
      "All 212 tests passed, 0 failed.",
    ].join("\n\n");
    expect(extractMustKeep([turn(2, prose, "Sounds good.")])).toEqual([
      { kind: "commitment", text: "I'll take a look at the PR tomorrow morning, and the Monday standup is at 10." },
      { kind: "preference", text: "I usually prefer shorter names, but it's a matter of taste." },
      { kind: "date_time", text: "tomorrow morning" },
      { kind: "date_time", text: "Monday" },
    ]);
    // Said by the assistant, the same sentences are not the user's plans or tastes.
    expect(extractMustKeep([turn(2, "Sounds good.", prose)]).map((i) => i.kind)).toEqual(["date_time", "date_time"]);
  });

  it("takes error lines from pasted logs, not from code that handles errors", () => {
    const code = "```python\ntry:\n    client.send()\nexcept RateLimitError:\n    logger.warning(\"send failed, retrying\")\n    raise TimeoutError(\"gave up after HTTP 429\")\n```";
    const log = "```\nnpm ERR! code ERESOLVE\nFAIL tests/unit/a.test.ts\n```";
    const items = extractMustKeep([turn(2, "Here is the handler and the CI log.", `${code}\n${log}`)]);
    expect(of(items, "error")).toEqual(["npm ERR! code ERESOLVE", "FAIL tests/unit/a.test.ts"]);
  });

  it("recognises bracketed route segments, home-relative paths, bare code files and dotless well-known files", () => {
    const items = extractMustKeep([
      turn(2, "Edit app/api/session/[id]/messages/route.ts and ~/.config/threadkeeper/settings.json.", "Also the Dockerfile, index.ts and `Button.tsx`; not Node.js, e.g. or res.json()."),
    ]);
    expect(of(items, "file_path")).toEqual([
      "app/api/session/[id]/messages/route.ts",
      "~/.config/threadkeeper/settings.json",
      "Dockerfile",
      "index.ts",
      "Button.tsx",
    ]);
  });

  it("deduplicates repeated items and items contained in longer ones of the same kind", () => {
    const items = extractMustKeep([
      turn(2, "Please look at src/db/schema.ts.", "I changed src/db/schema.ts and schema.ts now exports `createUser`."),
      turn(3, "Use `createUser` from src/db/schema.ts, with NODE_ENV=production.", "Right, NODE_ENV is read at start-up."),
    ]);
    expect(of(items, "file_path")).toEqual(["src/db/schema.ts"]);
    expect(of(items, "identifier")).toEqual(["createUser"]);
    expect(of(items, "config")).toEqual(["NODE_ENV=production"]);
  });

  it("keeps one kind per text: the highest ranked", () => {
    // `DATABASE_URL` in backticks is both an identifier and config; config ranks higher.
    const items = extractMustKeep([turn(2, "Where is `DATABASE_URL` set?", "In the deployment settings.")]);
    expect(items).toEqual([{ kind: "config", text: "DATABASE_URL" }]);
  });

  it("treats the previous summary as a source, so its items must survive", () => {
    const previous = "### Key Decisions\n- We decided to use pgvector for embeddings.\n\n### Files Modified\n- lib/memory/search.ts";
    const items = extractMustKeep([turn(5, "Now add paging.", "Done in lib/memory/list.ts.")], previous);
    expect(items).toEqual([
      { kind: "decision", text: "We decided to use pgvector for embeddings." },
      { kind: "file_path", text: "lib/memory/search.ts" },
      { kind: "file_path", text: "lib/memory/list.ts" },
    ]);
  });

  it("contributes a long block's identifiers instead of the block", () => {
    const body = Array.from({ length: 60 }, (_, i) => `  const value${i} = computeThing(${i});`).join("\n");
    const long = `\`\`\`ts\nfunction buildIndex() {\n${body}\n}\n\`\`\``;
    const items = extractMustKeep([turn(2, "Here is the file:", long)]);
    expect(of(items, "code_block")).toEqual([]);
    expect(of(items, "identifier")).toEqual(expect.arrayContaining(["buildIndex", "computeThing", "value0"]));
  });

  it("is deterministic", () => {
    expect(extractMustKeep(DEV_CHAT)).toEqual(extractMustKeep(DEV_CHAT));
  });

  it("keeps the names of the files the turns carried, however they are named", () => {
    const user = "[document: Quarterly Report Q3, 12 pages]\n[image: whiteboard photo.jpg]\n[file: handbook.pdf]\nWhat do these say?";
    expect(of(extractMustKeep([turn(3, user, "They agree.")]), "file_path")).toEqual(
      expect.arrayContaining(["Quarterly Report Q3", "whiteboard photo.jpg", "handbook.pdf"]),
    );
  });
});
