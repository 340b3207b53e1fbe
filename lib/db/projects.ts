import "server-only";
import type { ProjectJson } from "@/lib/contract";
import { projectSchema } from "@/lib/contract/requests";
import { conflict, notFound } from "@/lib/errors";
import type { Tx } from "./driver";

interface ProjectRow {
  id: string;
  name: string;
  created_at: Date;
  session_count: number;
}

const SELECT = `select p.id, p.name, p.created_at,
  (select count(*)::int from sessions s where s.project_id = p.id) as session_count from projects p`;

export async function listProjects(tx: Tx, userId: string): Promise<ProjectJson[]> {
  return (await tx.query<ProjectRow>(`${SELECT} where p.user_id = $1 order by p.name`, [userId])).map(projectJson);
}

export async function getProject(tx: Tx, userId: string, id: string): Promise<ProjectJson> {
  const [row] = await tx.query<ProjectRow>(`${SELECT} where p.id = $1 and p.user_id = $2`, [id, userId]);
  if (!row) throw notFound("Project", id);
  return projectJson(row);
}

export async function insertProject(tx: Tx, userId: string, name: string): Promise<ProjectJson> {
  const [row] = await tx.query<{ id: string }>(
    `insert into projects (user_id, name) values ($1, $2) on conflict (user_id, name) do nothing returning id`,
    [userId, name],
  );
  if (!row) throw conflict("duplicate_name", `You already have a project named "${name}"`);
  return getProject(tx, userId, row.id);
}

/**
 * The user's project of this name, made if there is none (an import: `createdAt` the export's);
 * null for a name no project may have (empty, too long), which an import leaves without one.
 */
export async function ensureProject(tx: Tx, userId: string, rawName: string, createdAt: string | null = null): Promise<string | null> {
  const parsed = projectSchema.shape.name.safeParse(rawName);
  if (!parsed.success) return null;
  const name = parsed.data;
  const [made] = await tx.query<{ id: string }>(
    `insert into projects (user_id, name, created_at) values ($1, $2, coalesce($3::timestamptz, now())) on conflict (user_id, name) do nothing returning id`,
    [userId, name, createdAt],
  );
  if (made) return made.id;
  const [row] = await tx.query<{ id: string }>(`select id from projects where user_id = $1 and name = $2`, [userId, name]);
  return row.id;
}

export async function renameProject(tx: Tx, userId: string, id: string, name: string): Promise<ProjectJson> {
  const clash = await tx.query(`select 1 from projects where user_id = $1 and name = $2 and id <> $3`, [userId, name, id]);
  if (clash.length > 0) throw conflict("duplicate_name", `You already have a project named "${name}"`);
  const rows = await tx.query(`update projects set name = $3 where id = $1 and user_id = $2 returning id`, [id, userId, name]);
  if (rows.length === 0) throw notFound("Project", id);
  return getProject(tx, userId, id);
}

export async function deleteProject(tx: Tx, userId: string, id: string): Promise<void> {
  const rows = await tx.query(`delete from projects where id = $1 and user_id = $2 returning id`, [id, userId]);
  if (rows.length === 0) throw notFound("Project", id);
}

function projectJson(r: ProjectRow): ProjectJson {
  return { id: r.id, name: r.name, created_at: r.created_at.toISOString(), session_count: r.session_count };
}
