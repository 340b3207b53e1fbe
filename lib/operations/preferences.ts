import "server-only";
// A person's preferences kept by the server: a session's draft, the account's custom
// instructions, a session's system prompt and the instructions it carries.
import type { z } from "zod";
import type { DraftJson, InstructionsJson, SystemPromptJson } from "@/lib/contract";
import type { putDraftSchema, putSystemPromptSchema } from "@/lib/contract/preferences";
import { sessionSystemText } from "@/lib/context/instructions";
import { withUser } from "@/lib/db";
import { deleteDraft, getDraft, putDraft, type DraftRow } from "@/lib/db/drafts";
import { sessionFilesByIds } from "@/lib/db/files";
import { getSession, setSystemText, type SessionRow } from "@/lib/db/sessions";
import { getInstructions, putInstructions } from "@/lib/db/settings";
import { notFound } from "@/lib/errors";
import { estimateSystemTokens } from "@/lib/tokens/tokenizer";

const NO_DRAFT: DraftJson = { text: "", attachments: [], updated_at: null };

function draftJson(row: DraftRow | null): DraftJson {
  return row ? { text: row.text, attachments: row.attachments, updated_at: row.updated_at.toISOString() } : NO_DRAFT;
}

export async function sessionDraft(userId: string, sessionId: string): Promise<DraftJson> {
  return withUser(userId, async (tx) => {
    const row = await getDraft(tx, userId, sessionId);
    // No draft and no session read alike from a row alone: tell them apart, so a stranger's id is a 404.
    if (!row) await getSession(tx, userId, sessionId);
    return draftJson(row);
  });
}

/** Saves a draft; an empty one is deleted (the draft of a message just sent). */
export async function saveDraft(userId: string, sessionId: string, input: z.infer<typeof putDraftSchema>): Promise<DraftJson> {
  return withUser(userId, async (tx) => {
    if (input.text === "" && input.attachments.length === 0) {
      await getSession(tx, userId, sessionId);
      await deleteDraft(tx, userId, sessionId);
      return NO_DRAFT;
    }
    // Only the session's own files stay: one deleted meanwhile (or never its) drops out of the draft.
    const ids = input.attachments.map((a) => a.id);
    const known = new Set(ids.length === 0 ? [] : (await sessionFilesByIds(tx, userId, sessionId, ids)).map((f) => f.id));
    const attachments = input.attachments.filter((a) => known.has(a.id));
    const row = await putDraft(tx, userId, sessionId, { text: input.text, attachments });
    if (!row) throw notFound("Session", sessionId);
    return draftJson(row);
  });
}

export async function accountInstructions(userId: string): Promise<InstructionsJson> {
  return withUser(userId, async (tx) => ({ instructions: await getInstructions(tx, userId) }));
}

export async function saveInstructions(userId: string, text: string): Promise<InstructionsJson> {
  return withUser(userId, async (tx) => ({ instructions: await putInstructions(tx, userId, text.trim()) }));
}

function systemPromptJson(s: SessionRow): SystemPromptJson {
  return { system_prompt: s.system_prompt, instructions: s.instructions, tokens: s.system_tokens };
}

export async function sessionSystemPrompt(userId: string, sessionId: string): Promise<SystemPromptJson> {
  return withUser(userId, async (tx) => systemPromptJson(await getSession(tx, userId, sessionId)));
}

/**
 * Changes what the session sends before its conversation. The next request sends it (its cached
 * prefix is written again once); the token bar counts it at once.
 */
export async function saveSystemPrompt(userId: string, sessionId: string, input: z.infer<typeof putSystemPromptSchema>): Promise<SystemPromptJson> {
  return withUser(userId, async (tx) => {
    const s = await getSession(tx, userId, sessionId);
    const prompt = input.system_prompt ?? s.system_prompt;
    const instructions = input.instructions?.trim() ?? s.instructions;
    return systemPromptJson(await setSystemText(tx, userId, sessionId, { prompt, instructions, tokens: estimateSystemTokens(sessionSystemText(prompt, instructions)) }));
  });
}
