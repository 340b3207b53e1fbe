// When to checkpoint automatically, decided from the turn that just completed. Pure: the
// caller supplies the texts and counters; at most one checkpoint per turn, with every
// reason that applied merged into its tags.
import { extractMustKeep } from "./compaction/must-keep";
import { splitCode } from "./compaction/prose";

export type CheckpointTag = "code" | "file" | "decision" | "error_fix" | "task_complete" | "periodic" | "pre_compaction";

export interface CheckpointPolicy {
  /** A periodic checkpoint after this many messages since the last one. */
  everyMessages: number;
  /** ...or after this much time of activity since the last one. */
  everyMs: number;
}

export const DEFAULT_CHECKPOINT_POLICY: CheckpointPolicy = { everyMessages: 10, everyMs: 5 * 60 * 1000 };

export interface TurnFacts {
  userText: string;
  replyText: string;
  /** The previous turn ended with an error (in its reply or a failed call). */
  previousTurnHadError: boolean;
  messagesSinceLast: number;
  /** Null when the session has no checkpoint yet. */
  msSinceLast: number | null;
}

const ERROR_RE = /\b(error|exception|traceback|failed|failing|crash(ed)?|panic|segfault|ERR_[A-Z_]+|E\d{3,5})\b/i;
const SUCCESS_RE = /\b(fixed|resolved|works now|working now|now works|passes|passing|all (the )?tests pass|succeeded|green again)\b/i;
const DONE_RE = /(\b(done|completed|finished|implemented|shipped|merged)\b[.!]?|- \[x\]|✅)/i;

/**
 * The cues of a turn are read in the first this-many characters of each side: they run after
 * every turn, on the event loop, and a 1 MB paste took seconds to read whole.
 */
const CUE_CHARS = 32_000;
const head = (text: string) => (text.length > CUE_CHARS ? text.slice(0, CUE_CHARS) : text);

export function mentionsError(whole: string): boolean {
  const text = head(whole);
  // No backtick in the info string: with one, every ``` of a long line read to its end.
  return ERROR_RE.test(splitCode(text).prose) || /```[^\n`]*\n[^`]*(Error|Traceback)/.test(text);
}

export function checkpointTags(whole: TurnFacts, policy: CheckpointPolicy = DEFAULT_CHECKPOINT_POLICY): CheckpointTag[] {
  const facts = { ...whole, userText: head(whole.userText), replyText: head(whole.replyText) };
  const tags = new Set<CheckpointTag>();
  const kinds = new Set(
    extractMustKeep([
      {
        turnSeq: 1,
        messages: [
          { role: "user", text: facts.userText },
          { role: "assistant", text: facts.replyText },
        ],
      },
    ]).map((i) => i.kind),
  );
  if (splitCode(facts.replyText).blocks.length > 0) tags.add("code");
  if (kinds.has("file_path")) tags.add("file");
  if (kinds.has("decision")) tags.add("decision");
  if (facts.previousTurnHadError && SUCCESS_RE.test(facts.replyText) && !mentionsError(firstLine(facts.replyText))) {
    tags.add("error_fix");
  }
  if (DONE_RE.test(facts.replyText) && /\b(task|feature|step|todo|tests?|implementation|it)\b/i.test(facts.replyText)) {
    tags.add("task_complete");
  }
  if (
    facts.messagesSinceLast >= policy.everyMessages ||
    (facts.msSinceLast !== null && facts.msSinceLast >= policy.everyMs)
  ) {
    tags.add("periodic");
  }
  return [...tags];
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}
