// count_tokens for the drop-in Messages API: what the managed request would count. With a
// session, its window (summary, memories, Threadkeeper's tools) plus the request's last
// message; without one, the request as a new session would send it. The API's own count when
// Claude is reachable, else the calibrated estimate.
import "server-only";
import type { AnthropicCountRequest } from "@/lib/contract/anthropic";
import { offeredTools } from "@/lib/context/tools";
import type { EngineMessage } from "@/lib/context/types";
import { withUser } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { anthropicClient, countTokens, type LlmRequest } from "@/lib/llm/client";
import { assembleWindow, sessionContext } from "@/lib/operations/session-context";
import { calibrate } from "@/lib/tokens/calibration";
import { countMessageOffThread, countMessagesOffThread } from "@/lib/tokens/off-thread";
import { estimateSystemTokens, estimateToolsTokens } from "@/lib/tokens/tokenizer";
import { API_DEFAULT_TOOLS, chosenTools, isSessionId, systemText, type DropInHeaders } from "./api-session";
import { betaList, callerParams, readRequest, toolDefs } from "./drop-in";
import { buildRequest, withCallerTools, withFileBodies } from "./request";

export async function countDropIn(userId: string, headers: DropInHeaders, body: AnthropicCountRequest): Promise<number> {
  const sessionHeader = headers.session;
  const params = callerParams(body);
  const betas = betaList(headers.betas);
  const { model, messages } = await readRequest(body);
  const tools = toolDefs(body.tools);
  const last = messages[messages.length - 1];
  const client = anthropicClient();
  if (sessionHeader === null) {
    const system = systemText(body.system) ?? "";
    const request: Omit<LlmRequest, "maxTokens"> = {
      model: model.id,
      system: system ? [{ type: "text", text: system }] : [],
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      tools: withCallerTools(offeredTools(chosenTools(headers.tools, headers.keyTools) ?? API_DEFAULT_TOOLS), tools),
      params,
      betas,
    };
    if (client) return countTokens(client, request);
    const counts = await countMessagesOffThread(messages);
    return estimateSystemTokens(system) + estimateToolsTokens(request.tools ?? []) + counts.reduce((a, b) => a + b, 0);
  }
  if (!isSessionId(sessionHeader)) throw notFound("Session", sessionHeader);
  const lastTokens = await countMessageOffThread("user", last.content);
  const { ctx, win, next } = await withUser(userId, async (tx) => {
    const ctx = await sessionContext(tx, userId, sessionHeader);
    ctx.callerToolsRaw = estimateToolsTokens(tools);
    const win = await assembleWindow(tx, ctx, ctx.calibration.factor);
    const s = ctx.session;
    const next: EngineMessage = {
      seq: s.next_seq,
      turnSeq: s.last_turn_seq + 1,
      role: "user",
      content: last.content,
      tokenCount: lastTokens,
      protected: false,
      status: "complete",
    };
    return { ctx, win, next };
  });
  if (!client) return win.selection.calibratedTokens + calibrate(next.tokenCount, ctx.calibration.factor);
  const { request } = buildRequest(ctx, [...win.messages, next], null, { tools, params, betas, maxTokens: 1 });
  return countTokens(client, await withFileBodies(userId, request));
}
