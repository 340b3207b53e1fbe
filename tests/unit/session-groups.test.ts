import { describe, expect, it } from "vitest";
import type { SessionJson } from "@/lib/contract";
import { dateGroup, groupSessions } from "@/lib/client/session-groups";

const NOW = new Date(2026, 10, 26, 15, 0); // local time, as the list shows it
const at = (daysAgo: number, hour = 12) => new Date(2026, 10, 26 - daysAgo, hour).toISOString();

function session(id: string, last: string, extra: Partial<SessionJson> = {}): SessionJson {
  return {
    id,
    title: id,
    model: "claude-sonnet-4-5",
    settings: {},
    created_at: last,
    updated_at: last,
    last_message_at: last,
    message_count: 2,
    project_id: null,
    parent_session_id: null,
    forked_from_checkpoint_id: null,
    title_source: "user",
    pinned: false,
    archived: false,
    ...extra,
  };
}

describe("session groups", () => {
  it("names the day a session was last used, in local days", () => {
    expect(dateGroup(at(0, 0), NOW).label).toBe("Today");
    expect(dateGroup(at(1, 23), NOW).label).toBe("Yesterday");
    expect(dateGroup(at(1, 0), NOW).label).toBe("Yesterday");
    expect(dateGroup(at(2), NOW).label).toBe("Previous 7 days");
    expect(dateGroup(at(7), NOW).label).toBe("Previous 7 days");
    expect(dateGroup(at(8), NOW).label).toBe("Previous 30 days");
    expect(dateGroup(at(31), NOW).label).toBe("Older");
  });

  it("puts pinned first and archived last, newest first within a group, whatever order they came in", () => {
    const groups = groupSessions(
      [
        session("old", at(40)),
        session("archived", at(0), { archived: true }),
        session("today-early", at(0, 8)),
        session("pinned-old", at(90), { pinned: true }),
        session("today-late", at(0, 14)),
        session("yesterday", at(1)),
      ],
      NOW,
    );
    expect(groups.map((g) => [g.label, g.nodes.map((n) => n.session.id)])).toEqual([
      ["Pinned", ["pinned-old"]],
      ["Today", ["today-late", "today-early"]],
      ["Yesterday", ["yesterday"]],
      ["Older", ["old"]],
      ["Archived", ["archived"]],
    ]);
  });

  it("nests a fork under its source however deep, and lets an orphaned fork stand alone", () => {
    const groups = groupSessions(
      [
        session("source", at(3)),
        session("fork", at(0), { parent_session_id: "source" }),
        session("fork-of-fork", at(0, 9), { parent_session_id: "fork" }),
        session("orphan", at(0, 10), { parent_session_id: "deleted" }),
      ],
      NOW,
    );
    // A source is listed by the most recent use in its tree: its fork was used today.
    expect(groups.map((g) => g.label)).toEqual(["Today"]);
    expect(groups[0].nodes.map((n) => n.session.id)).toEqual(["source", "orphan"]);
    const source = groups[0].nodes[0];
    expect(source.session.id).toBe("source");
    expect(source.forks.map((n) => n.session.id)).toEqual(["fork"]);
    expect(source.forks[0].forks.map((n) => n.session.id)).toEqual(["fork-of-fork"]);
  });
});
