// Which format a parsed value is, told by its content (never by a file's name), and the
// conversation it holds.
import { chatGptConversation, isChatGptConversation } from "./chatgpt";
import { claudeConversation, isClaudeConversation } from "./claude";
import { claudeCodeSession, isClaudeCodeLine } from "./claude-code";
import { isThreadkeeperExport, threadkeeperSession } from "./threadkeeper";
import { ConversationError, MAX_SOURCE_ID_CHARS, type ImportedConversation } from "./types";

/** A value of no format Threadkeeper knows. */
export class UnknownFormat extends Error {}

/** One conversation: an element of ChatGPT's or Claude.ai's array, or a Threadkeeper session export. */
export function readConversation(value: unknown): ImportedConversation {
  if (isChatGptConversation(value)) return checked(chatGptConversation(value));
  if (isClaudeConversation(value)) return checked(claudeConversation(value));
  if (isThreadkeeperExport(value)) return checked(threadkeeperSession(value));
  throw new UnknownFormat("An element is neither a ChatGPT nor a Claude.ai conversation.");
}

/** A conversation whose id is too long to keep (re-importing finds it by its id) is reported. */
function checked(conv: ImportedConversation): ImportedConversation {
  if (conv.sourceId.length <= MAX_SOURCE_ID_CHARS) return conv;
  throw new ConversationError(`${conv.sourceId.slice(0, 40)}…`, `its id is longer than ${MAX_SOURCE_ID_CHARS} characters, which no export's is`);
}

/**
 * A file of JSON values that is not an array: a Claude Code transcript (one value per line, one
 * session), a Threadkeeper session export, or a single conversation; null when it is none.
 */
export function readSessionFile(values: readonly unknown[], name: string): { conversation: ImportedConversation } | null {
  if (values.length === 1 && !isClaudeCodeLine(values[0])) {
    try {
      return { conversation: readConversation(values[0]) };
    } catch (err) {
      if (err instanceof UnknownFormat) return null;
      throw err;
    }
  }
  if (values.some(isClaudeCodeLine)) return { conversation: checked(claudeCodeSession(values, name)) };
  return null;
}
