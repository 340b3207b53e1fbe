import "server-only";
import { z } from "zod";
import { audit } from "@/lib/audit/record";
import type { TemplateJson } from "@/lib/contract";
import { PRESETS } from "@/lib/context/compaction/templates";
import { withUser } from "@/lib/db";
import { deleteTemplate, insertTemplate, listTemplates } from "@/lib/db/templates";
import { conflict, notFound } from "@/lib/errors";
import { templateSchema } from "@/lib/contract/requests";

export async function allTemplates(userId: string): Promise<TemplateJson[]> {
  const presets = Object.entries(PRESETS).map(([id, p]) => ({ id, name: p.label, body: p.body, preset: true }));
  const own = await withUser(userId, (tx) => listTemplates(tx, userId));
  return [...presets, ...own.map((t) => ({ id: t.id, name: t.name, body: t.body, preset: false }))];
}

export async function saveTemplate(userId: string, input: z.infer<typeof templateSchema>): Promise<TemplateJson> {
  const row = await withUser(userId, async (tx) => {
    const saved = await insertTemplate(tx, userId, input);
    if (saved) await audit(tx, userId, { action: "template.created", target: { type: "template", id: saved.id }, metadata: { name: saved.name } });
    return saved;
  });
  if (!row) throw conflict("duplicate_name", `You already have a template named "${input.name}"`);
  return { id: row.id, name: row.name, body: row.body, preset: false };
}

export async function removeTemplate(userId: string, id: string): Promise<void> {
  const deleted = await withUser(userId, async (tx) => {
    const done = await deleteTemplate(tx, userId, id);
    if (done) await audit(tx, userId, { action: "template.deleted", target: { type: "template", id } });
    return done;
  });
  if (!deleted) throw notFound("Template", id);
}
