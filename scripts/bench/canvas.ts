// The canvas: what one of Claude's canvas tool calls costs on a 500-element canvas (the whole
// server path: validate, apply, write the event and the snapshot, rebuild the section's token
// count), rebuilding the system-prompt section alone, and restoring a fork's canvas from a
// checkpoint of a session with about 2,000 canvas events (the checkpoint's base event and any
// changes after it).
import { canvasSection, memoCounter } from "@/lib/canvas/section";
import { replay } from "@/lib/canvas/reducer";
import type { CanvasEvent } from "@/lib/contract/canvas";
import type { CanvasState } from "@/lib/contract/canvas-elements";
import { checkpointCanvas, forkCanvas, runCanvasCalls, sectionOf } from "@/lib/operations/canvas";
import { createSession } from "@/lib/operations/sessions";
import { LOCAL_USER_ID, withUser, type Database } from "@/lib/db";
import { insertCanvasEvents, readCanvas, storeCanvas } from "@/lib/db/canvas";
import { getCheckpoint, insertCheckpoint } from "@/lib/db/checkpoints";
import { getSession, insertSession } from "@/lib/db/sessions";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";
import { fmtInt, fmtMs, statJson, table } from "./report";
import { measure, type MeasureOptions, type Stat } from "./stats";

const ELEMENTS = 500;
const EVENTS = 2_000;
/** 5 % of a 200K-window model's capacity (140K): the default canvas budget. */
const BUDGET = 7_000;

export interface CanvasBenchResult {
  applyEvent: Stat;
  sectionWarm: Stat;
  sectionCold: Stat;
  forkRestore: Stat;
  sectionTokens: number;
  listedInFull: number;
  events: number;
}

const cardEvent = (i: number, body: string): CanvasEvent => ({
  op: "add",
  element: { id: `card-${i}`, type: "card", title: `Card number ${i}`, body, footer: `footer ${i % 7}` },
});

/** A session whose canvas went through `EVENTS` changes and now holds `ELEMENTS` cards. */
async function seededSession(): Promise<{ id: string; state: CanvasState }> {
  const { id } = await createSession(LOCAL_USER_ID, { title: "canvas bench" });
  const events: CanvasEvent[] = [];
  for (let i = 0; i < ELEMENTS; i++) events.push(cardEvent(i, `Body of card ${i}: ${"lorem ipsum dolor sit amet ".repeat(3)}`));
  for (let i = ELEMENTS; i < EVENTS; i++) events.push({ op: "update", id: `card-${i % ELEMENTS}`, fields: { body: `Revision ${i}` } });
  const state = replay(events);
  await withUser(LOCAL_USER_ID, async (tx) => {
    let version = 0;
    for (let i = 0; i < events.length; i += 250) {
      version = await insertCanvasEvents(tx, LOCAL_USER_ID, id, 1, events.slice(i, i + 250).map((event) => ({ event, source: "claude" as const })));
    }
    await storeCanvas(tx, id, { state, version, tokens: sectionOf(state, BUDGET).tokens });
  });
  return { id, state };
}

export async function benchCanvas(_db: Database, opts: MeasureOptions): Promise<CanvasBenchResult> {
  const { id, state } = await seededSession();
  const micro: MeasureOptions = { warmups: Math.max(opts.warmups, 20), runs: Math.max(opts.runs, 100) };

  // The checkpoint the forks restore from; one change after it, so the restore replays.
  // Saved as the app saves one (saveCheckpointTx): the row, then the canvas's base when it changed much.
  const cpId = await withUser(LOCAL_USER_ID, async (tx) => {
    const row = await insertCheckpoint(tx, LOCAL_USER_ID, id, { label: "bench", trigger: "manual", tags: [], tokenCount: 0 });
    await checkpointCanvas(tx, LOCAL_USER_ID, await getSession(tx, LOCAL_USER_ID, id), row.id);
    return row.id;
  });

  // One tool call (an update of one card) through the server path, in its own transaction.
  let n = 0;
  const applyEvent = (
    await measure(
      () =>
        withUser(LOCAL_USER_ID, async (tx) => {
          n++;
          const round = await runCanvasCalls(tx, LOCAL_USER_ID, id, BUDGET, [
            { type: "tool_use", id: `toolu_bench_${n}`, name: "canvas_update_card", input: { id: `card-${n % ELEMENTS}`, body: `Bench revision ${n}` } },
          ]);
          return round.commit(1);
        }),
      micro,
    )
  ).stat;

  // The section of the current canvas after one element changed: the server's memo counter counts only that line.
  let m = 0;
  const changed = () => {
    m++;
    const elements = state.elements.slice();
    elements[m % ELEMENTS] = { ...elements[m % ELEMENTS], title: `Changed title ${m}` } as CanvasState["elements"][number];
    return { ...state, elements };
  };
  const sectionWarm = (await measure(() => sectionOf(changed(), BUDGET), micro)).stat;
  const sectionCold = (await measure(() => canvasSection(changed(), BUDGET, memoCounter(estimateTextTokens)), opts)).stat;
  const section = sectionOf(state, BUDGET);

  const cp = await withUser(LOCAL_USER_ID, (tx) => getCheckpoint(tx, LOCAL_USER_ID, cpId));
  // The fork sessions exist beforehand: what is timed is the canvas part of a restore, in its own transaction.
  const forks = await withUser(LOCAL_USER_ID, async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < opts.warmups + opts.runs; i++) {
      ids.push((await insertSession(tx, LOCAL_USER_ID, { title: "fork", model: "claude-haiku-4-5", settings: {}, systemPrompt: "", systemTokens: 0 })).id);
    }
    return ids;
  });
  let f = 0;
  const forkRestore = (await measure(() => withUser(LOCAL_USER_ID, (tx) => forkCanvas(tx, LOCAL_USER_ID, cp, forks[f++ % forks.length])), opts)).stat;
  const events = Number((await withUser(LOCAL_USER_ID, (tx) => tx.query<{ n: number }>(`select count(*)::int as n from canvas_events where session_id = $1`, [id])))[0].n);
  // The restored canvas is the checkpoint's: its snapshot equals the source's at that moment.
  const restored = await withUser(LOCAL_USER_ID, async (tx) => {
    const [last] = await tx.query<{ id: string }>(`select id from sessions where title = 'fork' order by created_at desc limit 1`);
    return readCanvas(tx, LOCAL_USER_ID, last.id);
  });
  if (restored.state.elements.length !== ELEMENTS) throw new Error(`fork restored ${restored.state.elements.length} elements, expected ${ELEMENTS}`);
  return { applyEvent, sectionWarm, sectionCold, forkRestore, sectionTokens: section.tokens, listedInFull: section.full, events };
}

export function printCanvas(r: CanvasBenchResult): void {
  console.log(
    `\nCanvas: ${ELEMENTS} elements, budget ${fmtInt(BUDGET)} raw tokens (section ${fmtInt(r.sectionTokens)} tokens, ${r.listedInFull} listed in full); ` +
      `the source has ${fmtInt(r.events)} canvas events`,
  );
  const row = (what: string, s: Stat, target: string, limit: number | null) => [
    what,
    fmtMs(s.medianMs),
    fmtMs(s.p95Ms),
    target,
    limit === null ? "-" : s.medianMs < limit ? "yes" : "NO",
  ];
  console.log(
    table(
      ["operation", "p50", "p95", "target", "met"],
      [
        row("apply one tool call: validate, apply, write event + snapshot, section tokens", r.applyEvent, "< 5 ms", 5),
        row("rebuild the section after one change (server's memo counter)", r.sectionWarm, "< 5 ms", 5),
        row("rebuild the section, nothing memoized (first request after start)", r.sectionCold, "-", null),
        row("restore a fork's canvas from a checkpoint (replay + base event + snapshot)", r.forkRestore, "< 20 ms", 20),
      ],
    ),
  );
}

export function canvasJson(r: CanvasBenchResult) {
  return {
    apply_event: statJson(r.applyEvent),
    section_rebuild: statJson(r.sectionWarm),
    section_rebuild_cold: statJson(r.sectionCold),
    fork_restore: statJson(r.forkRestore),
    section_tokens: r.sectionTokens,
    events: r.events,
    targets_met: r.applyEvent.medianMs < 5 && r.sectionWarm.medianMs < 5 && r.forkRestore.medianMs < 20,
  };
}
