import type { ContextSettings } from "@/lib/api/types";
import type { Tx } from "./driver";

type StoredSettings = Partial<ContextSettings>;

export async function getUserSettings(tx: Tx, userId: string): Promise<StoredSettings> {
  const [row] = await tx.query<Record<string, number | string | null>>(
    `select compaction_threshold, output_reservation, safety_buffer, model
     from user_settings where user_id = $1`,
    [userId],
  );
  if (!row) return {};
  // Postgres `real` round-trips 0.8 as 0.800000011920929; two decimals is all a fraction here needs.
  const frac = (v: unknown) => (typeof v === "number" ? Math.round(v * 10000) / 10000 : undefined);
  return Object.fromEntries(
    Object.entries({
      compaction_threshold: frac(row.compaction_threshold),
      output_reservation: frac(row.output_reservation),
      safety_buffer: frac(row.safety_buffer),
      model: row.model ?? undefined,
    }).filter(([, v]) => v !== undefined),
  ) as StoredSettings;
}

export async function putUserSettings(tx: Tx, userId: string, s: StoredSettings): Promise<void> {
  await tx.query(
    `insert into user_settings (user_id, compaction_threshold, output_reservation, safety_buffer, model, updated_at)
     values ($1, $2, $3, $4, $5, now())
     on conflict (user_id) do update set compaction_threshold = excluded.compaction_threshold,
       output_reservation = excluded.output_reservation, safety_buffer = excluded.safety_buffer,
       model = excluded.model, updated_at = now()`,
    [
      userId,
      s.compaction_threshold ?? null,
      s.output_reservation ?? null,
      s.safety_buffer ?? null,
      s.model ?? null,
    ],
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

export async function putCalibration(tx: Tx, userId: string, model: string, c: CalibrationRow): Promise<void> {
  await tx.query(
    `insert into model_calibrations (user_id, model, factor, samples, updated_at) values ($1, $2, $3, $4, now())
     on conflict (user_id, model) do update set factor = excluded.factor, samples = excluded.samples, updated_at = now()`,
    [userId, model, c.factor, c.samples],
  );
}
