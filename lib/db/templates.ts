import "server-only";
import type { Tx } from "./driver";

export interface TemplateRow {
  id: string;
  name: string;
  body: string;
  created_at: Date;
}

export async function listTemplates(tx: Tx, userId: string): Promise<TemplateRow[]> {
  return tx.query<TemplateRow>(`select id, name, body, created_at from prompt_templates where user_id = $1 order by name`, [userId]);
}

export async function getTemplate(tx: Tx, userId: string, id: string): Promise<TemplateRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await tx.query<TemplateRow>(
    `select id, name, body, created_at from prompt_templates where id = $1 and user_id = $2`,
    [id, userId],
  );
  return row ?? null;
}

export async function insertTemplate(tx: Tx, userId: string, t: { name: string; body: string }): Promise<TemplateRow | null> {
  const [row] = await tx.query<TemplateRow>(
    `insert into prompt_templates (user_id, name, body) values ($1, $2, $3)
     on conflict (user_id, name) do nothing returning id, name, body, created_at`,
    [userId, t.name, t.body],
  );
  return row ?? null;
}

export async function deleteTemplate(tx: Tx, userId: string, id: string): Promise<boolean> {
  const rows = await tx.query(`delete from prompt_templates where id = $1 and user_id = $2 returning id`, [id, userId]);
  return rows.length > 0;
}
