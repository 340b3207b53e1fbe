// A session exported whole (lib/contract/exchange.ts), read in one transaction so the messages,
// compactions, checkpoints, window and canvas agree with one another.
import "server-only";
import { EXPORT_FORMAT, EXPORT_VERSION, type ProjectJson, type SessionExportJson } from "@/lib/contract";
import { withUser } from "@/lib/db";
import { readCanvas } from "@/lib/db/canvas";
import { checkpointJson, listCheckpoints } from "@/lib/db/checkpoints";
import { listCompactions } from "@/lib/db/compactions";
import { canvasHistory, messageExtras } from "@/lib/db/exchange";
import { messageJson, turnsMessages } from "@/lib/db/messages";
import { getProject } from "@/lib/db/projects";
import { getSession, sessionJson } from "@/lib/db/sessions";
import { compactionJson } from "./compaction-log";
import { windowJson } from "./session-context";

/** A project as an export names it (its session count belongs to the database it left). */
export const exportedProject = ({ id, name, created_at }: ProjectJson) => ({ id, name, created_at });

export async function exportSession(userId: string, sessionId: string): Promise<SessionExportJson> {
  return withUser(userId, async (tx) => {
    const session = await getSession(tx, userId, sessionId);
    const window = await windowJson(tx, session);
    const pinned = new Set(window.pinned_turn_seqs);
    const [rows, extras, compactions, checkpoints, canvas, canvasEvents] = await Promise.all([
      turnsMessages(tx, sessionId, 0, session.last_turn_seq),
      messageExtras(tx, sessionId),
      listCompactions(tx, userId, sessionId),
      listCheckpoints(tx, userId, sessionId),
      readCanvas(tx, userId, sessionId),
      canvasHistory(tx, sessionId),
    ]);
    const latest = compactions.at(-1);
    const project = session.project_id ? await getProject(tx, userId, session.project_id) : null;
    return {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: new Date().toISOString(),
      session: sessionJson(session),
      system_prompt: session.system_prompt,
      messages: rows.map((r) => {
        const extra = extras.get(r.id);
        return {
          ...messageJson(r, r.turn_seq >= window.cutoff_turn_seq || pinned.has(r.turn_seq)),
          model: extra?.model ?? null,
          said_at: extra?.said_at ? new Date(extra.said_at).toISOString() : null,
        };
      }),
      compactions: compactions.map((c) => ({
        ...compactionJson(c, c === latest),
        at_turn: c.at_turn,
        prev_compaction_id: c.prev_compaction_id,
        prev_window_start_turn: c.prev_window_start_turn,
      })),
      checkpoints: checkpoints.map((c) => ({
        ...checkpointJson(c),
        window_start_turn: c.window_start_turn,
        summary_tokens: c.summary_tokens,
        summary_through_turn: c.summary_through_turn,
        canvas_version: c.canvas_version,
      })),
      instructions: session.instructions,
      window: { window_start_turn: session.window_start_turn, summary_id: session.summary_id, cleared_through_seq: session.cleared_through_seq },
      memory_context: {
        text: session.memory_text,
        tokens: session.memory_tokens,
        loaded_at: session.memory_loaded_at ? new Date(session.memory_loaded_at).toISOString() : null,
      },
      canvas: { layout: canvas.state.layout, elements: canvas.state.elements, version: canvas.version },
      canvas_events: canvasEvents,
      project: project && exportedProject(project),
    };
  });
}
