// The audit log's cost: a checkpoint save (which writes its event in its transaction), and the
// event write alone, timed inside a transaction, so its share of the save is plain.
import { performance } from "node:perf_hooks";
import { audit } from "@/lib/audit/record";
import { saveCheckpoint } from "@/lib/operations/checkpoints";
import { LOCAL_USER_ID, withUser, type Database } from "@/lib/db";
import { fmtMs, statJson, table } from "./report";
import { seedSession, type TextPool } from "./seed";
import { measure, summarize, type MeasureOptions, type Stat } from "./stats";

export interface AuditBenchResult {
  save: Stat;
  eventWrite: Stat;
}

export async function benchAudit(db: Database, pool: TextPool, opts: MeasureOptions): Promise<AuditBenchResult> {
  const seeded = await seedSession(db, pool, 1_000, "audit bench");
  const runs: MeasureOptions = { warmups: Math.max(opts.warmups, 10), runs: Math.max(opts.runs, 100) };
  const save = await measure((i) => saveCheckpoint(LOCAL_USER_ID, { session_id: seeded.sessionId, label: `bench ${i}` }), runs);
  const samples: number[] = [];
  for (let i = 0; i < runs.warmups + runs.runs; i++) {
    await withUser(LOCAL_USER_ID, async (tx) => {
      const t0 = performance.now();
      await audit(tx, LOCAL_USER_ID, { action: "checkpoint.created", target: { type: "checkpoint", id: null }, metadata: { bench: i } });
      if (i >= runs.warmups) samples.push(performance.now() - t0);
    });
  }
  return { save: save.stat, eventWrite: summarize(samples) };
}

export function printAudit(r: AuditBenchResult): void {
  console.log("\nAudit log: what writing the event adds to an operation (medians, p95).");
  console.log(
    table(
      ["operation", "median", "p95", "target"],
      [
        ["checkpoint save, event included (1,000-message session)", fmtMs(r.save.medianMs), fmtMs(r.save.p95Ms), "—"],
        ["the audit event write alone, in the transaction", fmtMs(r.eventWrite.medianMs), fmtMs(r.eventWrite.p95Ms), `< 1 ms: ${r.eventWrite.medianMs < 1 ? "met" : "MISSED"}`],
      ],
    ),
  );
}

export function auditJson(r: AuditBenchResult) {
  return { checkpoint_save: statJson(r.save), event_write: statJson(r.eventWrite) };
}
