import { z } from "zod";
import type { TemplateJson } from "@/lib/api/types";
import { PRESETS } from "@/lib/context/compaction/templates";
import { withUser } from "@/lib/db";
import { deleteTemplate, insertTemplate, listTemplates } from "@/lib/db/templates";
import { conflict, notFound } from "@/lib/errors";

export const templateSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    body: z.string().trim().min(20, "must be at least 20 characters").max(20_000),
  })
  .strict();

export async function allTemplates(userId: string): Promise<TemplateJson[]> {
  const presets = Object.entries(PRESETS).map(([id, p]) => ({ id, name: p.label, body: p.body, preset: true }));
  const own = await withUser(userId, (tx) => listTemplates(tx, userId));
  return [...presets, ...own.map((t) => ({ id: t.id, name: t.name, body: t.body, preset: false }))];
}

export async function saveTemplate(userId: string, input: z.infer<typeof templateSchema>): Promise<TemplateJson> {
  const row = await withUser(userId, (tx) => insertTemplate(tx, userId, input));
  if (!row) throw conflict("duplicate_name", `You already have a template named "${input.name}"`);
  return { id: row.id, name: row.name, body: row.body, preset: false };
}

export async function removeTemplate(userId: string, id: string): Promise<void> {
  if (!(await withUser(userId, (tx) => deleteTemplate(tx, userId, id)))) throw notFound("Template", id);
}
