// withUser's claims leave with the transaction's first statement instead of a round trip of
// their own (lib/db/index.ts): statements still run in order, under the caller's claims, in one
// transaction, and a failure caught inside still fails the whole transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withUser, type Database } from "@/lib/db";
import { pgContext, userDatabase } from "./context";

const available = pgContext().available;
const USER = "00000000-0000-4000-a000-0000000032d1";

describe.skipIf(!available)("real PostgreSQL 15: transactions with pipelined claims", () => {
  const pg = userDatabase(USER, "driver@example.test", 1);
  let db: Database;

  // One connection, so every transaction reuses the one the last left behind (and its temporary table).
  beforeAll(async () => {
    db = await pg.ready();
  });
  afterAll(() => pg.close());

  it("runs the claims before the first statement, in one transaction", async () => {
    const [row] = await withUser(USER, (tx) =>
      tx.query<{ uid: string; role: string; txid: string; again: string }>(
        "select auth.uid()::text as uid, current_user::text as role, txid_current()::text as txid, txid_current()::text as again",
      ),
    );
    expect(row).toMatchObject({ uid: USER, role: "authenticated" });
    const ids = await db.transaction(async (tx) => [
      ...(await tx.query<{ id: string }>("select txid_current()::text as id")),
      ...(await tx.query<{ id: string }>("select txid_current()::text as id")),
    ]);
    expect(ids[0].id).toBe(ids[1].id);
  });

  it("fails a transaction whose statement failed even when the failure was caught inside, and commits nothing of it", async () => {
    await db.transaction((tx) => tx.query("create temporary table if not exists driver_probe (n integer primary key)"));
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into driver_probe values (1)");
        await tx.query("insert into driver_probe values (1)").catch(() => null);
        return "ignored";
      }),
    ).rejects.toMatchObject({ code: "23505" });
    const [after] = await db.transaction((tx) => tx.query<{ n: number }>("select count(*)::int as n from driver_probe"));
    expect(after.n).toBe(0);
    // The connection went back to the pool in a clean state.
    await db.transaction((tx) => tx.query("insert into driver_probe values (2)"));
    const [again] = await db.transaction((tx) => tx.query<{ n: number }>("select count(*)::int as n from driver_probe"));
    expect(again.n).toBe(1);
  });
});
