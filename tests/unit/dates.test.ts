import { describe, expect, it } from "vitest";
import { askedRange, dateForms, dateMentions, formatDay, parseLeadingTimestamp, parseTimestamp, resolveRelativeDates, saidAt, transcriptPrefix } from "@/lib/context/dates";

// Friday 21 January 2022, 7:31 pm (local time, as chat timestamps are).
const FRI = new Date(2022, 0, 21, 19, 31);
const day = (d: Date | null) => (d ? formatDay(d) : null);

describe("leading timestamps of pasted or imported chat lines", () => {
  it("reads the usual export formats as the same moment", () => {
    for (const line of [
      "[2023-05-08 13:56] Ann: hi",
      "[08/05/2023, 13:56:01] Ann: hi",
      "[1:56 pm on 8 May, 2023] Ann: hi",
      "08/05/2023, 13:56 - Ann: hi",
      "5/8/23, 1:56 PM - Ann: hi",
    ]) {
      const p = transcriptPrefix(line);
      expect(day(p?.at ?? null), line).toBe("8 May 2023");
      expect(p?.at?.getHours(), line).toBe(13);
      expect(p?.speaker, line).toBe("Ann");
      expect(line.slice(p?.length), line).toBe("hi");
    }
  });

  it("reads slashed dates day first unless the numbers say otherwise", () => {
    expect(day(parseTimestamp("03/04/2023 10:00"))).toBe("3 April 2023");
    expect(day(parseTimestamp("04/13/2023 10:00"))).toBe("13 April 2023");
  });

  it("names a speaker without a timestamp, but not a label or a class name", () => {
    expect(transcriptPrefix("Nate Smith: yes")).toEqual({ at: null, speaker: "Nate Smith", length: 12 });
    for (const line of ["Error: boom", "TODO: fix it", "TypeError: x is undefined", "The fix: easy", "see: this", "[see notes] Bob: x"]) {
      expect(transcriptPrefix(line), line).toBeNull();
    }
  });

  it("says when a message was said: its own timestamp first, else when it was stored", () => {
    expect(day(parseLeadingTimestamp("[1:56 pm on 8 May, 2023] Joanna: Hey!"))).toBe("8 May 2023");
    expect(parseLeadingTimestamp("Hey! [1:56 pm on 8 May, 2023]")).toBeNull();
    expect(day(saidAt("[2023-05-08 13:56] Ann: hi", "2026-11-26T10:00:00Z"))).toBe("8 May 2023");
    expect(day(saidAt("plain text", new Date(2026, 10, 26, 10)))).toBe("26 November 2026");
    expect(saidAt("plain text", null)).toBeNull();
    expect(saidAt("plain text", "not a date")).toBeNull();
  });
});

describe("relative dates resolved against the day they were said", () => {
  const cases: [string, string][] = [
    ["I won my first video game tournament last week!", "I won my first video game tournament last week (the week before 21 January 2022)!"],
    ["Yesterday I went hiking.", "Yesterday (20 January 2022) I went hiking."],
    ["I finished it last Friday.", "I finished it last Friday (14 January 2022)."],
    ["On Monday I went to the vet.", "On Monday (17 January 2022) I went to the vet."],
    ["We're going next month.", "We're going next month (February 2022)."],
    ["two days ago my dog ran off", "two days ago (19 January 2022) my dog ran off"],
    ["this weekend I'm hosting a party", "this weekend (the weekend of 22 January 2022) I'm hosting a party"],
    ["last weekend we camped", "last weekend (the weekend of 15 January 2022) we camped"],
    ["last year was rough", "last year (2021) was rough"],
    ["I started 3 years ago", "I started 3 years ago (around 2019)"],
    ["a few weeks ago I quit", "a few weeks ago (a few weeks before 21 January 2022) I quit"],
    ["I'll do it in two weeks", "I'll do it in two weeks (around 4 February 2022)"],
    ["The concert is on May 12.", "The concert is on May 12 (12 May 2022)."],
    ["I went there last summer", "I went there last summer (summer 2021)"],
  ];
  it.each(cases)("%s", (said, resolved) => {
    expect(resolveRelativeDates(said, FRI)).toBe(resolved);
  });

  it("leaves absolute dates, durations, times of day, today and the verbs 'may' and 'march' alone", () => {
    for (const s of [
      "I adopted him in May 2022.",
      "I've had them for 3 years now.",
      "Call me at 3pm.",
      "tonight I cook",
      "this morning I ran",
      "May I ask what happened?",
      "We march on.",
      "The swimming pickup moved to 5:45 every Monday.",
      "I run on Sundays.",
      "Nothing about time here.",
    ]) {
      expect(resolveRelativeDates(s, FRI), s).toBe(s);
    }
  });

  it("is idempotent: a resolved sentence resolves to itself", () => {
    const once = resolveRelativeDates("I moved last month and visited Porto yesterday.", FRI);
    expect(once).toBe("I moved last month (December 2021) and visited Porto yesterday (20 January 2022).");
    expect(resolveRelativeDates(once, FRI)).toBe(once);
  });

  it("reads a bare weekday in a plan as the next one and in a story as the last one", () => {
    const monday = new Date(2022, 0, 24, 9);
    expect(resolveRelativeDates("I'll see the dentist on Thursday.", monday)).toBe("I'll see the dentist on Thursday (27 January 2022).");
    expect(resolveRelativeDates("I saw the dentist on Thursday.", monday)).toBe("I saw the dentist on Thursday (20 January 2022).");
  });

  it("gives each mention the days it covers, for questions as well as statements", () => {
    const [may, week] = dateMentions("What did Nate do in May 2023 and last week?", new Date(2023, 5, 10));
    expect(may).toMatchObject({ text: "May 2023", grain: "month", relative: false, start: new Date(2023, 4, 1), end: new Date(2023, 5, 1) });
    expect(week).toMatchObject({ text: "last week", grain: "week", relative: true, absolute: "the week before 10 June 2023" });
    expect(week.start).toEqual(new Date(2023, 4, 29));
    expect(week.end).toEqual(new Date(2023, 5, 5));
  });
});

describe("dateForms", () => {
  it("writes the whole date inside a text in its common forms, the rest unchanged", () => {
    expect(dateForms("the week before 21 January 2022")).toEqual([
      "the week before 21 January 2022",
      "the week before January 21, 2022",
      "the week before January 21 2022",
      "the week before 21 Jan 2022",
      "the week before Jan 21, 2022",
      "the week before 2022-01-21",
    ]);
    expect(dateForms("March 2022")).toEqual(["March 2022"]);
    expect(dateForms("next Friday")).toEqual(["next Friday"]);
  });
});

describe("askedRange: the time a question asks about", () => {
  const NOW = new Date(2026, 10, 26, 12);
  it("turns a named month, day or year into the days it covers", () => {
    expect(askedRange("Which country was Evan visiting in May 2023?", NOW)).toEqual({ start: new Date(2023, 4, 1), end: new Date(2023, 5, 1) });
    expect(askedRange("What happened on 24 May 2023?", NOW)).toEqual({ start: new Date(2023, 4, 24), end: new Date(2023, 4, 25) });
    expect(askedRange("What did Sam do in 2022?", NOW)).toEqual({ start: new Date(2022, 0, 1), end: new Date(2023, 0, 1) });
  });

  it("resolves relative times against now, and a month without a year to the latest one begun", () => {
    expect(askedRange("what did I say yesterday about the migration", NOW)).toEqual({ start: new Date(2026, 10, 25), end: new Date(2026, 10, 26) });
    const week = askedRange("the error from last week", NOW)!;
    expect(week.start).toEqual(new Date(2026, 10, 16));
    expect(week.end).toEqual(new Date(2026, 10, 23));
    expect(askedRange("what did he say in December?", NOW)).toEqual({ start: new Date(2025, 11, 1), end: new Date(2026, 0, 1) });
  });

  it("finds none in a question that names no time", () => {
    expect(askedRange("When did my sister say she lands in Lisbon?", NOW)).toBeNull();
    expect(askedRange("what is the index on messages", NOW)).toBeNull();
  });
});
