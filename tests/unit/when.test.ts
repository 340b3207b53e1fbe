// When a message was said (a pasted log line's own time) and which time a question asks about.
import { describe, expect, it } from "vitest";
import { dateRangeIn, leadingTimestamp } from "@/lib/context/when";

const iso = (d: Date | null | undefined) => d?.toISOString();
const NOW = new Date("2026-11-26T12:00:00Z");

describe("leadingTimestamp", () => {
  it("reads the time a chat-log line opens with", () => {
    expect(iso(leadingTimestamp("[1:56 pm on 8 May, 2023] Joanna: hi"))).toBe("2023-05-08T13:56:00.000Z");
    expect(iso(leadingTimestamp("[2023-05-08 13:56] Ann: the deploy failed"))).toBe("2023-05-08T13:56:00.000Z");
    expect(iso(leadingTimestamp("[5/8/23, 1:56 PM] Ann: see you"))).toBe("2023-05-08T13:56:00.000Z");
    expect(iso(leadingTimestamp("2023-05-08 13:56 - Ann: see you"))).toBe("2023-05-08T13:56:00.000Z");
  });

  it("ignores a date that is not the line's opening, or is not a whole date", () => {
    expect(leadingTimestamp("I fly to Porto on 8 May 2023")).toBeNull();
    expect(leadingTimestamp("[WARN] disk almost full")).toBeNull();
    expect(leadingTimestamp("[May 2023] roadmap")).toBeNull();
    expect(leadingTimestamp("3 things to check: the index, the cache, the logs")).toBeNull();
    expect(leadingTimestamp("")).toBeNull();
  });
});

describe("dateRangeIn", () => {
  it("turns a named month, day or year into whole days", () => {
    expect(dateRangeIn("Which country was Evan visiting in May 2023?", NOW)).toMatchObject({
      from: new Date("2023-05-01T00:00:00Z"),
      to: new Date("2023-05-31T23:59:59.999Z"),
    });
    expect(dateRangeIn("What happened on 24 May 2023?", NOW)).toMatchObject({ from: new Date("2023-05-24T00:00:00Z"), to: new Date("2023-05-24T23:59:59.999Z") });
    expect(dateRangeIn("What did Sam do in 2022?", NOW)).toMatchObject({ from: new Date("2022-01-01T00:00:00Z"), to: new Date("2022-12-31T23:59:59.999Z") });
  });

  it("resolves relative times against now, and a month without a year to the latest one past", () => {
    expect(dateRangeIn("what did I say yesterday about the migration", NOW)).toMatchObject({ from: new Date("2026-11-25T00:00:00Z") });
    const week = dateRangeIn("the error from last week", NOW)!;
    expect(week.from.getTime()).toBeLessThan(new Date("2026-11-19T12:00:00Z").getTime());
    expect(week.to.getTime()).toBeGreaterThan(new Date("2026-11-19T12:00:00Z").getTime());
    expect(week.to.getTime()).toBeLessThan(NOW.getTime());
    expect(dateRangeIn("what did he say in December?", NOW)).toMatchObject({ from: new Date("2025-12-01T00:00:00Z") });
  });

  it("finds none in a question that names no time", () => {
    expect(dateRangeIn("When did my sister say she lands in Lisbon?", NOW)).toBeNull();
    expect(dateRangeIn("what is the index on messages", NOW)).toBeNull();
  });
});
