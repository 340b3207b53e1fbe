// An OpenAI Chat Completions request as the drop-in's Messages API request, field by field as
// Anthropic's own compatibility layer maps them (docs/api.md lists what is honoured, ignored and
// refused). Only the fields named here reach Claude: the drop-in passes every field of its request
// it does not handle itself, so nothing of the OpenAI body is spread into it.
import "server-only";
import { anthropicCreateRequest, type AnthropicCreateRequest } from "@/lib/contract/anthropic";
import type { OpenAIChatRequest, OpenAIMessage, OpenAIUserPart } from "@/lib/contract/openai";
import { DEFAULT_SETTINGS } from "@/lib/contract/settings";
import { computeCapacity } from "@/lib/context/capacity";
import { env } from "@/lib/env";
import { decodeBase64 } from "@/lib/files/base64";
import { AppError, badRequest } from "@/lib/errors";
import { getModel, MODELS, type ModelInfo } from "@/lib/models";

type Block = { type: string } & Record<string, unknown>;
type Turn = { role: "user" | "assistant"; content: Block[] };

/** `response_format: json_object`: OpenAI's JSON mode has no Claude counterpart but an instruction. */
export const JSON_OBJECT_INSTRUCTION = "Answer with a single JSON object and nothing else: no prose before or after it, no code fence.";

/** Anthropic's metadata.user_id is at most this long; a longer `user` is not sent. */
const MAX_USER_ID = 256;

const invalid = (param: string, message: string) => badRequest(`${param}: ${message}`, { param });

/** An unknown model is OpenAI's 404 `model_not_found`, which clients recognise. */
function modelOf(id: string): ModelInfo {
  const model = getModel(id);
  if (model) return model;
  throw new AppError(404, "model_not_found", `The model '${id}' does not exist. Known models: ${MODELS.map((m) => m.id).join(", ")}`, { param: "model" });
}

/**
 * Without max_tokens, the reply gets what a session with the default settings reserves for it
 * (20 % of the window, at most the model's output limit): a model's whole output limit would
 * leave a full window no room for it, and Claude refuses a request whose input and max_tokens
 * together pass the window.
 */
export function defaultMaxTokens(model: ModelInfo): number {
  return computeCapacity(model, DEFAULT_SETTINGS).reserved;
}

const textOf = (content: string | readonly { text: string }[]) => (typeof content === "string" ? content : content.map((p) => p.text).join("\n"));

const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/s;

/** A base64 `data:` URL's media type and data; null when it is not one. */
function dataUrl(url: string): { mediaType: string; data: string } | null {
  const m = DATA_URL.exec(url);
  if (!m || !m[2].split(";").includes("base64")) return null;
  return { mediaType: m[1].toLowerCase(), data: m[3] };
}

function imageBlock(url: string, at: string): Block {
  const inline = dataUrl(url);
  if (inline) {
    if (!inline.mediaType.startsWith("image/")) throw invalid(at, `a data: URL of ${inline.mediaType} is not an image`);
    return { type: "image", source: { type: "base64", media_type: inline.mediaType, data: inline.data } };
  }
  if (/^https?:\/\//i.test(url)) {
    // Fetching a caller's URL is a request to wherever it points; the operator decides.
    if (env().THREADKEEPER_OPENAI_IMAGE_URLS === "on") return { type: "image", source: { type: "url", url } };
    throw invalid(at, "image URLs are not fetched on this server; send the image inline as a base64 data: URL (the operator can allow URLs with THREADKEEPER_OPENAI_IMAGE_URLS=on)");
  }
  throw invalid(at, "an image is a base64 data: URL (or an http(s) URL where the server allows them)");
}

/** A `file` part: a PDF (Claude reads its pages) or a plain text file, inline. */
function fileBlock(file: { file_data?: string | null; file_id?: string | null; filename?: string | null }, at: string): Block {
  if (!file.file_data) throw invalid(`${at}.file`, "send the file inline as file_data; there is no Files API here to name a file_id from");
  const inline = dataUrl(file.file_data) ?? { mediaType: "application/pdf", data: file.file_data };
  const title = file.filename ? { title: file.filename } : {};
  if (inline.mediaType === "application/pdf") return { type: "document", source: { type: "base64", media_type: "application/pdf", data: inline.data }, ...title };
  if (inline.mediaType === "text/plain") {
    const bytes = decodeBase64(inline.data);
    if (!bytes) throw invalid(`${at}.file.file_data`, "the file's data is not valid base64");
    return { type: "document", source: { type: "text", media_type: "text/plain", data: Buffer.from(bytes).toString("utf8") }, ...title };
  }
  throw invalid(`${at}.file.file_data`, `files are PDFs or plain text, not ${inline.mediaType}`);
}

function userBlocks(content: string | readonly OpenAIUserPart[], at: string): Block[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  return content.flatMap((p, j): Block[] => {
    const where = `${at}.content.${j}`;
    if (p.type === "text") return p.text === "" ? [] : [{ type: "text", text: p.text }];
    if (p.type === "image_url") return [imageBlock(p.image_url.url, `${where}.image_url.url`)];
    if (p.type === "file") return [fileBlock(p.file, where)];
    // Audio input is stripped, as Anthropic's layer strips it.
    return [];
  });
}

function toolInput(args: string, at: string): Record<string, unknown> {
  let input: unknown;
  try {
    input = args.trim() === "" ? {} : JSON.parse(args);
  } catch {
    throw invalid(at, "the arguments are not valid JSON");
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw invalid(at, "the arguments must be a JSON object");
  return input as Record<string, unknown>;
}

function assistantBlocks(m: Extract<OpenAIMessage, { role: "assistant" }>, at: string): Block[] {
  const said = typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => (p.type === "text" ? p.text : p.refusal)).join("");
  // A refusal the client kept apart from the content is still what was said.
  const text = said || (m.refusal ?? "");
  const calls = (m.tool_calls ?? []).map((c, k) => ({
    type: "tool_use",
    id: c.id,
    name: c.function.name,
    input: toolInput(c.function.arguments, `${at}.tool_calls.${k}.function.arguments`),
  }));
  return [...(text === "" ? [] : [{ type: "text", text }]), ...calls];
}

/**
 * The conversation: system and developer messages hoisted into one system prompt (joined with a
 * newline, as Anthropic's layer joins them), tool messages as the user's tool_result blocks, and
 * consecutive messages of one role (a run of tool results above all) merged into one.
 */
function conversation(messages: readonly OpenAIMessage[]): { system: string[]; turns: Turn[] } {
  const system: string[] = [];
  const turns: Turn[] = [];
  const add = (role: Turn["role"], content: Block[]) => {
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...content);
    else turns.push({ role, content });
  };
  messages.forEach((m, i) => {
    const at = `messages.${i}`;
    if (m.role === "system" || m.role === "developer") system.push(textOf(m.content));
    else if (m.role === "user") add("user", userBlocks(m.content, at));
    else if (m.role === "assistant") add("assistant", assistantBlocks(m, at));
    else add("user", [{ type: "tool_result", tool_use_id: m.tool_call_id, content: textOf(m.content) }]);
  });
  return { system, turns };
}

function inputSchema(parameters: Record<string, unknown> | null | undefined, at: string): Record<string, unknown> {
  if (!parameters) return { type: "object", properties: {} };
  if (parameters.type === undefined) return { type: "object", ...parameters };
  if (parameters.type !== "object") throw invalid(at, "a function's parameters are a JSON schema of type object");
  return parameters;
}

function toolChoice(body: OpenAIChatRequest, names: ReadonlySet<string>): AnthropicCreateRequest["tool_choice"] {
  const choice = body.tool_choice;
  const parallel = body.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === "none") return { type: "none" };
  if (choice === "required") return { type: "any", ...parallel };
  if (typeof choice === "object" && choice !== null) {
    if (!names.has(choice.function.name)) throw invalid("tool_choice", `'${choice.function.name}' is not one of the request's tools`);
    return { type: "tool", name: choice.function.name, ...parallel };
  }
  return choice === "auto" || body.parallel_tool_calls === false ? { type: "auto", ...parallel } : undefined;
}

/** The request as the drop-in takes it, checked by the drop-in's own contract. */
export function toAnthropic(body: OpenAIChatRequest): AnthropicCreateRequest {
  const model = modelOf(body.model);
  const { system, turns } = conversation(body.messages);
  const format = body.response_format;
  const schema = format?.type === "json_schema" ? format.json_schema.schema : null;
  if (format && format.type !== "text" && !schema) system.push(JSON_OBJECT_INSTRUCTION);
  const tools = (body.tools ?? []).map((t, i) => ({
    name: t.function.name,
    ...(t.function.description ? { description: t.function.description } : {}),
    input_schema: inputSchema(t.function.parameters, `tools.${i}.function.parameters`),
  }));
  // tool_choice without tools of the caller's would steer Claude toward Threadkeeper's own.
  const choice = tools.length > 0 ? toolChoice(body, new Set(tools.map((t) => t.name))) : undefined;
  const stop = body.stop === null || body.stop === undefined ? [] : [body.stop].flat().filter((s) => s.trim() !== "");
  const user = body.user && body.user.length <= MAX_USER_ID ? body.user : null;
  return anthropicCreateRequest.parse({
    model: body.model,
    messages: turns,
    max_tokens: body.max_completion_tokens ?? body.max_tokens ?? defaultMaxTokens(model),
    stream: body.stream === true,
    ...(system.length > 0 ? { system: system.join("\n") } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(choice ? { tool_choice: choice } : {}),
    ...(schema ? { output_config: { format: { type: "json_schema", schema } } } : {}),
    ...(body.temperature !== null && body.temperature !== undefined ? { temperature: Math.min(body.temperature, 1) } : {}),
    ...(body.top_p !== null && body.top_p !== undefined ? { top_p: body.top_p } : {}),
    ...(stop.length > 0 ? { stop_sequences: stop } : {}),
    ...(user ? { metadata: { user_id: user } } : {}),
    ...(body.thinking ? { thinking: body.thinking } : {}),
  });
}
