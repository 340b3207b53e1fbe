// Estimating a request from what is stored: each message's count was taken when it was
// written, so a request over a long history costs one addition per message, never a
// re-encode (the performance target is < 50 ms for 10,000 messages).
import { estimateSystemTokens, estimateToolsTokens, type ToolDef } from "@/lib/tokens/tokenizer";

export interface RequestEstimate {
  system: number;
  tools: number;
  messages: number;
  total: number;
}

export function estimateRequestTokens(req: {
  system?: string;
  tools?: readonly ToolDef[];
  messages: readonly { tokenCount: number }[];
}): RequestEstimate {
  const system = estimateSystemTokens(req.system ?? "");
  const tools = estimateToolsTokens(req.tools ?? []);
  let messages = 0;
  for (const m of req.messages) messages += m.tokenCount;
  return { system, tools, messages, total: system + tools + messages };
}
