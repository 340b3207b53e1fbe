import { describe, expect, it } from "vitest";
import { extractMustKeep, renderTranscript, verifySummary, type MustKeepItem, type MustKeepKind, type TranscriptTurn } from "@/lib/context/compaction";
import { dateAt, utterancesOf, withoutPrefixes } from "@/lib/context/compaction/utterances";
import { formatDay } from "@/lib/context/dates";

const of = (found: MustKeepItem[], kind: MustKeepKind) => found.filter((i) => i.kind === kind).map((i) => i.text);

describe("utterances: who said a line and when", () => {
  it("takes a pasted log's speakers and dates line by line; unprefixed lines continue the line before", () => {
    const m = {
      role: "user" as const,
      at: "2026-11-26T10:00:00Z",
      text: "Here is our chat:\n[2023-05-08 13:56] Ann: I moved to Porto.\nIt is lovely.\n[2023-05-09 09:00] Bob: Congrats!",
    };
    expect(utterancesOf(m).map((u) => [u.speaker, u.named, u.at ? formatDay(u.at) : null, u.text])).toEqual([
      ["User", false, "26 November 2026", "Here is our chat:"],
      ["Ann", true, "8 May 2023", "I moved to Porto."],
      ["Ann", true, "8 May 2023", "It is lovely."],
      ["Bob", true, "9 May 2023", "Congrats!"],
    ]);
    const at = dateAt(m);
    expect(formatDay(at(m.text.indexOf("lovely")) as Date)).toBe("8 May 2023");
    expect(formatDay(at(m.text.indexOf("Congrats")) as Date)).toBe("9 May 2023");
  });

  it("reads no speaker inside fenced code and blanks prefixes without moving offsets", () => {
    const text = "Alice: see the log\n```\nWorker: started\n```";
    expect(utterancesOf({ role: "user", text }).map((u) => u.speaker)).toEqual(["Alice", "Alice", "Alice", "Alice"]);
    const blanked = withoutPrefixes(text);
    expect(blanked).toHaveLength(text.length);
    expect(blanked).toBe("       see the log\n```\nWorker: started\n```");
  });

  it("names no one in an assistant's reply that opens with a word and a colon, unless the line carries its own time", () => {
    expect(utterancesOf({ role: "assistant", text: "Echo: Our team offsite is on June 12th." })[0]).toMatchObject({ speaker: "Assistant", named: false });
    expect(utterancesOf({ role: "assistant", text: "[2023-05-08 13:56] Nate: I won my first tournament." })[0]).toMatchObject({ speaker: "Nate", named: true });
  });
});

describe("must-keep items of dated and pasted conversations", () => {
  const said = (text: string, role: "user" | "assistant" = "user", at?: string): TranscriptTurn => ({ turnSeq: 1, messages: [{ role, text, at }] });

  it("writes a statement's relative dates absolutely, against the day it was said", () => {
    const found = extractMustKeep([said("I won my first chess tournament last week in Porto.", "user", "2022-01-21T19:31:00")]);
    expect(of(found, "event")).toEqual(["I won my first chess tournament last week (the week before 21 January 2022) in Porto."]);
    expect(of(found, "date_time")).toEqual(["the week before 21 January 2022"]);
  });

  it("keeps a pasted log's timestamp and speaker out of the items, and dates by the timestamp", () => {
    const found = extractMustKeep([said("[1:56 pm on 8 May, 2023] Joanna: Yesterday I adopted a puppy named Max from the shelter.", "assistant", "2026-11-26T10:00:00Z")]);
    // The assistant role stored it, but a named person said it: their events are facts too.
    expect(of(found, "event")).toEqual(["Yesterday (7 May 2023) I adopted a puppy named Max from the shelter."]);
    expect(found.some((i) => i.text.includes("1:56") || i.text.includes("Joanna:"))).toBe(false);
  });

  it("leaves dates alone when nothing says when the words were said", () => {
    expect(of(extractMustKeep([said("I won my first chess tournament last week in Porto.")]), "event")).toEqual([
      "I won my first chess tournament last week in Porto.",
    ]);
  });

  it("still reads the assistant's own plans as not the user's", () => {
    expect(of(extractMustKeep([said("I'll draft the email to Porto tomorrow.", "assistant", "2022-01-21T10:00:00")]), "commitment")).toEqual([]);
  });
});

describe("the transcript the summarizer reads", () => {
  it("dates each turn by when it was said, so 'yesterday' can be written as a date", () => {
    expect(renderTranscript([{ turnSeq: 4, messages: [{ role: "user", text: "I moved yesterday.", at: "2022-01-21T19:31:00" }] }])).toBe(
      "### Turn 4 (21 January 2022)\n**User:** I moved yesterday.",
    );
  });
});

describe("verification of what people said, dated", () => {
  const turns: TranscriptTurn[] = [
    {
      turnSeq: 2,
      messages: [
        { role: "user", text: "[7:31 pm on 21 January, 2022] Nate: I won my first chess tournament last week in Porto." },
        { role: "assistant", text: "[7:32 pm on 21 January, 2022] Joanna: I changed my mind about Lisbon, I'm moving to Madrid in March." },
      ],
    },
  ];
  const found = extractMustKeep(turns);
  const rate = (summary: string) => verifySummary(summary, found, { detailsBudget: 0, countTokens: (s) => Math.ceil(s.length / 4) }).retentionRate;

  it("holds both people's statements and the change of mind, with absolute dates", () => {
    expect(of(found, "event")).toEqual(["I won my first chess tournament last week (the week before 21 January 2022) in Porto."]);
    expect(of(found, "decision")).toEqual(["I changed my mind about Lisbon, I'm moving to Madrid in March (March 2022)."]);
  });

  it("does not score a summary that drops the people, the dates or the change of mind as complete", () => {
    expect(rate("### Important Context\n- Nate and Joanna caught up about chess and travel.")).toBeLessThan(0.5);
    // The tournament without its date is a lost fact.
    expect(rate("### Important Context\n- Nate won his first chess tournament in Porto.\n- Joanna changed her mind about Lisbon; moving to Madrid in March 2022.")).toBeLessThan(1);
  });

  it("accepts a retelling with the dates written another common way", () => {
    const summary = [
      "### Important Context",
      "- Nate won his first chess tournament in Porto the week before January 21, 2022.",
      "- I changed my mind about Lisbon, I'm moving to Madrid in March (March 2022).",
    ].join("\n");
    expect(rate(summary)).toBe(1);
  });
});
