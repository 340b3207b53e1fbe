// Seeds a long session fast: one set-based INSERT over generate_series, with texts drawn
// from a pool of distinct messages counted once each (seeding is not what we measure).
import { createSession } from "@/lib/operations/sessions";
import { LOCAL_USER_ID, type Database } from "@/lib/db";
import { estimateMessageTokens } from "@/lib/tokens/tokenizer";
import { assistantText, rng, userText } from "./corpus";

export interface TextPool {
  userTexts: string[];
  userTokens: number[];
  assistantTexts: string[];
  assistantTokens: number[];
}

export function buildPool(size = 400, seed = 42): TextPool {
  const r = rng(seed);
  const pool: TextPool = { userTexts: [], userTokens: [], assistantTexts: [], assistantTokens: [] };
  for (let i = 0; i < size; i++) {
    const u = userText(r);
    pool.userTexts.push(u);
    pool.userTokens.push(estimateMessageTokens("user", [{ type: "text", text: u }]));
    const a = assistantText(r);
    pool.assistantTexts.push(a);
    pool.assistantTokens.push(estimateMessageTokens("assistant", [{ type: "text", text: a }]));
  }
  return pool;
}

export interface SeededSession {
  sessionId: string;
  messages: number;
  turns: number;
  tokens: number;
}

/**
 * A session of `messages` alternating user/assistant messages (turn_seq = (seq+1)/2), with
 * the session counters set as the send path would have left them before any slide.
 */
export async function seedSession(
  db: Database,
  pool: TextPool,
  messages: number,
  title: string,
): Promise<SeededSession> {
  const session = await createSession(LOCAL_USER_ID, { title, model: "claude-sonnet-5-5" });
  const turns = Math.ceil(messages / 2);
  const tokens = await db.transaction(async (tx) => {
    // A multiplicative hash of seq spreads the pool over the history without visible repeats.
    await tx.query(
      `insert into messages (session_id, user_id, seq, turn_seq, role, content, text, token_count, status, created_at, updated_at)
       select $1, $2, g, (g + 1) / 2, p.role, jsonb_build_array(jsonb_build_object('type', 'text', 'text', p.text)),
              p.text, p.tokens, 'complete', c.at, c.at
       from generate_series(1, $3::int) g
       cross join lateral (select now() - make_interval(secs => ($3::int - g) * 20) as at) c
       cross join lateral (
         select case when g % 2 = 1 then 'user' else 'assistant' end as role,
                case when g % 2 = 1 then ($4::text[])[1 + (g::bigint * 2654435761 % $8::bigint)]
                                    else ($6::text[])[1 + (g::bigint * 2246822519 % $8::bigint)] end as text,
                case when g % 2 = 1 then ($5::int[])[1 + (g::bigint * 2654435761 % $8::bigint)]
                                    else ($7::int[])[1 + (g::bigint * 2246822519 % $8::bigint)] end as tokens
       ) p`,
      [
        session.id,
        LOCAL_USER_ID,
        messages,
        pool.userTexts,
        pool.userTokens,
        pool.assistantTexts,
        pool.assistantTokens,
        pool.userTexts.length,
      ],
    );
    const [sum] = await tx.query<{ tokens: number }>(
      `select coalesce(sum(token_count), 0)::int as tokens from messages where session_id = $1`,
      [session.id],
    );
    await tx.query(
      `update sessions set next_seq = $2 + 1, last_turn_seq = $3, message_count = $2, tail_tokens = $4,
         window_start_turn = 1, pinned_tokens = 0, last_message_at = now(), updated_at = now()
       where id = $1`,
      [session.id, messages, turns, sum.tokens],
    );
    return sum.tokens;
  });
  // Autovacuum does not run in PGlite: analyze so the planner sees the real row counts.
  await db.transaction((tx) => tx.exec("analyze messages; analyze sessions"));
  return { sessionId: session.id, messages, turns, tokens };
}
