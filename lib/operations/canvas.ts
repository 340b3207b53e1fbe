// The canvas on the server: Claude's canvas tool calls applied to the stored snapshot (in the
// tool_result message's transaction), the section Claude's requests carry, the user's own
// changes through the API, and the canvas a checkpoint's fork starts from.
import "server-only";
import type { ContextSettings } from "@/lib/contract";
import { audit } from "@/lib/audit/record";
import { describeEffect, describeEvent } from "@/lib/canvas/describe";
import type { CanvasElement, CanvasState } from "@/lib/contract/canvas-elements";
import { applyEvent, replay, targetId } from "@/lib/canvas/reducer";
import type { CanvasEvent } from "@/lib/contract/canvas";
import { canvasSection, memoCounter, userChangesNote, type CanvasSection } from "@/lib/canvas/section";
import { canvasCall } from "@/lib/canvas/tools";
import type { CanvasEffect } from "@/lib/contract";
import type { CanvasJson, CanvasStreamEvent } from "@/lib/contract";
import { computeCapacity, type Capacity } from "@/lib/context/capacity";
import { resolveSettings } from "@/lib/context/settings";
import type { ToolResultBlock, ToolUseBlock } from "@/lib/context/types";
import { withUser, type Tx } from "@/lib/db";
import {
  appendCanvasEvents,
  canvasEventsThrough,
  insertCanvasEvents,
  readCanvas,
  setCheckpointCanvasVersion,
  sinceBase,
  storeCanvas,
  storeCanvasTokens,
  type NewCanvasEvent,
  type StoredCanvas,
  userEventsSince,
} from "@/lib/db/canvas";
import { getCheckpoint, type CheckpointRow } from "@/lib/db/checkpoints";
import { getSession, type SessionRow } from "@/lib/db/sessions";
import { getUserSettings } from "@/lib/db/settings";
import { AppError, notFound } from "@/lib/errors";
import { requireModel } from "@/lib/models";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";
import { defaultModelId } from "./session-context";

// One per server: a canvas changes an element at a time, so a rebuild counts only the changed line.
const count = memoCounter(estimateTextTokens);

/** Raw tokens the canvas section may take: the canvas_budget share of capacity. */
export function canvasBudget(settings: Pick<ContextSettings, "canvas_budget">, capacity: Pick<Capacity, "capacity">): number {
  return Math.floor(capacity.capacity * settings.canvas_budget);
}

export function sectionOf(state: CanvasState, budget: number): CanvasSection {
  return canvasSection(state, budget, count);
}

/** The budget of a session outside a turn (the user's changes, a fork), from its settings and model. */
async function budgetOf(tx: Tx, userId: string, session: SessionRow): Promise<number> {
  const settings = resolveSettings(defaultModelId(), await getUserSettings(tx, userId), { ...session.settings, model: session.model });
  return canvasBudget(settings, computeCapacity(requireModel(settings.model), settings));
}

/**
 * The canvas section for the next request. Sessions that never had a canvas read nothing; the
 * stored token count follows the current budget (a changed setting or model), as the window's
 * counters follow the window, so every capacity decision counts what is sent.
 */
export async function canvasForRequest(tx: Tx, session: SessionRow, budget: number, changedSinceSeq?: number): Promise<string> {
  if (session.canvas_version === 0 && session.canvas_tokens === 0) return "";
  const stored = await readCanvas(tx, session.user_id, session.id);
  const section = sectionOf(stored.state, budget);
  const changes = changedSinceSeq === undefined ? [] : (await userEventsSince(tx, session.id, changedSinceSeq)).map((e) => describeEvent(e));
  const note = userChangesNote(changes, section.text === "");
  // The note is counted while it is sent (this turn); outside a turn the section alone is.
  const tokens = section.tokens + (note ? count(note) : 0);
  if (tokens !== session.canvas_tokens) {
    await storeCanvasTokens(tx, session.id, tokens);
    session.canvas_tokens = tokens;
  }
  return section.text + note;
}

/** After a session's settings changed (model, canvas budget): the bar counts the section at the new budget at once. */
export async function refreshCanvasTokens(tx: Tx, userId: string, session: SessionRow): Promise<void> {
  await canvasForRequest(tx, session, await budgetOf(tx, userId, session));
}

const toolText = (event: CanvasEvent, before: CanvasElement | undefined): string => {
  const id = targetId(event);
  return `${describeEvent(event, before)}${id ? ` (id ${JSON.stringify(id)})` : ""}.`;
};

function elementBefore(state: CanvasState, event: CanvasEvent): CanvasElement | undefined {
  const id = targetId(event);
  return id === null ? undefined : state.elements.find((e) => e.id === id);
}

export interface CanvasRound {
  /** A tool_result per canvas tool_use, by its id. */
  results: Map<string, ToolResultBlock>;
  /** Writes the round's events at the tool_result message's seq; null when nothing changed or showed. */
  commit: (atSeq: number) => Promise<CanvasStreamEvent | null>;
}

/**
 * Applies a reply's canvas tool calls in order to the locked snapshot. A bad input or an
 * unknown id is an error result Claude reads, and later calls still apply; nothing is written
 * until `commit`, which the caller runs after appending the tool_result message in the same
 * transaction.
 */
export async function runCanvasCalls(tx: Tx, userId: string, sessionId: string, budget: number, blocks: readonly ToolUseBlock[]): Promise<CanvasRound> {
  const stored = await readCanvas(tx, userId, sessionId, true);
  let state = stored.state;
  const events: NewCanvasEvent[] = [];
  const effects: CanvasEffect[] = [];
  const results = new Map<string, ToolResultBlock>();
  const result = (id: string, content: string, isError = false) =>
    results.set(id, { type: "tool_result", tool_use_id: id, content, ...(isError ? { is_error: true } : {}) });
  for (const b of blocks) {
    const call = canvasCall(b.name, b.input, b.id);
    if (call.kind === "error") {
      result(b.id, call.error, true);
    } else if (call.kind === "effect") {
      effects.push(call.effect);
      result(b.id, `${describeEffect(call.effect)}.`);
    } else {
      const applied = applyEvent(state, call.event);
      if (!applied.ok) {
        result(b.id, applied.error, true);
        continue;
      }
      result(b.id, toolText(call.event, elementBefore(state, call.event)));
      state = applied.state;
      events.push({ event: call.event, source: "claude", toolUseId: b.id });
    }
  }
  return {
    results,
    commit: async (atSeq) => {
      if (events.length === 0) return effects.length ? { events: [], effects, version: stored.version } : null;
      const tokens = sectionOf(state, budget).tokens;
      const version = await appendCanvasEvents(tx, userId, sessionId, atSeq, events, { state, tokens, pending: stored.pending ?? 0 });
      return { events: events.map((e) => e.event), effects, version };
    },
  };
}

const json = (c: Pick<StoredCanvas, "state" | "version">): CanvasJson => ({ layout: c.state.layout, elements: c.state.elements, version: c.version });

/** The canvas now, or as it was at one of the session's checkpoints. */
export async function getCanvas(userId: string, sessionId: string, checkpointId?: string): Promise<CanvasJson> {
  return withUser(userId, async (tx) => {
    const current = await readCanvas(tx, userId, sessionId);
    if (!checkpointId) return json(current);
    const cp = await getCheckpoint(tx, userId, checkpointId);
    if (cp.session_id !== sessionId) throw notFound("Checkpoint", checkpointId);
    return canvasAtCheckpoint(tx, cp, current);
  });
}

async function canvasAtCheckpoint(tx: Tx, cp: CheckpointRow, current: StoredCanvas): Promise<CanvasJson> {
  // Nothing changed since the checkpoint: the snapshot is that canvas, no replay needed.
  if (cp.canvas_version !== null && cp.canvas_version === current.version) return json(current);
  const events = await canvasEventsThrough(tx, cp.session_id, { version: cp.canvas_version, throughSeq: cp.through_seq });
  // A base event is the server's own write of a canvas it had checked: start from it as it is
  // rather than checking its elements again.
  const [first, ...rest] = events;
  const state = first?.op === "reset" ? replay(rest, first.state) : replay(events);
  return { ...json({ state, version: 0 }), version: cp.canvas_version ?? 0 };
}

/**
 * A fork's canvas: the source's canvas at the checkpoint, written as the fork's one base event
 * (a reset), so the fork never reads the source's events again.
 */
export async function forkCanvas(tx: Tx, userId: string, cp: CheckpointRow, forkId: string): Promise<void> {
  const source = await readCanvas(tx, userId, cp.session_id);
  const at = await canvasAtCheckpoint(tx, cp, source);
  if (at.elements.length === 0 && at.layout === "grid") return;
  const state: CanvasState = { layout: at.layout, elements: at.elements };
  const version = await insertCanvasEvents(tx, userId, forkId, cp.through_seq, [{ event: { op: "reset", state }, source: "restore" }]);
  const fork = await getSession(tx, userId, forkId);
  // The base event is the fork's whole history, so its snapshot need not be written too (pending 1):
  // the first read applies the base, once.
  await storeCanvas(tx, forkId, { state, version, tokens: sectionOf(state, await budgetOf(tx, userId, fork)).tokens, pending: 1 });
}

/** Past this many changes since the last base, a checkpoint writes a new one, so its replay stays short. */
export const BASE_EVERY = 64;

/**
 * Called as a checkpoint is saved: when the canvas changed much since its last base, the
 * current canvas is written as a new base event and the checkpoint points at it, so restoring
 * it (or showing its canvas) reads one row instead of replaying the whole history.
 */
export async function checkpointCanvas(tx: Tx, userId: string, session: SessionRow, checkpointId: string): Promise<void> {
  if (session.canvas_version === 0) return;
  const since = await sinceBase(tx, session.id);
  if (since.events === 0 && since.base !== null) return setCheckpointCanvasVersion(tx, checkpointId, since.base);
  if (since.events < BASE_EVERY) return;
  const { state } = await readCanvas(tx, userId, session.id);
  const base = await insertCanvasEvents(tx, userId, session.id, session.next_seq - 1, [{ event: { op: "reset", state }, source: "restore" }]);
  await setCheckpointCanvasVersion(tx, checkpointId, base);
}

/** A change the user makes (remove, clear, a confirmation's answer): an event with source 'user', audited in its transaction. */
async function userChange(userId: string, sessionId: string, event: CanvasEvent, action: string | null): Promise<CanvasJson> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, sessionId);
    const stored = await readCanvas(tx, userId, sessionId, true);
    const id = targetId(event);
    if (id !== null && !elementBefore(stored.state, event)) throw notFound("Canvas element", id);
    const applied = applyEvent(stored.state, event);
    if (!applied.ok) throw new AppError(422, "invalid_choice", applied.error);
    const tokens = sectionOf(applied.state, await budgetOf(tx, userId, session)).tokens;
    const after = { state: applied.state, tokens, pending: stored.pending ?? 0 };
    const version = await appendCanvasEvents(tx, userId, sessionId, session.next_seq - 1, [{ event, source: "user" }], after);
    const next = { state: applied.state, version };
    if (action) {
      await audit(tx, userId, {
        action,
        target: { type: "session", id: sessionId },
        metadata: { ...(id !== null ? { element_id: id } : { elements: stored.state.elements.length }), version },
      });
    }
    return json(next);
  });
}

export const removeElement = (userId: string, sessionId: string, elementId: string) =>
  userChange(userId, sessionId, { op: "remove", id: elementId }, "canvas.element_removed");

export const clearCanvas = (userId: string, sessionId: string) => userChange(userId, sessionId, { op: "clear" }, "canvas.cleared");

export const chooseOption = (userId: string, sessionId: string, elementId: string, choice: string) =>
  userChange(userId, sessionId, { op: "choose", id: elementId, choice }, null);
