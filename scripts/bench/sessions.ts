// Sessions benchmarks: resume and restore of a 10,000-message session, the session picker
// over 1,000 sessions, and checkpoint saving — against DESIGN.md's "resume and restore under
// 200 ms for 10,000 messages".
import { checkpointTags } from "@/lib/context/checkpoints";
import { LOCAL_USER_ID, withUser, type Database } from "@/lib/db";
import { getSession } from "@/lib/db/sessions";
import { restoreCheckpoint, saveCheckpoint } from "@/lib/chat/checkpoints";
import { assembleWindow, loadContext } from "@/lib/chat/context";
import { resumeSession } from "@/lib/chat/recovery";
import { messagesPage, pickerSessions } from "@/lib/chat/sessions";
import { fmtInt, fmtMs, statJson, table } from "./report";
import { seedSession, type TextPool } from "./seed";
import { measure, type MeasureOptions, type Stat } from "./stats";

export interface SessionsBenchResult {
  messages: number;
  forkCopied: number;
  pickerSessions: number;
  ops: { operation: string; stat: Stat; targetMs: number | null }[];
}

export async function benchSessions(db: Database, pool: TextPool, opts: MeasureOptions): Promise<SessionsBenchResult> {
  const seeded = await seedSession(db, pool, 10_000, "sessions bench 10k");
  const id = seeded.sessionId;
  // Slide the window as the first send of such a session would, so the checkpoint points
  // at a realistic (large) window.
  await withUser(LOCAL_USER_ID, async (tx) => {
    const ctx = await loadContext(tx, LOCAL_USER_ID, await getSession(tx, LOCAL_USER_ID, id));
    await assembleWindow(tx, ctx, ctx.calibration.factor);
  });

  const resume = await measure(() => resumeSession(LOCAL_USER_ID, id), opts);
  const page = await measure(() => messagesPage(LOCAL_USER_ID, id, undefined, 100), opts);
  const both = await measure(async () => {
    await resumeSession(LOCAL_USER_ID, id);
    return messagesPage(LOCAL_USER_ID, id, undefined, 100);
  }, opts);
  const save = await measure(() => saveCheckpoint(LOCAL_USER_ID, { session_id: id }), opts);
  const cp = await saveCheckpoint(LOCAL_USER_ID, { session_id: id, label: "bench" });
  const restore = await measure(() => restoreCheckpoint(LOCAL_USER_ID, cp.id), opts);
  const fork = restore.last.session;
  const [copied] = await db.transaction((tx) =>
    tx.query<{ n: number }>("select count(*)::int as n from messages where session_id = $1", [fork.id]),
  );
  const tags = await measure(
    (i) =>
      checkpointTags({
        userText: `Why does the upload fail? (${i})`,
        replyText: "We decided to use exponential backoff. Edit src/upload/worker.ts:\n```ts\nretry(3)\n```\nDone: the task is completed.",
        previousTurnHadError: true,
        messagesSinceLast: i % 12,
        msSinceLast: 60_000,
      }),
    opts,
  );

  // 1,000 sessions for the picker, each with two messages; a tenth with a checkpoint.
  await db.transaction(async (tx) => {
    await tx.query(
      `with s as (
         insert into sessions (user_id, title, model, message_count, next_seq, last_turn_seq, tail_tokens, last_message_preview, updated_at)
         select $1, 'Picker session ' || g, 'claude-sonnet-5-5', 2, 3, 1, 200, 'Last reply of session ' || g,
                now() - make_interval(mins => g)
         from generate_series(1, 1000) g returning id, title)
       insert into messages (session_id, user_id, seq, turn_seq, role, content, text, token_count)
       select s.id, $1, m.seq, 1, m.role, jsonb_build_array(jsonb_build_object('type', 'text', 'text', m.txt)), m.txt, 100
       from s cross join lateral (values
         (1, 'user', 'Question about ' || s.title || case when s.title like '%7' then ' and the quokka cache' else '' end),
         (2, 'assistant', 'Answer for ' || s.title)) m(seq, role, txt)`,
      [LOCAL_USER_ID],
    );
    await tx.query(
      `insert into session_checkpoints (session_id, user_id, trigger, through_seq, through_turn, window_start_turn, token_count)
       select id, user_id, 'manual', 2, 1, 1, 200 from sessions where title like 'Picker session %0'`,
    );
    await tx.query("analyze");
  });
  const picker = await measure(() => pickerSessions(LOCAL_USER_ID, { limit: 20 }), opts);
  const search = await measure(() => pickerSessions(LOCAL_USER_ID, { q: "quokka", limit: 20 }), opts);

  return {
    messages: seeded.messages,
    forkCopied: copied.n,
    pickerSessions: 1000,
    ops: [
      { operation: "resume (10,000 msgs)", stat: resume.stat, targetMs: 200 },
      { operation: "first page after resume (100 msgs)", stat: page.stat, targetMs: null },
      { operation: "resume + first page", stat: both.stat, targetMs: 200 },
      { operation: `restore checkpoint → fork (${fmtInt(copied.n)} msgs copied)`, stat: restore.stat, targetMs: 200 },
      { operation: "save checkpoint (10,000 msgs)", stat: save.stat, targetMs: null },
      { operation: "auto-checkpoint decision (one turn)", stat: tags.stat, targetMs: null },
      { operation: "session picker, 20 of 1,000 sessions", stat: picker.stat, targetMs: null },
      { operation: "session picker, full-text search", stat: search.stat, targetMs: null },
    ],
  };
}

export function printSessions(r: SessionsBenchResult): void {
  console.log(`\nSessions benchmarks: medians (p95); a ${fmtInt(r.messages)}-message session, ${fmtInt(r.pickerSessions)} sessions in the picker`);
  console.log(
    table(
      ["operation", "p50", "p95", "target (p50)", "met"],
      r.ops.map((o) => [
        o.operation,
        fmtMs(o.stat.medianMs),
        fmtMs(o.stat.p95Ms),
        o.targetMs === null ? "—" : `< ${o.targetMs} ms`,
        o.targetMs === null ? "—" : o.stat.medianMs < o.targetMs ? "yes" : "NO",
      ]),
    ),
  );
}

export function sessionsJson(r: SessionsBenchResult) {
  return {
    messages: r.messages,
    fork_copied_messages: r.forkCopied,
    picker_sessions: r.pickerSessions,
    ops: r.ops.map((o) => ({ operation: o.operation, ...statJson(o.stat), target_ms: o.targetMs })),
  };
}
