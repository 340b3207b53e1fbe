// The session list as people scan it: pinned first, then by when they were last used (Today,
// Yesterday, Previous 7 days, …), archived ones apart; a fork sits under the session it came
// from, and the tree is listed by its most recent use. Pure.
import type { SessionJson } from "@/lib/contract";

export interface SessionNode {
  session: SessionJson;
  forks: SessionNode[];
}

export interface SessionGroup {
  key: string;
  label: string;
  nodes: SessionNode[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function lastUsed(s: SessionJson): string {
  return s.last_message_at ?? s.updated_at ?? s.created_at;
}

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** Which date group a time falls in, seen from `now` (local days). */
export function dateGroup(iso: string, now: Date): { key: string; label: string } {
  const today = startOfDay(now);
  const t = new Date(iso).getTime();
  if (t >= today) return { key: "today", label: "Today" };
  if (t >= today - DAY_MS) return { key: "yesterday", label: "Yesterday" };
  if (t >= today - 7 * DAY_MS) return { key: "week", label: "Previous 7 days" };
  if (t >= today - 30 * DAY_MS) return { key: "month", label: "Previous 30 days" };
  return { key: "older", label: "Older" };
}

/**
 * Groups in display order. A fork whose source is in the list is nested under it (however deep)
 * and shown with it; a fork whose source is gone stands on its own.
 */
export function groupSessions(sessions: readonly SessionJson[], now: Date): SessionGroup[] {
  const byId = new Map(sessions.map((s) => [s.id, { session: s, forks: [] as SessionNode[] }]));
  const roots: SessionNode[] = [];
  for (const node of byId.values()) {
    const parent = node.session.parent_session_id ? byId.get(node.session.parent_session_id) : undefined;
    if (parent && parent !== node) parent.forks.push(node);
    else roots.push(node);
  }
  // A tree is as recent as its most recently used session: work on a fork today lists it today.
  const latest = new Map<SessionNode, string>();
  const latestOf = (n: SessionNode): string => {
    if (!latest.has(n)) latest.set(n, n.forks.reduce((m, f) => (latestOf(f) > m ? latestOf(f) : m), lastUsed(n.session)));
    return latest.get(n)!;
  };
  const newest = (a: SessionNode, b: SessionNode) => latestOf(b).localeCompare(latestOf(a));
  for (const node of byId.values()) node.forks.sort(newest);
  roots.sort(newest);

  const groups = new Map<string, SessionGroup>();
  const add = (key: string, label: string, node: SessionNode) => {
    if (!groups.has(key)) groups.set(key, { key, label, nodes: [] });
    groups.get(key)!.nodes.push(node);
  };
  for (const node of roots) {
    if (node.session.archived) add("archived", "Archived", node);
    else if (node.session.pinned) add("pinned", "Pinned", node);
    else {
      const g = dateGroup(latestOf(node), now);
      add(g.key, g.label, node);
    }
  }
  const order = ["pinned", "today", "yesterday", "week", "month", "older", "archived"];
  return order.flatMap((k) => (groups.has(k) ? [groups.get(k)!] : []));
}
