import "server-only";
import type { ContextSettings } from "@/lib/contract";
import type { Tx } from "./driver";
import { notFound } from "@/lib/errors";
import { tokensTodaySql } from "./llm-calls";
import { SESSION_COLUMNS, type SessionRow } from "./sessions";

type StoredSettings = Partial<ContextSettings>;

/** user_settings columns, named as the settings themselves. */
const COLUMNS = [
  "compaction_threshold",
  "output_reservation",
  "safety_buffer",
  "model",
  "auto_compact",
  "compaction_target",
  "summary_model",
  "compaction_template",
  "memory_budget",
  "memory_ttl_days",
  "recall_tool",
  "canvas_tools",
  "canvas_budget",
  "thinking",
] as const satisfies readonly (keyof ContextSettings)[];

export async function getUserSettings(tx: Tx, userId: string): Promise<StoredSettings> {
  const [row] = await tx.query<Record<string, unknown>>(`select ${COLUMNS.join(", ")} from user_settings where user_id = $1`, [
    userId,
  ]);
  return storedSettings(row);
}

/** What a session's context needs besides its row: the user's settings, a model's calibration and the user's tokens today. */
export interface ContextInputs {
  user: StoredSettings;
  calibration: CalibrationRow | null;
  tokensToday: number;
}

interface InputsRow {
  user_settings: string | null;
  factor: number | null;
  samples: number | null;
  tokens_today: number;
}

/** The user's settings as one JSON text, as a scalar subquery; `user` is the parameter naming them. */
const settingsJsonSql = (user: string) =>
  `(select row_to_json(u)::text from (select ${COLUMNS.join(", ")} from user_settings where user_id = ${user}) u) as user_settings`;

function inputsOf(row: InputsRow): ContextInputs {
  return {
    user: storedSettings(row.user_settings === null ? undefined : (JSON.parse(row.user_settings) as Record<string, unknown>)),
    calibration: row.factor === null || row.samples === null ? null : { factor: row.factor, samples: row.samples },
    tokensToday: row.tokens_today,
  };
}

/** The inputs, in one statement, with the calibration of `model`. */
export async function contextInputs(tx: Tx, userId: string, model: string): Promise<ContextInputs> {
  const [row] = await tx.query<InputsRow>(
    `select ${settingsJsonSql("$1")}, c.factor, c.samples, ${tokensTodaySql("$1")} as tokens_today
     from (select 1) as one left join model_calibrations c on c.user_id = $1 and c.model = $2`,
    [userId, model],
  );
  return inputsOf(row);
}

/**
 * A session row with its context's inputs (the user's settings, the calibration of the session's
 * model, tokens today), as SQL over `session` (a query or CTE yielding the row's SESSION_COLUMNS);
 * `user` names the user's parameter. Split by `withInputsOf`.
 */
export const withInputsSql = (session: string, user: string) =>
  `select s.*, ${settingsJsonSql(user)}, c.factor, c.samples, ${tokensTodaySql(user)} as tokens_today
   from (${session}) s left join model_calibrations c on c.user_id = ${user} and c.model = s.model`;

export type SessionWithInputsRow = SessionRow & InputsRow;

export function withInputsOf(row: SessionWithInputsRow): { session: SessionRow; inputs: ContextInputs } {
  const { user_settings, factor, samples, tokens_today, ...session } = row;
  return { session, inputs: inputsOf({ user_settings, factor, samples, tokens_today }) };
}

/** The session row and its context's inputs in one statement; a 404 when not the user's. */
export async function sessionWithInputs(tx: Tx, userId: string, sessionId: string): Promise<{ session: SessionRow; inputs: ContextInputs }> {
  const [row] = await tx.query<SessionWithInputsRow>(
    withInputsSql(`select ${SESSION_COLUMNS} from sessions where id = $1 and user_id = $2`, "$2"),
    [sessionId, userId],
  );
  if (!row) throw notFound("Session", sessionId);
  return withInputsOf(row);
}

function storedSettings(row: Record<string, unknown> | undefined): StoredSettings {
  if (!row) return {};
  const out: Record<string, unknown> = {};
  for (const c of COLUMNS) {
    const v = row[c];
    if (v === null || v === undefined) continue;
    // Postgres `real` round-trips 0.8 as 0.800000011920929; four decimals is all a fraction needs.
    out[c] = typeof v === "number" ? Math.round(v * 10000) / 10000 : v;
  }
  return out as StoredSettings;
}

export async function putUserSettings(tx: Tx, userId: string, s: StoredSettings): Promise<void> {
  const placeholders = COLUMNS.map((_, i) => `$${i + 2}`).join(", ");
  const updates = COLUMNS.map((c) => `${c} = excluded.${c}`).join(", ");
  await tx.query(
    `insert into user_settings (user_id, ${COLUMNS.join(", ")}, updated_at) values ($1, ${placeholders}, now())
     on conflict (user_id) do update set ${updates}, updated_at = now()`,
    [userId, ...COLUMNS.map((c) => s[c] ?? null)],
  );
}

export interface CalibrationRow {
  factor: number;
  samples: number;
}

export async function getCalibration(tx: Tx, userId: string, model: string): Promise<CalibrationRow | null> {
  const [row] = await tx.query<CalibrationRow>(
    `select factor, samples from model_calibrations where user_id = $1 and model = $2`,
    [userId, model],
  );
  return row ?? null;
}

/**
 * A model's calibration stored, as WITH-list entries of a statement, given the placeholders of
 * its user, model, factor and samples: inserted when the user has none for the model yet, else
 * updated unless another transaction holds the row. A user's parallel turns each refine the
 * factor they read at their start, so whichever writes it, the others' samples would be
 * overwritten anyway: skipping them costs nothing, and no turn waits for another to commit.
 */
export const calibrationWrite = (user: string, model: string, factor: string, samples: string) =>
  `calibration_new as (
     insert into model_calibrations (user_id, model, factor, samples, updated_at)
     select ${user}::uuid, ${model}::text, ${factor}::float8, ${samples}::int, now()
     where not exists (select 1 from model_calibrations where user_id = ${user}::uuid and model = ${model}::text)
     on conflict (user_id, model) do nothing),
   calibration_free as (
     select ctid from model_calibrations where user_id = ${user}::uuid and model = ${model}::text for update skip locked),
   calibration_set as (
     update model_calibrations c set factor = ${factor}::float8, samples = ${samples}::int, updated_at = now()
     from calibration_free f where c.ctid = f.ctid)`;

export async function putCalibration(tx: Tx, userId: string, model: string, c: CalibrationRow): Promise<void> {
  await tx.query(`with ${calibrationWrite("$1", "$2", "$3", "$4")} select 1`, [userId, model, c.factor, c.samples]);
}

/** The account's custom instructions ('' when none). */
export async function getInstructions(tx: Tx, userId: string): Promise<string> {
  const [row] = await tx.query<{ custom_instructions: string }>(`select custom_instructions from user_settings where user_id = $1`, [userId]);
  return row?.custom_instructions ?? "";
}

export async function putInstructions(tx: Tx, userId: string, text: string): Promise<string> {
  const [row] = await tx.query<{ custom_instructions: string }>(
    `insert into user_settings (user_id, custom_instructions, updated_at) values ($1, $2, now())
     on conflict (user_id) do update set custom_instructions = excluded.custom_instructions, updated_at = now()
     returning custom_instructions`,
    [userId, text],
  );
  return row.custom_instructions;
}
