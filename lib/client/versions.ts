// The versions of a turn, shown one at a time behind a ‹ 1/2 › switcher instead of stacked:
// an edited message's turns (each edit names the turn it replaces) and a turn's regenerated
// replies (each regeneration restarts the turn's replies). Pure.
import type { MessageJson } from "@/lib/contract";

export interface VersionSwitcher {
  slot: string;
  /** 0-based, of `count`. */
  index: number;
  count: number;
}

export interface VersionView {
  /** Messages of the versions not shown. */
  hidden: Set<string>;
  /** The message that carries a slot's switcher: the first of the version shown. */
  switchers: Map<string, VersionSwitcher>;
}

/** A slot's versions, oldest first; each version is the ids shown together. */
function slotsOf(messages: readonly MessageJson[]): Map<string, string[][]> {
  const byTurn = new Map<number, MessageJson[]>();
  for (const m of messages) {
    if (!byTurn.has(m.turn_seq)) byTurn.set(m.turn_seq, []);
    byTurn.get(m.turn_seq)!.push(m);
  }
  const slots = new Map<string, string[][]>();

  // Edits: follow each turn to the turn that replaced it.
  const replacedBy = new Map<number, number>();
  for (const m of messages) if (m.supersedes_turn !== null && m.role === "user") replacedBy.set(m.supersedes_turn, m.turn_seq);
  const replacing = new Set(replacedBy.values());
  for (const root of byTurn.keys()) {
    if (replacing.has(root) || !replacedBy.has(root)) continue;
    const chain = [root];
    for (let t = replacedBy.get(root); t !== undefined && byTurn.has(t) && !chain.includes(t); t = replacedBy.get(t)) chain.push(t);
    // A version is the turns from its own up to the one that replaced it (an edit may replace several).
    slots.set(
      `edit:${root}`,
      chain.map((t, i) => [...byTurn].filter(([turn]) => turn >= t && turn < (chain[i + 1] ?? t + 1)).flatMap(([, ms]) => ms.map((m) => m.id))),
    );
  }

  // Regenerations: a turn's replies split where a reply restarts the turn.
  for (const [turn, ms] of byTurn) {
    if (!ms.some((m) => m.restarts_turn)) continue;
    const attempts: string[][] = [];
    for (const m of ms) {
      if (m === ms[0] && m.role === "user") continue;
      if (m.restarts_turn || attempts.length === 0) attempts.push([]);
      attempts[attempts.length - 1].push(m.id);
    }
    if (attempts.length > 1) slots.set(`regen:${turn}`, attempts);
  }
  return slots;
}

/** A version picked among `count`: once a newer version arrives the pick lapses. */
export type VersionPicks = Readonly<Record<string, { index: number; count: number }>>;

/** What to show given the picked version of each slot (the latest when none was picked). */
export function versionView(messages: readonly MessageJson[], picks: VersionPicks): VersionView {
  const hidden = new Set<string>();
  const switchers = new Map<string, VersionSwitcher>();
  for (const [slot, versions] of slotsOf(messages)) {
    const pick = picks[slot];
    const index = pick && pick.count === versions.length ? Math.min(pick.index, versions.length - 1) : versions.length - 1;
    versions.forEach((ids, i) => {
      if (i !== index) for (const id of ids) hidden.add(id);
    });
    switchers.set(versions[index][0], { slot, index, count: versions.length });
  }
  return { hidden, switchers };
}

/** Which messages offer Edit and which Regenerate. */
export interface OfferedVersions {
  edit: ReadonlySet<string>;
  regenerate: ReadonlySet<string>;
}

/**
 * Every turn of the current version offers Edit on your typed message and Regenerate on its last
 * reply: a new version from there (the server's branchPoint). Not earlier versions, tool results,
 * or turns the active summary retells (`condensedThrough`: its last turn, 0 when none).
 */
export function offeredVersions(messages: readonly MessageJson[], replaced: ReadonlySet<string>, condensedThrough: number): OfferedVersions {
  const edit = new Set<string>();
  const lastReply = new Map<number, string>();
  const firstOfTurn = new Set<number>();
  for (const m of messages) {
    const first = !firstOfTurn.has(m.turn_seq);
    firstOfTurn.add(m.turn_seq);
    if (replaced.has(m.id) || m.turn_seq <= condensedThrough) continue;
    if (first && m.role === "user" && !m.content.some((b) => b.type === "tool_result")) edit.add(m.id);
    if (m.role === "assistant" && m.status !== "streaming") lastReply.set(m.turn_seq, m.id);
  }
  return { edit, regenerate: new Set(lastReply.values()) };
}
