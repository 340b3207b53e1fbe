import "server-only";
import type { Tx } from "./driver";

export interface DraftRow {
  text: string;
  attachments: { id: string; by_reference: boolean }[];
  updated_at: Date;
}

export async function getDraft(tx: Tx, userId: string, sessionId: string): Promise<DraftRow | null> {
  const [row] = await tx.query<DraftRow>(`select text, attachments, updated_at from session_drafts where session_id = $1 and user_id = $2`, [
    sessionId,
    userId,
  ]);
  return row ?? null;
}

/** Saves the draft of a session of the user's (none is written for anyone else's); null: no such session. */
export async function putDraft(tx: Tx, userId: string, sessionId: string, d: Pick<DraftRow, "text" | "attachments">): Promise<DraftRow | null> {
  const [row] = await tx.query<DraftRow>(
    `insert into session_drafts (session_id, user_id, text, attachments, updated_at)
     select id, user_id, $3, $4::text::jsonb, now() from sessions where id = $1 and user_id = $2
     on conflict (session_id) do update set text = excluded.text, attachments = excluded.attachments, updated_at = now()
     returning text, attachments, updated_at`,
    [sessionId, userId, d.text, JSON.stringify(d.attachments)],
  );
  return row ?? null;
}

export async function deleteDraft(tx: Tx, userId: string, sessionId: string): Promise<void> {
  await tx.query(`delete from session_drafts where session_id = $1 and user_id = $2`, [sessionId, userId]);
}
