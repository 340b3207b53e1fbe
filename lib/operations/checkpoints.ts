import "server-only";
import { inheritUses } from "@/lib/db/files";
import { z } from "zod";
import type { CheckpointJson, CheckpointTrigger, MessageJson, SessionJson } from "@/lib/contract";
import { checkpointTags, DEFAULT_CHECKPOINT_POLICY, mentionsError, type CheckpointTag, type TurnFacts } from "@/lib/context/checkpoint-triggers";
import { audit } from "@/lib/audit/record";
import { redactSecrets } from "@/lib/redact";
import { withUser, type Tx } from "@/lib/db";
import {
  checkpointJson,
  deleteCheckpoint,
  getCheckpoint,
  insertCheckpoint,
  listCheckpoints,
  pruneCheckpoints,
  recentCheckpoints,
  type CheckpointRow,
} from "@/lib/db/checkpoints";
import { installSummary } from "@/lib/db/compactions";
import { inheritHistory, insertFork, setForkPreview } from "@/lib/db/forks";
import { listMessages, messageJson, turnsMessages } from "@/lib/db/messages";
import { getSession, sessionJson, type SessionRow } from "@/lib/db/sessions";
import { env } from "@/lib/env";
import { checkpointCanvas, forkCanvas } from "./canvas";
import { contextStatus, loadContext } from "./session-context";
import { saveSchema } from "@/lib/contract/requests";

const DEFAULT_CHECKPOINT_KEEP = 50;

function keep(): number {
  return env().THREADKEEPER_CHECKPOINT_KEEP ?? DEFAULT_CHECKPOINT_KEEP;
}

/** Saves a checkpoint of the session as it is now, inside the caller's transaction. */
async function saveCheckpointTx(
  tx: Tx,
  userId: string,
  session: SessionRow,
  c: { trigger: CheckpointTrigger; label: string | null; tags: string[] },
): Promise<CheckpointRow> {
  const status = contextStatus(await loadContext(tx, userId, session));
  const row = await insertCheckpoint(tx, userId, session.id, { ...c, tokenCount: status.current_tokens });
  await checkpointCanvas(tx, userId, session, row.id);
  await pruneCheckpoints(tx, session.id, keep());
  await audit(tx, userId, {
    action: "checkpoint.created",
    target: { type: "checkpoint", id: row.id },
    metadata: { session_id: session.id, trigger: c.trigger, tags: c.tags, label: c.label, token_count: row.token_count },
  });
  return row;
}

/** `/save-progress "label"`, `/checkpoint [label]` and `POST /api/checkpoint/save`. */
export async function saveCheckpoint(userId: string, input: z.infer<typeof saveSchema>): Promise<CheckpointJson> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, input.session_id);
    // A label is shown in the timeline and the recovery prompt; one typed with a key in it keeps the key out.
    const label = redactSecrets(input.label ?? null);
    return checkpointJson(await saveCheckpointTx(tx, userId, session, { trigger: "manual", label, tags: [] }));
  });
}

/**
 * After a completed turn: one checkpoint at most, tagged with every reason that applied.
 * Runs after the reply was delivered, so it never delays the chat.
 */
export async function autoCheckpoint(userId: string, sessionId: string, turnSeq: number): Promise<CheckpointJson | null> {
  return withUser(userId, async (tx) => autoCheckpointTx(tx, userId, await getSession(tx, userId, sessionId), turnSeq));
}

/** What the automatic checkpoint decides on: the turn's messages and the reply of the turn before (its status and text). */
export function turnFacts(
  session: SessionRow,
  turn: readonly { role: string; text: string }[],
  lastReply: { status: string; text: string } | undefined,
): TurnFacts {
  return {
    userText: turn.filter((m) => m.role === "user").map((m) => m.text).join("\n"),
    replyText: turn.filter((m) => m.role === "assistant").map((m) => m.text).join("\n"),
    previousTurnHadError: !!lastReply && (lastReply.status !== "complete" || mentionsError(lastReply.text)),
    messagesSinceLast: session.next_seq - 1 - session.last_checkpoint_seq,
    msSinceLast: Date.now() - (session.last_checkpoint_at ?? session.created_at).getTime(),
  };
}

/**
 * The same in the caller's transaction, given the session row as it stands after the turn;
 * `known`: the turn's facts when the caller holds them, else they are read.
 */
export async function autoCheckpointTx(
  tx: Tx,
  userId: string,
  session: SessionRow,
  turnSeq: number,
  known?: TurnFacts,
): Promise<CheckpointJson | null> {
  let facts = known;
  if (!facts) {
    const both = await turnsMessages(tx, session.id, Math.max(1, turnSeq - 1), turnSeq);
    const lastReply = both.filter((m) => m.turn_seq === turnSeq - 1 && m.role === "assistant").at(-1);
    facts = turnFacts(session, both.filter((m) => m.turn_seq === turnSeq), lastReply);
  }
  const tags: CheckpointTag[] = checkpointTags(facts, DEFAULT_CHECKPOINT_POLICY);
  if (tags.length === 0) return null;
  return checkpointJson(await saveCheckpointTx(tx, userId, session, { trigger: "auto", label: null, tags }));
}

export async function sessionCheckpoints(userId: string, sessionId: string): Promise<CheckpointJson[]> {
  return withUser(userId, async (tx) => {
    await getSession(tx, userId, sessionId);
    return (await listCheckpoints(tx, userId, sessionId)).map(checkpointJson);
  });
}

export async function checkpointDetail(userId: string, id: string): Promise<{ checkpoint: CheckpointJson; messages: MessageJson[] }> {
  return withUser(userId, async (tx) => {
    const cp = await getCheckpoint(tx, userId, id);
    const { rows } = await listMessages(tx, userId, cp.session_id, cp.through_seq + 1, 20);
    return { checkpoint: checkpointJson(cp), messages: rows.map((r) => messageJson(r, true)) };
  });
}

export async function recentCheckpointList(userId: string, limit: number) {
  return withUser(userId, async (tx) =>
    (await recentCheckpoints(tx, userId, limit)).map((r) => ({ ...checkpointJson(r), session_title: r.session_title })),
  );
}

export async function removeCheckpoint(userId: string, id: string): Promise<void> {
  await withUser(userId, async (tx) => {
    await deleteCheckpoint(tx, userId, id);
    await audit(tx, userId, { action: "checkpoint.deleted", target: { type: "checkpoint", id } });
  });
}

/**
 * "Resume from here": a new session forked at the checkpoint, whose context is exactly the
 * checkpoint's — the messages through it, the summary and window active then — while the
 * original session stays untouched. The fork reads the history by reference, so the cost
 * does not grow with the session.
 */
export async function restoreCheckpoint(userId: string, id: string): Promise<{ session: SessionJson; checkpoint: CheckpointJson }> {
  return withUser(userId, async (tx) => {
    const cp = await getCheckpoint(tx, userId, id);
    const src = await getSession(tx, userId, cp.session_id);
    const fork = await insertFork(tx, userId, src, {
      title: `${src.title.replace(/ \(fork\)$/, "")} (fork)`,
      checkpointId: cp.id,
      throughSeq: cp.through_seq,
      throughTurn: cp.through_turn,
    });
    await inheritHistory(tx, userId, fork.id, src.id, cp.through_seq);
    await inheritUses(tx, fork.id, src.id, cp.through_seq);
    await setForkPreview(tx, fork.id, cp.through_seq);
    await installSummary(tx, fork.id, {
      summaryId: null,
      text: cp.summary_text,
      tokens: cp.summary_tokens,
      throughTurn: cp.summary_through_turn,
      windowStartTurn: cp.window_start_turn,
    });
    await forkCanvas(tx, userId, cp, fork.id);
    await audit(tx, userId, {
      action: "checkpoint.restored",
      target: { type: "checkpoint", id: cp.id },
      metadata: { session_id: src.id, fork_session_id: fork.id, through_seq: cp.through_seq },
    });
    return { session: sessionJson(await getSession(tx, userId, fork.id)), checkpoint: checkpointJson(cp) };
  });
}

/** Saves a checkpoint just before a compaction changes the window. */
export async function preCompactionCheckpoint(userId: string, sessionId: string): Promise<void> {
  await withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, sessionId);
    await saveCheckpointTx(tx, userId, session, { trigger: "pre_compaction", label: null, tags: ["pre_compaction"] });
  });
}
