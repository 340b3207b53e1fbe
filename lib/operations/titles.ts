import "server-only";
import { heuristicTitle } from "@/lib/context/titles";
import { redactSecrets } from "@/lib/redact";
import { withUser } from "@/lib/db";
import { setTitle } from "@/lib/db/sessions";
import { anthropicClient } from "@/lib/llm/client";
import { countBilledTokens, timeClaudeCall } from "@/lib/metrics";
import { recordLlmCall } from "@/lib/db/llm-calls";
import { DEFAULT_SUMMARY_MODEL, type TokenUsage } from "@/lib/models";
import { log } from "@/lib/log";

const TITLE_TIMEOUT_MS = 5_000;

/**
 * Names a session after its first turn: Claude Haiku writes a short title; offline, or if
 * that fails, the first sentence stands in. A title the user set is never overwritten.
 * A title is shown everywhere (picker, forks, recent checkpoints), so it never holds a
 * secret from the turn: the turn is redacted before Haiku or the heuristic reads it (and
 * before it is cut, since a cut key no longer matches), and Haiku's answer after.
 */
export async function titleSession(userId: string, sessionId: string, userText: string, replyText: string): Promise<void> {
  const firstUserText = redactSecrets(userText);
  const firstReply = redactSecrets(replyText);
  let title = heuristicTitle(firstUserText);
  let source: "heuristic" | "llm" = "heuristic";
  let usage: TokenUsage | null = null;
  const client = anthropicClient();
  if (client) {
    try {
      const res = await timeClaudeCall("title", () => client.messages.create(
        {
          model: DEFAULT_SUMMARY_MODEL,
          max_tokens: 30,
          system: "You name conversations. Answer with a title of 3 to 7 words, no quotes, no trailing punctuation.",
          messages: [
            {
              role: "user",
              content: `Title this conversation.\n\nUser: ${firstUserText.slice(0, 2000)}\n\nAssistant: ${firstReply.slice(0, 1000)}`,
            },
          ],
        },
        { signal: AbortSignal.timeout(TITLE_TIMEOUT_MS), maxRetries: 0 },
      ));
      countBilledTokens(res.usage);
      usage = res.usage;
      const text = redactSecrets(res.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(" "));
      const clean = text.replace(/["“”]/g, "").replace(/\s+/g, " ").trim().replace(/[.!?]+$/, "").slice(0, 80);
      if (clean) {
        title = clean;
        source = "llm";
      }
    } catch (err) {
      log.warn("[threadkeeper] title generation failed; using the first sentence", err);
    }
  }
  await withUser(userId, async (tx) => {
    if (usage) await recordLlmCall(tx, userId, { sessionId, turnSeq: 1, kind: "title", model: DEFAULT_SUMMARY_MODEL, usage });
    await setTitle(tx, sessionId, title, source);
  });
}
