// History search (lib/search/history.ts) on the real database: what it finds, what it shows,
// and what it never shows.
import { describe, expect, it } from "vitest";
import { createSession } from "@/lib/operations/sessions";
import { LOCAL_USER_ID, withUser } from "@/lib/db";
import { inheritHistory } from "@/lib/db/forks";
import { appendMessage, type NewMessage } from "@/lib/db/messages";
import { searchHistory, type HistoryHit, type HistoryQuery } from "@/lib/search/history";
import { KEYWORD_MATCH_BUDGET } from "@/lib/search/keywords";
import { foldPendingRollups, indexPendingMessages } from "@/lib/search/indexer";
import { prose, useHarness } from "./harness";

const h = useHarness({ online: false });
const ME = LOCAL_USER_ID;
const OTHER = "00000000-0000-4000-8000-0000000000b2";

async function ensureOther(): Promise<void> {
  await h.db.transaction((tx) =>
    tx.query(`insert into auth.users (id, email) values ($1, 'b@example.com') on conflict (id) do nothing`, [OTHER]),
  );
}

async function session(userId = ME, title = "s"): Promise<string> {
  return (await createSession(userId, { title })).id;
}

async function say(sessionId: string, role: "user" | "assistant", text: string, userId = ME, extra: Partial<NewMessage> = {}) {
  return withUser(userId, (tx) =>
    appendMessage(tx, userId, sessionId, {
      role,
      content: [{ type: "text", text }],
      text,
      tokenCount: Math.ceil(text.length / 4),
      status: "complete",
      startsTurn: role === "user",
      ...extra,
    }),
  );
}

async function search(q: Partial<HistoryQuery> & { q: string }, userId = ME): Promise<HistoryHit[]> {
  return withUser(userId, (tx) => searchHistory(tx, userId, { limit: 10, ...q }));
}

async function drain(): Promise<void> {
  while ((await indexPendingMessages(h.db)) > 0);
}

describe("history search", () => {
  it("ranks the planted message first, with the match in its snippet, before and after embedding", async () => {
    const s = await session(ME, "Trip planning");
    for (let i = 0; i < 30; i++) await say(s, i % 2 ? "assistant" : "user", `${prose(60, i)} about the weekend plans`);
    const planted = await say(s, "user", `${prose(400, 7)} My sister Marguerite lands in Lisbon on the 14th at gate B22. ${prose(300, 9)}`);
    await say(s, "assistant", "Noted, I will remember the flight.");

    const before = await search({ q: "Marguerite Lisbon" });
    expect(before[0]).toMatchObject({ message_id: planted.id, session_id: s, session_title: "Trip planning", seq: planted.seq, role: "user" });
    expect(before[0].snippet).toContain("Marguerite lands in Lisbon");
    expect(before[0].snippet.length).toBeLessThanOrEqual(302);
    expect(before[0].text.length).toBeLessThanOrEqual(2_010);
    expect(before[0].text).toContain("Marguerite");

    const short = await say(s, "user", "Reminder: Marguerite lands in Lisbon at gate B22.");
    await drain();
    // Any of the words is enough, the best-covered message first: a question shares only some.
    const question = await search({ q: "which gate does she land at in Lisbon?" });
    expect(question[0].message_id).toBe(short.id);
    // Both mentions now, each ranked by keywords and similarity (a higher fused score than keywords alone).
    const after = await search({ q: "Marguerite Lisbon" });
    expect(after.slice(0, 2).map((x) => x.message_id).sort()).toEqual([planted.id, short.id].sort());
    expect(after.find((x) => x.message_id === planted.id)!.score).toBeGreaterThan(before[0].score);
  });

  it("never shows another user's messages, even for their own session id", async () => {
    await ensureOther();
    const mine = await session();
    const theirs = await session(OTHER);
    const own = await say(mine, "user", "the quokka migration runbook lives in ops/quokka.md");
    await say(theirs, "user", "the quokka migration runbook is secret to B", OTHER);
    await drain();
    const hits = await search({ q: "quokka runbook" });
    expect(hits.map((x) => x.message_id)).toEqual([own.id]);
    expect(await search({ q: "quokka runbook", sessionId: theirs })).toEqual([]);
    const asOther = await search({ q: "quokka runbook" }, OTHER);
    expect(asOther.every((x) => x.session_id === theirs)).toBe(true);
  });

  it("finds in a fork what it inherited, under the fork's id, and leaves a session's view out on request", async () => {
    const src = await session(ME, "Source");
    const inherited = await say(src, "user", "we chose the narwhal protocol for sync");
    await say(src, "assistant", "narwhal protocol it is");
    const fork = await session(ME, "Fork");
    await withUser(ME, async (tx) => {
      await inheritHistory(tx, ME, fork, src, 2);
      await tx.query(`update sessions set next_seq = 3, last_turn_seq = 1 where id = $1`, [fork]);
    });
    const own = await say(fork, "user", "narwhal protocol needs a retry budget");
    const later = await say(src, "user", "narwhal protocol: the source went on alone");

    const inFork = await search({ q: "narwhal protocol", sessionId: fork });
    expect(inFork.map((x) => x.message_id).sort()).toEqual([inherited.id, own.id, inFork.find((x) => x.role === "assistant")!.message_id].sort());
    expect(inFork.every((x) => x.session_id === fork)).toBe(true);
    expect(inFork.map((x) => x.message_id)).not.toContain(later.id);
    expect(inFork.find((x) => x.message_id === inherited.id)?.seq).toBe(1);

    const elsewhere = await search({ q: "narwhal protocol", excludeSessionId: fork });
    expect(elsewhere.map((x) => x.message_id)).toEqual([later.id]);
  });

  it("shows a pasted key redacted in the snippet and the text", async () => {
    const s = await session();
    const key = "sk-ant-api03-" + "Zq8vR2mT7xK4pL9wB3nY6cF1hJ5dG0sA".repeat(2) + "-AbCdEf";
    await say(s, "user", `here is the albatross deploy key ${key} for staging`);
    await drain();
    const [hit] = await search({ q: "albatross deploy key" });
    expect(hit.snippet).toContain("[redacted:");
    expect(hit.snippet).not.toContain("Zq8vR2mT7xK4");
    expect(hit.text).not.toContain("Zq8vR2mT7xK4");
  });

  it("ranks an edited turn's live version above the version it replaced", async () => {
    const s = await session();
    const old = await say(s, "user", "book the pelican room for the offsite on Friday");
    await say(s, "assistant", "Sure.");
    const live = await say(s, "user", "book the pelican room for the offsite on Saturday", ME, { supersedesTurn: old.turn_seq });
    await drain();
    const hits = await search({ q: "pelican room offsite", sessionId: s });
    expect(hits.map((x) => x.message_id)).toEqual([live.id, old.id]);
    expect(hits[1].score).toBeLessThan(hits[0].score);
  });

  it("filters by project and dates", async () => {
    const s = await session();
    const [p] = await h.db.transaction((tx) =>
      tx.query<{ id: string }>(`insert into projects (user_id, name) values ($1, 'Walrus') returning id`, [ME]),
    );
    const other = await session();
    await h.db.transaction((tx) => tx.query(`update sessions set project_id = $2 where id = $1`, [s, p.id]));
    const inProject = await say(s, "user", "walrus telemetry dashboard");
    await say(other, "user", "walrus telemetry elsewhere");
    expect((await search({ q: "walrus telemetry", projectId: p.id })).map((x) => x.message_id)).toEqual([inProject.id]);
    expect(await search({ q: "walrus telemetry", to: new Date(Date.now() - 86_400_000) })).toEqual([]);
    expect((await search({ q: "walrus telemetry", from: new Date(Date.now() - 86_400_000) })).length).toBe(2);
  });

  it("ranks every match of a word however old, reads only the newest of one in more messages than the budget, and never another user's", async () => {
    await ensureOther();
    const mine = await session(ME, "Ledger");
    const theirs = await session(OTHER, "Theirs");
    const extra = 100;
    const start = Date.UTC(2025, 0, 1);
    const minute = 60_000;
    // seq 1 is the oldest and the best match (the word three times); then the newer ones, one a
    // minute: "ocelot" in BUDGET + extra of them, "margay" in only the first 300. The other
    // user's matches are newer than all of them.
    await h.db.transaction(async (tx) => {
      await tx.query(
        `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, created_at)
         select $1, $2, i, i, 'user', '[]'::jsonb,
           case when i = 1 then 'ocelot ocelot ocelot margay margay margay ledger'
             else 'ocelot ledger entry ' || i || case when i <= 300 then ' margay' else '' end end,
           $3::timestamptz + make_interval(mins => i)
         from generate_series(1, $4::int) i`,
        [mine, ME, new Date(start).toISOString(), KEYWORD_MATCH_BUDGET + extra + 1],
      );
      await tx.query(
        `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, created_at)
         select $1, $2, i, i, 'user', '[]'::jsonb, 'ocelot margay ledger of B ' || i, now() - make_interval(mins => i)
         from generate_series(1, 50) i`,
        [theirs, OTHER],
      );
    });
    // A word in fewer messages than the budget: all of them ranked, so the oldest, best one leads.
    const rare = await search({ q: "margay" });
    expect(rare[0]).toMatchObject({ session_id: mine, seq: 1 });
    expect(rare.every((x) => x.session_id === mine)).toBe(true);
    // A word in more: only the newest BUDGET are read (nothing is embedded here, so the keyword
    // arm is the only one) ...
    const common = await search({ q: "ocelot" });
    expect(common.length).toBe(10);
    expect(common.every((x) => x.session_id === mine && x.seq > extra + 1)).toBe(true);
    // ... until the date range ends before the newer ones: the bounds apply before the budget.
    const old = await search({ q: "ocelot", to: new Date(start + 30 * minute) });
    expect(old[0]).toMatchObject({ session_id: mine, seq: 1 });
    expect(old.length).toBe(10);
    // With a rare word beside it, the rare word's matches are read in full and the common one
    // only scores them.
    expect((await search({ q: "ocelot margay" }))[0]).toMatchObject({ session_id: mine, seq: 1 });
    // The other user, beside them, sees only their own.
    const asOther = await search({ q: "ocelot ledger" }, OTHER);
    expect(asOther.length).toBe(10);
    expect(asOther.every((x) => x.session_id === theirs)).toBe(true);
  });

  it("keeps each user's word statistics with their messages: inserted, finished streaming, deleted, folded", async () => {
    await ensureOther();
    // Each change is a row of its own until folded: a key's figure is the sum of its rows.
    const stats = (userId: string) =>
      withUser(userId, async (tx) => ({
        terms: Object.fromEntries(
          (
            await tx.query<{ lexeme: string; df: number }>(
              `select l.lexeme, sum(s.df)::int as df from unnest(array['carac', 'serval', 'lynx']) l(lexeme)
               join search_terms s on s.term = hashtextextended(l.lexeme, 0) group by 1 having sum(s.df) <> 0 order by 1`,
            )
          ).map((r) => [r.lexeme, r.df]),
        ),
        totals: (
          await tx.query<{ docs: number; words: number }>(`select coalesce(sum(docs), 0)::int as docs, coalesce(sum(words), 0)::int as words from search_totals`)
        )[0],
      }));
    const before = await stats(ME);
    const s = await session();
    await say(s, "user", "caracal caracal serval");
    const streaming = await say(s, "assistant", "", ME, { status: "streaming" });
    await say(await session(OTHER), "user", "caracal lynx", OTHER);
    expect((await stats(ME)).terms).toEqual({ carac: 1, serval: 1 });
    expect(Number((await stats(ME)).totals.docs)).toBe(Number(before.totals?.docs ?? 0) + 1);
    // A reply counts once it is finished, with the words it ended with.
    await withUser(ME, (tx) => tx.query(`update messages set text = 'a lynx and a caracal' where id = $1`, [streaming.id]));
    expect((await stats(ME)).terms).toEqual({ carac: 1, serval: 1 });
    await withUser(ME, (tx) => tx.query(`update messages set status = 'complete' where id = $1`, [streaming.id]));
    expect((await stats(ME)).terms).toEqual({ carac: 2, lynx: 1, serval: 1 });
    expect(Number((await stats(ME)).totals.words)).toBe(Number(before.totals?.words ?? 0) + 3 + 2);
    // A deleted session takes its messages' counts with it (stored messages never change words).
    await withUser(ME, (tx) => tx.query(`delete from sessions where id = $1`, [s]));
    expect(await stats(ME)).toEqual(before);
    const other = await stats(OTHER);
    expect(other.terms).toEqual({ carac: 1, lynx: 1 });
    // The fold leaves one row per key (none for a key that sums to nothing) and every figure as it was; again, it does nothing.
    expect(await foldPendingRollups(h.db)).toBeGreaterThan(0);
    expect(await stats(ME)).toEqual(before);
    expect(await stats(OTHER)).toEqual(other);
    const shape = () =>
      h.db.transaction(async (tx) => (
        await tx.query<{ unfolded: number; repeated: number; empty: number }>(
          `select (select count(*) from search_terms where not folded)::int + (select count(*) from search_totals where not folded)::int as unfolded,
             (select count(*) from (select 1 from search_terms group by user_id, term having count(*) > 1) x)::int
               + (select count(*) from (select 1 from search_totals group by user_id having count(*) > 1) x)::int as repeated,
             (select count(*) from search_terms where df = 0)::int as empty`,
        )
      )[0]);
    expect(await shape()).toEqual({ unfolded: 0, repeated: 0, empty: 0 });
    expect(await foldPendingRollups(h.db)).toBe(0);
    expect(await stats(ME)).toEqual(before);
  });

  it("returns a newest set of matches whichever way it reads the history, across segments, timestamp ties and date bounds", async () => {
    await ensureOther();
    const mine = await session(ME, "Segments");
    const theirs = await session(OTHER, "Theirs");
    const start = Date.UTC(2024, 0, 1);
    const rows = 1_200;
    // Three messages share each timestamp, one of them a match, so every segment bound falls on
    // a tie with a match in it. The newest half matches sparsely (every 3rd), the oldest half
    // wholly, so the frequency a segment measures differs from the table's and segments resize.
    await h.db.transaction(async (tx) => {
      await tx.query(
        `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, created_at)
         select $1, $2, i, i, 'user', '[]'::jsonb,
           case when i <= $4 / 2 or i % 3 = 0 then 'numbat sighting ' || i else 'wallaby note ' || i end,
           $3::timestamptz + make_interval(mins => i / 3)
         from generate_series(1, $4::int) i`,
        [mine, ME, new Date(start).toISOString(), rows],
      );
      await tx.query(
        `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, created_at)
         select $1, $2, i, i, 'user', '[]'::jsonb, 'numbat elsewhere ' || i, $3::timestamptz + make_interval(mins => i)
         from generate_series(1, 300) i`,
        [theirs, OTHER, new Date(start).toISOString()],
      );
    });
    await h.db.execAutocommit("analyze messages");
    const matchAt = (seq: number) => (seq <= rows / 2 || seq % 3 === 0 ? start + Math.floor(seq / 3) * 60_000 : null);
    const all = Array.from({ length: rows }, (_, i) => i + 1).filter((seq) => matchAt(seq) !== null);

    for (const strategy of ["", "index", "walk", "bands"]) {
      for (const [maxRows, before] of [[10, null], [40, null], [250, null], [40, start + 150 * 60_000]] as const) {
        const got = await withUser(ME, async (tx) => {
          await tx.query(`select set_config('threadkeeper.keyword_strategy', $1, true)`, [strategy]);
          return tx.query<{ seq: number; session_id: string; created_at: Date }>(
            `select seq, session_id, created_at from messages_matching(to_tsquery('english', 'numbat'), $1, null, $2)`,
            [maxRows, before === null ? null : new Date(before).toISOString()],
          );
        });
        const label = `${strategy || "chosen"}, ${maxRows} rows, before ${before ?? "now"}`;
        const inRange = all.filter((seq) => before === null || matchAt(seq)! <= before);
        const seqs = got.map((r) => r.seq);
        expect(got.every((r) => r.session_id === mine), label).toBe(true);
        expect(new Set(seqs).size, label).toBe(seqs.length);
        expect(seqs.length, label).toBe(Math.min(maxRows, inRange.length));
        expect(seqs.every((seq) => inRange.includes(seq)), label).toBe(true);
        // Newest first: no match left out is newer than one returned (ties may go either way).
        const oldest = Math.min(...seqs.map((seq) => matchAt(seq)!));
        expect(inRange.filter((seq) => !seqs.includes(seq)).every((seq) => matchAt(seq)! <= oldest), label).toBe(true);
      }
    }
  });
});
