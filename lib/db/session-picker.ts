import "server-only";
import type { SessionSummaryJson } from "@/lib/contract";
import { DEFAULT_SETTINGS } from "@/lib/contract/settings";
import { sessionTokens } from "@/lib/context/status";
import { toolsRawTokens } from "@/lib/context/tools";
import { getModel } from "@/lib/models";
import { initialFactor } from "@/lib/tokens/calibration";
import { qualify, type Tx } from "./driver";
import { KEYWORD_MATCH_CAP } from "./history-search";
import { getUserSettings } from "./settings";
import { SESSION_COLUMNS, sessionJson, type SessionRow } from "./sessions";

export interface RecentFilter {
  q?: string;
  projectId?: string;
  from?: Date;
  to?: Date;
  sessionId?: string;
  limit: number;
}

type PickerRow = SessionRow & { project_name: string | null; checkpoint_count: number; calibration_factor: number | null };

/**
 * The session picker: recent sessions with what the picker shows, filtered by project,
 * date and keywords (full-text over titles and what was said). The token figure is the
 * status's own (`sessionTokens`), from the session's counters and calibration, never its messages.
 */
export async function recentSessionSummaries(tx: Tx, userId: string, f: RecentFilter): Promise<SessionSummaryJson[]> {
  const user = await getUserSettings(tx, userId);
  const rows = await tx.query<PickerRow>(
    `select ${qualify(SESSION_COLUMNS, "s")},
       p.name as project_name,
       (select count(*)::int from session_checkpoints c where c.session_id = s.id) as checkpoint_count,
       mc.factor as calibration_factor
     from sessions s
     left join projects p on p.id = s.project_id
     left join model_calibrations mc on mc.user_id = s.user_id and mc.model = s.model
     where s.user_id = $1
       and ($2::uuid is null or s.project_id = $2)
       and ($3::timestamptz is null or s.updated_at >= $3)
       and ($4::timestamptz is null or s.updated_at <= $4)
       and ($5::text is null or s.search @@ plainto_tsquery('english', $5) or s.id in (
         -- The newest matches only (a plain query under RLS cannot use the GIN index, and every
         -- match of a common word would grow with the history); the picker shows recent sessions first anyway.
         with hits as (select h.session_id, h.seq from messages_matching(plainto_tsquery('english', $5), $8) h)
         select session_id from hits
         union
         select l.session_id from hits h join session_lineage l
           on l.source_session_id = h.session_id and h.seq between l.from_seq and l.to_seq))
       and ($7::uuid is null or s.id = $7)
     order by s.updated_at desc, s.id
     limit $6`,
    [userId, f.projectId ?? null, f.from ?? null, f.to ?? null, f.q ?? null, f.limit, f.sessionId ?? null, KEYWORD_MATCH_CAP],
  );
  return rows.map((r) => ({
    ...sessionJson(r),
    project_name: r.project_name,
    last_message_preview: r.last_message_preview,
    checkpoint_count: r.checkpoint_count,
    // The tools a session offers follow its settings over the user's, as its status does.
    current_tokens: sessionTokens(r, r.calibration_factor ?? defaultFactor(r.model), toolsRawTokens({ ...DEFAULT_SETTINGS, ...user, ...r.settings })),
  }));
}

/**
 * The most recent session whose last reply was cut off by a crash (left streaming, or marked
 * interrupted at start-up), unless the user dismissed that prompt since.
 */
export async function crashedSession(tx: Tx, userId: string): Promise<{ sessionId: string; messageId: string } | null> {
  const [row] = await tx.query<{ session_id: string; message_id: string }>(
    `select s.id as session_id, last.id as message_id
     from sessions s
     join lateral (select id, status, error, updated_at from messages m where m.session_id = s.id order by seq desc limit 1) last on true
     where s.user_id = $1
       -- A reply still streaming counts only once its lease expired: otherwise it is live.
       and ((last.status = 'streaming' and (s.turn_lock_until is null or s.turn_lock_until < now()))
         or (last.status = 'interrupted' and last.error ->> 'code' = 'server_restarted'))
       and (s.recovery_dismissed_at is null or s.recovery_dismissed_at < last.updated_at)
     order by last.updated_at desc limit 1`,
    [userId],
  );
  return row ? { sessionId: row.session_id, messageId: row.message_id } : null;
}

/** The factor a session's status uses before its model was ever measured for this user. */
function defaultFactor(modelId: string): number {
  return initialFactor(getModel(modelId)?.tokenizer ?? "claude-2026");
}
