"use client";
// The activity page: your audit log, newest first, filtered by kind of operation, paged on
// with "Load more". Each event says what happened, who did it (you, an API key, the system),
// to what, and from where.
import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { ArrowLeft, History, KeyRound, Loader2, User, Cpu } from "lucide-react";
import { auditPage, type AuditEventJson } from "@/lib/client/api/audit";
import { describeError } from "@/lib/client/api/http";
import { relativeTime } from "@/lib/client/format";

const KINDS = [
  ["", "Everything"],
  ["compaction.*", "Compactions"],
  ["checkpoint.*", "Checkpoints"],
  ["session.*", "Sessions"],
  ["memory.*", "Memories"],
  ["message.*", "Protection"],
  ["settings.*", "Settings"],
  ["template.*", "Templates"],
  ["key.*", "API keys"],
  ["webhook.*", "Webhooks"],
  ["auth.*", "Sign-ins"],
] as const;

/** "compaction.applied" → "Compaction applied". */
function actionLabel(action: string): string {
  const words = action.replace(/[._]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The few metadata facts worth a glance; the rest is in the title attribute. */
function facts(e: AuditEventJson): string {
  const m = e.metadata;
  const parts: string[] = [];
  if (typeof m.trigger === "string") parts.push(m.trigger);
  if (typeof m.pre_tokens === "number" && typeof m.post_tokens === "number") {
    parts.push(`${m.pre_tokens.toLocaleString("en-US")} → ${m.post_tokens.toLocaleString("en-US")} tokens`);
  }
  if (typeof m.label === "string" && m.label) parts.push(`“${m.label}”`);
  if (typeof m.source === "string") parts.push(m.source);
  if (typeof m.via === "string") parts.push(`via ${m.via}`);
  return parts.join(" · ");
}

/** What the event was about beyond its session: the kind of target and its facts. */
function detail(e: AuditEventJson): string {
  return [e.target.type !== "session" && e.target.type, facts(e)].filter(Boolean).join(" · ");
}

function ActorIcon({ type }: { type: AuditEventJson["actor"]["type"] }) {
  const Icon = type === "key" ? KeyRound : type === "system" ? Cpu : User;
  return <Icon aria-hidden className="h-3.5 w-3.5 shrink-0" />;
}

export function ActivityLog() {
  const [kind, setKind] = useState("");
  const [events, setEvents] = useState<AuditEventJson[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (action: string, after: string | null, signal?: AbortSignal) => {
    setLoading(true);
    setError(null);
    try {
      const page = await auditPage({ action: action || undefined, cursor: after }, signal);
      setEvents((prev) => (after ? [...prev, ...page.events] : page.events));
      setCursor(page.next_cursor);
    } catch (err) {
      if (!signal?.aborted) setError(describeError(err).message);
    } finally {
      if (!signal?.aborted) setLoading(false);
    }
  }, []);

  useEffect(() => {
    const ctl = new AbortController();
    setEvents([]);
    void load(kind, null, ctl.signal);
    return () => ctl.abort();
  }, [kind, load]);

  return (
    <main className="mx-auto min-h-dvh max-w-4xl px-4 py-6 text-zinc-900 dark:text-zinc-100">
      <div className="mb-5 flex flex-wrap items-center gap-3">
        <Link href="/" className="inline-flex items-center gap-1 text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100">
          <ArrowLeft aria-hidden className="h-4 w-4" />
          Workspace
        </Link>
        <h1 className="flex items-center gap-2 text-lg font-semibold">
          <History aria-hidden className="h-5 w-5" />
          Activity
        </h1>
        <label className="ml-auto flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          Show
          <select
            data-testid="activity-filter"
            value={kind}
            onChange={(e) => setKind(e.target.value)}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">
        Every context operation on your account, recorded in the same transaction as the operation itself. Nothing here can be
        changed or deleted.
      </p>
      {error && (
        <p role="alert" className="mb-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-300">
          Could not load the activity: {error}
        </p>
      )}
      {!loading && !error && events.length === 0 && (
        <p data-testid="activity-empty" className="rounded-lg border border-dashed border-zinc-300 px-4 py-8 text-center text-sm text-zinc-500 dark:border-zinc-700 dark:text-zinc-400">
          Nothing yet. Sessions, compactions, checkpoints, memories and settings changes will appear here as they happen.
        </p>
      )}
      <ol className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900" data-testid="activity-list">
        {events.map((e) => (
          <li key={e.id} data-testid="activity-event" data-action={e.action} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:gap-4">
            <time dateTime={e.occurred_at} title={new Date(e.occurred_at).toLocaleString()} className="w-28 shrink-0 text-xs tabular-nums text-zinc-500 dark:text-zinc-400">
              {relativeTime(e.occurred_at)}
            </time>
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium">{actionLabel(e.action)}</p>
              <p className="truncate text-xs text-zinc-500 dark:text-zinc-400" title={[e.target.type && `${e.target.type} ${e.target.id ?? ""}`, JSON.stringify(e.metadata)].filter(Boolean).join("\n")}>
                {e.session && (
                  <Link
                    href={`/?session=${encodeURIComponent(e.session.id)}`}
                    data-testid="activity-session"
                    className="font-medium text-sky-700 hover:underline dark:text-sky-400"
                  >
                    {e.session.title || "Untitled session"}
                  </Link>
                )}
                {e.session && detail(e) && " · "}
                {detail(e)}
              </p>
            </div>
            <p
              className="flex shrink-0 items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400"
              title={[e.ip && `IP ${e.ip}`, e.user_agent, e.request_id && `request ${e.request_id}`].filter(Boolean).join("\n")}
            >
              <ActorIcon type={e.actor.type} />
              {e.actor.type === "key" ? `Key “${e.actor.name}”` : e.actor.type === "system" ? "System" : (e.actor.name ?? "You")}
            </p>
          </li>
        ))}
      </ol>
      <div className="mt-4 flex justify-center">
        {loading ? (
          <Loader2 aria-label="Loading" className="h-5 w-5 animate-spin text-zinc-400" />
        ) : (
          cursor && (
            <button
              type="button"
              data-testid="activity-more"
              onClick={() => void load(kind, cursor)}
              className="rounded-full border border-zinc-300 px-4 py-1.5 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
            >
              Load more
            </button>
          )
        )}
      </div>
    </main>
  );
}
