// A Chat Completions request answered as a real Threadkeeper turn: translated into the drop-in's
// Messages API request (./request.ts), run by the drop-in (its session, its history lined up with
// the session's, the caller's functions beside Threadkeeper's tools), and answered as one
// `chat.completion` or, with `stream: true`, its chunks (./stream.ts).
import "server-only";
import type { OpenAIChatRequest } from "@/lib/contract/openai";
import { startDropIn, type DropInHeaders } from "@/lib/turn/drop-in";
import { contextHeaders, recordView, sessionHeaders } from "../turn-answer";
import { Completion } from "./completion";
import { openaiError } from "./errors";
import { toAnthropic } from "./request";
import { streamCompletion } from "./stream";

export async function createCompletion(userId: string, headers: DropInHeaders, body: OpenAIChatRequest): Promise<Response> {
  const request = toAnthropic(body);
  const completion = new Completion(body.model, new Set((request.tools ?? []).map((t) => t.name)));
  if (request.stream) return streamCompletion(userId, headers, request, completion, body.stream_options?.include_usage === true);
  const turn = await startDropIn(userId, headers, request, (reply) => completion.add(reply));
  if (turn.prepared.kind === "turn") await turn.prepared.run((e) => completion.note(e), { detachFollowUp: true });
  await recordView(turn, completion, completion.view());
  const responseHeaders = { ...sessionHeaders(turn), ...contextHeaders(completion.status) };
  if (completion.error) {
    const { status, body: err } = openaiError(completion.error);
    return Response.json(err, { status, headers: { ...responseHeaders, ...completion.error.headers } });
  }
  return Response.json(completion.json(), { status: 200, headers: responseHeaders });
}
