// The start of every request's system prompt: the session's own prompt, then the custom
// instructions it carries. Both are stable for the session's life, so they sit before the
// cache's first breakpoint (lib/turn/request.ts), are counted as the system category of the bar
// (sessions.system_tokens) and are never condensed: compaction writes only the summary after them.
import { neutralizeTag } from "./quote";

const TAG = "user_instructions";

/** The session's system text as sent: its prompt, then its custom instructions (if any). */
export function sessionSystemText(prompt: string, instructions: string): string {
  const own = instructions.trim();
  if (own === "") return prompt;
  return `${prompt}${prompt === "" ? "" : "\n\n"}<${TAG}>\nThe user's custom instructions: what they want you to know about them and how they want you to answer. Follow them unless they conflict with a request in the conversation.\n\n${neutralizeTag(own, TAG)}\n</${TAG}>`;
}
