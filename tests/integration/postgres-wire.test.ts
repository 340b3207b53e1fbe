import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_USER_ID, prepare, setDb, withUser, type Database } from "@/lib/db";
import { fromPGlite, fromPostgres } from "@/lib/db/driver";
import { prepareSend, sendAndCollect } from "@/lib/turn/send";
import { createSession, messagesPage } from "@/lib/operations/sessions";

// The production driver (postgres.js) over the real Postgres wire protocol: PGlite serves it
// through pglite-socket, which handles exactly one connection well, hence max: 1.
let pg: PGlite;
let server: PGLiteSocketServer;
let db: Database;

beforeAll(async () => {
  pg = await PGlite.create("memory://", { extensions: { vector } });
  // The auth shim is what Supabase would provide; apply it through PGlite directly.
  await prepare(fromPGlite(pg), true);
  server = new PGLiteSocketServer({ db: pg, port: 0, host: "127.0.0.1" });
  await server.start();
  const port = (server as unknown as { server: { address(): { port: number } } }).server.address().port;
  db = fromPostgres(postgres({ host: "127.0.0.1", port, user: "postgres", database: "postgres", max: 1, onnotice: () => {} }));
  await prepare(db, false); // migrations already applied: must be a no-op through the wire too
  setDb(db);
});

afterAll(async () => {
  setDb(undefined);
  await db.close();
  await server.stop();
  await pg.close();
});

describe("postgres.js driver", () => {
  it("runs queries as the authenticated role with RLS", async () => {
    const rows = await withUser(LOCAL_USER_ID, (tx) =>
      tx.query<{ role: string; uid: string }>("select current_user as role, auth.uid()::text as uid"),
    );
    expect(rows).toEqual([{ role: "authenticated", uid: LOCAL_USER_ID }]);
  });

  it("round-trips a message turn (offline responder) through postgres.js", async () => {
    delete process.env.ANTHROPIC_API_KEY;
    process.env.THREADKEEPER_OFFLINE_DELAY_MS = "0";
    const session = await createSession(LOCAL_USER_ID, { title: "wire" });
    const result = await sendAndCollect(await prepareSend(LOCAL_USER_ID, session.id, { content: "over the wire" }));
    expect(result.error, JSON.stringify(result.error)).toBeUndefined();
    expect(result.assistant_message?.status).toBe("complete");
    const page = await messagesPage(LOCAL_USER_ID, session.id, undefined, 10);
    expect(page.messages.map((m) => [m.seq, m.role, m.status])).toEqual([
      [1, "user", "complete"],
      [2, "assistant", "complete"],
    ]);
    expect(page.messages[0].content).toEqual([{ type: "text", text: "over the wire" }]);
    expect(result.status.current_tokens).toBeGreaterThan(0);
  });
});
