// A Messages API request as a Threadkeeper turn: the session it continues (or a new one), its
// messages lined up with the session's (lib/context/client-history.ts), and the turn that
// answers it with the caller's tools beside Threadkeeper's. Everything that can fail with a
// plain error happens here, before the answer starts.
import "server-only";
import { MAX_DROP_IN_MESSAGES, type AnthropicCreateRequest } from "@/lib/contract/anthropic";
import { incomingMessages } from "@/lib/context/incoming";
import { readMedia, storeMedia } from "./media";
import { maxMessageBytes } from "@/lib/contract/requests";
import {
  canonicalKey,
  clientView,
  EMPTY_VIEW,
  extendDigest,
  mergeConsecutive,
  reconcile,
  viewBase,
  type KeyBlock,
  type Reconciliation,
  type ViewDigest,
} from "@/lib/context/client-history";
import { blocksToText } from "@/lib/context/text";
import { offeredTools, RECALL_TOOL } from "@/lib/context/tools";
import { startsTurn } from "@/lib/context/turns";
import type { ContentBlock, EngineMessage, ToolResultBlock, ToolUseBlock } from "@/lib/context/types";
import { mapSliced } from "@/lib/context/yield";
import { withUser, type Tx } from "@/lib/db";
import { appendMessage, tailMessages } from "@/lib/db/messages";
import { getSession, recordClientView, type SessionRow } from "@/lib/db/sessions";
import { AppError, badRequest } from "@/lib/errors";
import type { CallerParams } from "@/lib/llm/client";
import { getModel, MODELS } from "@/lib/models";
import { leaseForTurn, release } from "@/lib/operations/lease";
import { countMessageOffThread } from "@/lib/tokens/off-thread";
import type { ToolDef } from "@/lib/tokens/tokenizer";
import { answeredCalls, apiSession, type DropInHeaders, type FoundBy } from "./api-session";
export type { DropInHeaders } from "./api-session";
import { fitsOneBatch, importHistory, storeHistory } from "./import-history";
import { lastUserMessage } from "./replay";
import type { PlannedWindow } from "./plan-request";
import { planWithMessage, turnFor, type PreparedSend } from "./send";
import { runToolUses } from "./tool-calls";
import type { TurnCaller } from "./turn-handle";

/** What the session did with the request's history; `continued`: a tool_result carried on a paused turn. */
export type HistoryHandling = Reconciliation["how"] | "continued";

export interface DropIn {
  sessionId: string;
  foundBy: FoundBy;
  history: HistoryHandling;
  prepared: PreparedSend;
  /**
   * After a completed answer: records the client's view of the conversation with it (its
   * visible content, and the seq of the turn's last message), so the next resent history is
   * recognised without reading the session. Null when the view before it is not known.
   */
  recordView: ((answered: readonly KeyBlock[], lastSeq: number) => Promise<void>) | null;
}

/** The session's digest of the drop-in client's view, if no message was appended since it was recorded. */
function knownView(s: SessionRow): ViewDigest | null {
  if (s.next_seq === 1) return EMPTY_VIEW;
  if (s.client_view_seq !== s.next_seq - 1 || s.client_view_len === null || s.client_view_digest === null) return null;
  return { len: s.client_view_len, digest: s.client_view_digest };
}

/** Threadkeeper's own tools: run inside a request, so hidden from the caller's view of it. */
const OWN_TOOLS = offeredTools({ recall_tool: true, canvas_tools: true });

/** The caller's tool definitions as Threadkeeper sends them: as they came, but for cache_control (Threadkeeper places its own). */
export function toolDefs(tools: AnthropicCreateRequest["tools"]): ToolDef[] {
  return (tools ?? []).map(({ cache_control, ...t }) => {
    void cache_control;
    return t as ToolDef;
  });
}


/**
 * The request's checks that need no database (a known model, a user message to answer, sizes),
 * with its images and PDFs read (lib/turn/media.ts): its messages as they will be stored.
 */
export async function readRequest(body: Pick<AnthropicCreateRequest, "model" | "messages"> & { max_tokens?: number }) {
  const model = getModel(body.model);
  if (!model) throw badRequest(`model: unknown model '${body.model}'. Known models: ${MODELS.map((m) => m.id).join(", ")}`);
  if (body.max_tokens !== undefined && body.max_tokens > model.maxOutput) {
    throw badRequest(`max_tokens: ${body.max_tokens} > ${model.maxOutput}, which is the maximum allowed number of output tokens for ${model.id}`);
  }
  if (body.messages.length > MAX_DROP_IN_MESSAGES) {
    // Counted as sent, before any work per message: a refusal costs nothing.
    throw new AppError(413, "too_many_messages", `messages: ${body.messages.length} messages exceed the maximum of ${MAX_DROP_IN_MESSAGES} per request`, {
      max_messages: MAX_DROP_IN_MESSAGES,
    });
  }
  const messages = mergeConsecutive(incomingMessages(await readMedia(body.messages)));
  const last = messages[messages.length - 1];
  if (!last || last.role !== "user") throw badRequest("messages: the last message must be a user message (assistant prefill is not supported)");
  if (messages.some((m) => m.content.length === 0)) throw badRequest("messages: all messages must have non-empty content");
  // What was written counts against the limit; a document's text is bounded by the request's size.
  if (Buffer.byteLength(blocksToText(last.content.filter((b) => b.type !== "document")), "utf8") > maxMessageBytes()) {
    throw new AppError(413, "message_too_large", `The last message exceeds ${maxMessageBytes()} bytes`, { max_bytes: maxMessageBytes() });
  }
  return { model, messages };
}

// The fields Threadkeeper itself makes the request from; every other field is the caller's, sent as it came.
const HANDLED_FIELDS = new Set(["model", "messages", "system", "tools", "max_tokens", "stream"]);

export function callerParams(body: Record<string, unknown>): CallerParams {
  return Object.fromEntries(Object.entries(body).filter(([k, v]) => !HANDLED_FIELDS.has(k) && v !== undefined));
}

/** The caller's `anthropic-beta` header as a list (the SDK joins several with commas). */
export function betaList(header: string | null): string[] {
  return [...new Set((header ?? "").split(",").map((b) => b.trim()).filter(Boolean))];
}

/**
 * Starts a request: checks it, finds or creates its session, lines its messages up with the
 * session's under the turn lease, stores what is new (the new message, a history the session
 * lacked, an edit), and returns the turn that answers it.
 */
export async function startDropIn(
  userId: string,
  headers: DropInHeaders,
  body: AnthropicCreateRequest,
  onReply: TurnCaller["onReply"],
): Promise<DropIn> {
  const read = await readRequest(body);
  const model = read.model;
  // Keys are the same before and after the media are stored (by their bytes' digest), so they find the session.
  const keys = await mapSliced(read.messages, (m) => canonicalKey(m.role, m.content));
  const lastRead = read.messages[read.messages.length - 1];
  // A dated alias is stored as its model's id, so costs and the picker know it.
  const { sessionId, foundBy } = await apiSession(userId, headers, { model: model.id, system: body.system, keys, answers: answeredCalls(lastRead.content) });
  // Its images and PDFs become the session's files, as uploads would.
  const messages = await storeMedia(userId, sessionId, read.messages);
  const caller: TurnCaller = {
    tools: toolDefs(body.tools),
    params: callerParams(body),
    betas: betaList(headers.betas),
    maxTokens: body.max_tokens,
    onReply,
  };
  const hidden = new Set(OWN_TOOLS.map((t) => t.name).filter((n) => !caller.tools.some((t) => t.name === n)));
  const last = messages[messages.length - 1];
  const continuing = !startsTurn("user", last.content);
  // A history is lined up with every message of the session, unless the session's digest of
  // what this client saw already covers it; a lone new message needs only the last turn (is it
  // a retry of it?). Either way the cost of a request does not grow with the session.
  const lineUp = async (tx: Tx) => {
    const session = await getSession(tx, userId, sessionId);
    const known = knownView(session);
    const history = keys.slice(0, -1);
    if (known && !continuing && history.length > 0 && history.length === known.len && extendDigest(EMPTY_VIEW, history).digest === known.digest) {
      return { stored: [], plan: { how: "matched" } as Reconciliation, imported: [], view: { base: known, added: keys.slice(-1) } };
    }
    const whole = keys.length > 1 || continuing;
    const stored = await tailMessages(tx, sessionId, whole ? 1 : session.last_turn_seq);
    const view = clientView(stored, hidden);
    const plan = reconcile(view, keys.map((key) => ({ key })));
    const imported = plan.how === "imported" || plan.how === "edited" ? messages.slice(plan.importFrom, -1) : [];
    return { stored, plan, imported, view: viewBase(plan, whole ? view : null, known, keys) };
  };
  type Lined = Awaited<ReturnType<typeof lineUp>>;
  // `storedBefore`: a long history was already stored in batches (importHistory).
  // The new message is counted before the transaction (off the event loop when large).
  const save = async (tx: Tx, { plan, imported }: Lined, content: ContentBlock[], contentTokens: number, storedBefore: boolean) => {
    if (plan.how === "retried" || plan.how === "regenerated") {
      const mode = plan.how === "retried" ? "retry" : "regenerate";
      return { mode, userMessage: await lastUserMessage(tx, userId, sessionId, mode) } as const;
    }
    // An edit's first new message names the first turn it replaces.
    const replaces = plan.how === "edited" ? plan.replacesTurn : undefined;
    if (!storedBefore) await storeHistory(tx, { userId, sessionId }, imported, model.id, replaces);
    const userMessage = await appendMessage(tx, userId, sessionId, {
      role: "user",
      content,
      text: blocksToText(content),
      tokenCount: contentTokens,
      status: "complete",
      startsTurn: startsTurn("user", content),
      supersedesTurn: imported.length === 0 ? replaces : undefined,
    });
    return { mode: continuing ? "continue" : "new", userMessage } as const;
  };
  /** Work done under the lease after its transaction: a failure gives the lease back. */
  const underLease = async <T>(leaseId: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      await release(userId, sessionId, leaseId);
      throw err;
    }
  };
  /** A history too long for the lease's transaction, stored in batches of its own. */
  const importLong = ({ plan, imported }: Lined, leaseId: string) =>
    importHistory({ userId, sessionId, leaseId }, imported, model.id, plan.how === "edited" ? plan.replacesTurn : undefined);
  let leaseId: string;
  let saved: Awaited<ReturnType<typeof save>>;
  let lined: Lined;
  let planned: PlannedWindow | null = null;
  if (continuing) {
    // Threadkeeper's own calls in the paused reply are answered outside the transaction (recall reads on its own).
    const taken = await leaseForTurn(userId, sessionId, lineUp);
    ({ leaseId, value: lined } = taken);
    const long = !fitsOneBatch(lined.imported);
    saved = await underLease(leaseId, async () => {
      if (long) await importLong(lined, leaseId);
      const content = await withOwnResults(last.content, previousReply(lined.imported, lined.stored), hidden, { userId, sessionId });
      const contentTokens = await countMessageOffThread("user", content);
      return withUser(userId, (tx) => save(tx, lined, content, contentTokens, long));
    });
  } else {
    // The lease, lining up, saving and (an ordinary turn) its first window in one transaction,
    // unless the history to store needs transactions of its own.
    const lastTokens = await countMessageOffThread("user", last.content);
    const saveAndPlan = async (tx: Tx, l: Lined, storedBefore: boolean) => {
      const stored = await save(tx, l, last.content, lastTokens, storedBefore);
      return { saved: stored, window: await planWithMessage(tx, { userId, sessionId, userMessage: stored.userMessage, caller }, stored.mode) };
    };
    const taken = await leaseForTurn(userId, sessionId, async (tx) => {
      const l = await lineUp(tx);
      return { lined: l, done: fitsOneBatch(l.imported) ? await saveAndPlan(tx, l, false) : null };
    });
    leaseId = taken.leaseId;
    lined = taken.value.lined;
    const done =
      taken.value.done ??
      (await underLease(leaseId, async () => {
        await importLong(lined, leaseId);
        return withUser(userId, (tx) => saveAndPlan(tx, lined, true));
      }));
    ({ saved, window: planned } = done);
  }
  const { how } = lined.plan;
  const { view } = lined;
  const history: HistoryHandling = continuing && (how === "appended" || how === "matched") ? "continued" : how;
  const handle = { userId, sessionId, leaseId, stop: new AbortController(), caller, userMessage: saved.userMessage };
  const recordView = view
    ? (answered: readonly KeyBlock[], lastSeq: number) =>
        withUser(userId, (tx) =>
          recordClientView(tx, sessionId, {
            seq: lastSeq,
            ...extendDigest(view.base, [...view.added, canonicalKey("assistant", answered)]),
            toolIds: answered.flatMap((b) => (b.type === "tool_use" && typeof b.id === "string" ? [b.id] : [])),
          }),
        )
    : null;
  return { sessionId, foundBy, history, prepared: turnFor(handle, saved.mode, planned), recordView };
}

/** The reply a tool_result answers: the last one the client sent, else the session's last. */
function previousReply(imported: readonly { role: string; content: ContentBlock[] }[], stored: readonly EngineMessage[]): ContentBlock[] {
  const source = imported.length > 0 ? imported : stored.filter((m) => m.status === "complete");
  const last = source[source.length - 1];
  return last && last.role === "assistant" ? last.content : [];
}

/**
 * The caller's tool results, checked against the calls they answer, with Threadkeeper's own
 * calls of the same reply (which the caller never saw) answered here, in the reply's order.
 */
async function withOwnResults(
  results: readonly ContentBlock[],
  reply: readonly ContentBlock[],
  hidden: ReadonlySet<string>,
  where: { userId: string; sessionId: string },
): Promise<ContentBlock[]> {
  const calls = reply.filter((b): b is ToolUseBlock => b.type === "tool_use");
  const given = new Map(results.filter((b): b is ToolResultBlock => b.type === "tool_result").map((b) => [b.tool_use_id, b]));
  for (const id of given.keys()) {
    if (!calls.some((c) => c.id === id)) {
      throw badRequest(`messages: tool_result block(s) must answer the tool_use blocks of the previous assistant message; unknown tool_use_id '${id}'`);
    }
  }
  const own = calls.filter((c) => hidden.has(c.name) && !given.has(c.id));
  const session = await withUser(where.userId, (tx) => getSession(tx, where.userId, where.sessionId));
  const ownResults = await runToolUses(own, [RECALL_TOOL], { ...where, windowStartTurn: session.window_start_turn });
  for (const r of ownResults) given.set(r.tool_use_id, r);
  const ordered = calls.flatMap((c) => (given.has(c.id) ? [given.get(c.id) as ToolResultBlock] : []));
  return [...ordered, ...results.filter((b) => b.type !== "tool_result")];
}
