// An import on a real PostgreSQL 15 (issue 34): while one conversation's transaction is open (a
// long conversation takes a while to store), the same user's turns, another import and a
// second instance's claim of stale imports go on without waiting for it, another import bringing
// the same project too. Each would wait, and
// fail on the lock timeout, on any row it shared with the import's transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withUser, type Database } from "@/lib/db";
import { claimStaleImports, insertImport, markImported, recordOutcome } from "@/lib/db/imports";
import { appendMessage } from "@/lib/db/messages";
import { appendMessages } from "@/lib/db/message-batch";
import { ensureProject } from "@/lib/db/projects";
import { patchSession } from "@/lib/db/sessions";
import { createSession, createSessionIn } from "@/lib/operations/sessions";
import { pgContext, userDatabase } from "./context";

const available = pgContext().available;
const USER = "00000000-0000-4000-a000-0000000034a1";
const MODEL = "claude-haiku-4-5";

describe.skipIf(!available)("real PostgreSQL 15: an import beside turns and other imports", () => {
  const pg = userDatabase(USER, "import-parallel@example.test", 6);
  let db: Database;

  beforeAll(async () => {
    db = await pg.ready();
  });
  afterAll(() => pg.close());

  const message = (i: number) => ({
    role: (i % 2 ? "assistant" : "user") as "user" | "assistant",
    content: [{ type: "text" as const, text: `imported line ${i} about the quokka` }],
    text: `imported line ${i} about the quokka`,
    tokenCount: 8,
    startsTurn: i % 2 === 0,
    saidAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
  });

  /** The project both imports bring, made as import-store makes it: before, in a transaction of its own. */
  const project = () =>
    withUser(USER, async (tx) => {
      await tx.query("set local lock_timeout = '2s'");
      return ensureProject(tx, USER, "quokka-tracker", null);
    });

  /** One conversation stored as import-store does: its project, the session, its messages in batches, its source, the import's counts. */
  async function storeHeld(importId: string, sourceId: string, hold: Promise<void>, stored: () => void): Promise<void> {
    const projectId = await project();
    await withUser(USER, async (tx) => {
      const session = await createSessionIn(tx, USER, { title: `import ${sourceId}` });
      await patchSession(tx, USER, session.id, { projectId });
      for (let from = 0; from < 256; from += 64) await appendMessages(tx, USER, session.id, Array.from({ length: 64 }, (_, i) => message(from + i)));
      await markImported(tx, session.id, { format: "chatgpt", sourceId, createdAt: "2024-01-01T00:00:00Z", updatedAt: "2024-01-02T00:00:00Z" }, importId);
      await recordOutcome(tx, importId, { format: "chatgpt", bytesRead: 1000, outcome: "imported" });
      stored();
      await hold;
    });
  }

  it("a conversation's open transaction holds up no turn, no other import and no claim", async () => {
    const [first, second] = await Promise.all([0, 1].map(() => withUser(USER, (tx) => insertImport(tx, USER, { fileName: "conversations.json", bytes: 1000 }))));
    const chats = await Promise.all([0, 1, 2].map((i) => createSession(USER, { title: `chat ${i}`, model: MODEL })));
    let release = () => {};
    const hold = new Promise<void>((r) => (release = r));
    let stored = () => {};
    const written = new Promise<void>((r) => (stored = r));
    const holder = storeHeld(first.id, "conv-held", hold, stored);
    await written;
    try {
      await Promise.all([
        ...chats.map((chat, i) =>
          withUser(USER, async (tx) => {
            await tx.query("set local lock_timeout = '2s'");
            await appendMessage(tx, USER, chat.id, { ...message(i), status: "complete" });
          }),
        ),
        project().then((projectId) =>
          withUser(USER, async (tx) => {
            await tx.query("set local lock_timeout = '2s'");
            const session = await createSessionIn(tx, USER, { title: "another import" });
            await patchSession(tx, USER, session.id, { projectId });
          await appendMessages(tx, USER, session.id, [message(0), message(1)]);
            await markImported(tx, session.id, { format: "claude", sourceId: "conv-other", createdAt: null, updatedAt: null }, second.id);
            await recordOutcome(tx, second.id, { format: "claude", bytesRead: 500, outcome: "imported" });
          }),
        ),
        // A second instance starting now passes over the running import it cannot lock.
        claimStaleImports(db, 0).then((claimed) => expect(claimed.map((c) => c.id)).not.toContain(first.id)),
      ]);
    } finally {
      release();
      await holder;
    }
    const rows = await withUser(USER, (tx) =>
      tx.query<{ import_source_id: string; messages: number; project: string }>(
        `select s.import_source_id, (select count(*)::int from messages m where m.session_id = s.id) as messages,
           (select p.name from projects p where p.id = s.project_id) as project
           from sessions s where s.user_id = $1 and s.import_source_id is not null order by 1`,
        [USER],
      ),
    );
    expect(rows).toEqual([
      { import_source_id: "conv-held", messages: 256, project: "quokka-tracker" },
      { import_source_id: "conv-other", messages: 2, project: "quokka-tracker" },
    ]);
  });
});
