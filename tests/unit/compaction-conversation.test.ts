import { describe, expect, it } from "vitest";
import {
  extractiveSummary,
  extractMustKeep,
  verifySummary,
  type MustKeepItem,
  type MustKeepKind,
  type TranscriptTurn,
} from "@/lib/context/compaction";

const turn = (turnSeq: number, user: string, assistant = "Noted."): TranscriptTurn => ({
  turnSeq,
  messages: [
    { role: "user", text: user },
    { role: "assistant", text: assistant },
  ],
});
const items = (user: string, assistant?: string) => extractMustKeep([turn(1, user, assistant)]);
const of = (found: MustKeepItem[], kind: MustKeepKind) => found.filter((i) => i.kind === kind).map((i) => i.text);
const count = (s: string) => Math.ceil(s.length / 4);

describe("people", () => {
  it("finds names after titles, relations and social verbs", () => {
    const found = items(
      "My sister Anna is visiting next week. I had lunch with Marcus on Tuesday, and Dr. Patel said my knee is fine. Priya and I are thinking about a trip.",
    );
    expect(of(found, "person")).toEqual(["Anna", "Marcus", "Dr. Patel", "Priya"]);
  });

  it("finds a pet's name and a name before a possessive event", () => {
    const found = items("We adopted a puppy; my dog Biscuit is three months old. Tomorrow is Sofia's birthday.");
    expect(of(found, "quantity")).toEqual(["three months"]);
    expect(of(found, "person")).toEqual(["Biscuit", "Sofia"]);
  });

  it("rejects sentence-initial capitals, product names and code identifiers", () => {
    const found = items(
      "Then the build failed again. Redis is faster than Postgres here. Call `createUser(Anna)` and check UserService. Thanks, that helps. Maybe React is better?",
      "Great question. TypeScript and Next.js both work with Redis.",
    );
    expect(of(found, "person")).toEqual([]);
    expect(of(found, "place")).toEqual([]);
  });
});

describe("places", () => {
  it("finds places after travel and home verbs, with a place word, or well known", () => {
    const found = items(
      "I moved to Lisbon in 2021 and grew up in Porto. We hiked around Golden Gate Park, then flew to New York. Tokyo is on my list.",
    );
    expect(of(found, "place")).toEqual(["Lisbon", "Porto", "Golden Gate Park", "New York", "Tokyo"]);
  });

  it("does not take languages and frameworks after 'in' or 'to' for places", () => {
    const found = items("It is written in Python and we migrated to Django. Port it to Rust later.");
    expect(of(found, "place")).toEqual([]);
  });
});

describe("dates and times", () => {
  it("finds weekdays, month dates, numeric dates, times, relative times, years and holidays", () => {
    const found = items(
      "The dentist is on March 3rd at 4:30 pm, and the party is 12 June 2024. Send it by 2024-05-17 or 05/17/2024. We met in 2019, two weeks ago was Christmas, and next month I start.",
    );
    expect(of(found, "date_time")).toEqual(
      expect.arrayContaining(["March 3rd", "12 June 2024", "4:30 pm", "2024-05-17", "05/17/2024", "2019", "two weeks ago", "Christmas", "next month"]),
    );
  });

  it("rejects file:line:col, versions, ports and the verb 'may'", () => {
    const found = items("See src/app.ts:15:30 and next@15.5.28 on port 8080. You may want to retry; May I ask why?");
    expect(of(found, "date_time")).toEqual([]);
  });
});

describe("quantities", () => {
  it("finds money, measures, percentages and counts", () => {
    const found = items(
      "The flat costs €1,450 a month and the deposit is $3,000. I ran 12 km in 58 minutes, lost 4 kg, and we have 3 kids and two dogs. Rent went up 8%.",
    );
    expect(of(found, "quantity")).toEqual(
      expect.arrayContaining(["€1,450", "$3,000", "12 km", "58 minutes", "4 kg", "3 kids", "two dogs", "8%"]),
    );
  });

  it("rejects version numbers, flags, ports and numbers inside identifiers", () => {
    const found = items("Use node 20.11.1 with --max-old-space-size=4096 on port 3000; v2 and utf8 and sha256 are fine.");
    expect(of(found, "quantity")).toEqual([]);
  });
});

describe("commitments, preferences and events", () => {
  it("takes the user's plans, tastes and life events as whole sentences", () => {
    const found = items(
      "I prefer aisle seats on long flights. Remind me to call the bank on Friday. I'm flying to Porto on March 3. We got married in Sintra last year. I hate cilantro.",
    );
    expect(of(found, "preference")).toEqual(["I prefer aisle seats on long flights.", "I hate cilantro."]);
    expect(of(found, "commitment")).toEqual(["Remind me to call the bank on Friday.", "I'm flying to Porto on March 3."]);
    expect(of(found, "event")).toEqual(["We got married in Sintra last year."]);
  });

  it("rejects questions, requests, pronoun-only likes, and everyday verbs without an anchor", () => {
    const found = items("Should I prefer tabs? I'd like to know more. I like that. I went outside for a bit. I'm taking a break.");
    expect([...of(found, "preference"), ...of(found, "commitment"), ...of(found, "event")]).toEqual([]);
  });

  it("does not take the assistant's or a tool's sentences as the user's", () => {
    const t: TranscriptTurn = {
      turnSeq: 1,
      messages: [
        { role: "user", text: "Run it." },
        { role: "assistant", text: "I'll update the config and I prefer short names." },
        { role: "user", text: "I will never give you up (tool output)" },
      ],
    };
    const found = extractMustKeep([t]);
    expect(found.filter((i) => ["commitment", "preference", "event"].includes(i.kind))).toEqual([]);
  });
});

describe("verification of conversation facts", () => {
  const conv = [
    turn(1, "Hi! My sister Anna is moving to Lisbon on June 14. The movers quoted $2,400.", "That's exciting."),
    turn(2, "I prefer window seats, by the way. Anyway, how is the weather?", "It's sunny and mild today."),
  ];
  const found = extractMustKeep(conv);

  it("counts a summary that drops the facts as a loss, not as full retention", () => {
    const v = verifySummary("### Session Summary\nThe user chatted about family news and the weather.", found, { detailsBudget: 0, countTokens: count });
    expect(found.map((i) => i.kind)).toEqual(["preference", "date_time", "person", "place", "quantity"]);
    expect(v.retentionRate).toBeLessThan(0.2);
  });

  it("accepts a statement retold in the summarizer's words when its anchors and most words are there", () => {
    const summary = "### Important Context\n- The user's sister Anna is moving to Lisbon on June 14; movers quoted $2,400.\n- The user prefers window seats.";
    const v = verifySummary(summary, found, { detailsBudget: 0, countTokens: count });
    expect(v.omitted).toEqual([]);
    expect(v.retentionRate).toBe(1);
  });

  it("does not accept a retelling that lost the date", () => {
    const plan: MustKeepItem = { kind: "commitment", text: "I'm flying to Porto on March 3." };
    expect(verifySummary("- The user is flying to Porto soon.", [plan], { detailsBudget: 0, countTokens: count }).retentionRate).toBe(0);
    expect(verifySummary("- The user is flying to Porto on March 3.", [plan], { detailsBudget: 0, countTokens: count }).retentionRate).toBe(1);
  });
});

describe("extractive summary of an ordinary conversation", () => {
  const chatter = (i: number) => `That sounds lovely, thank you so much for sharing all of this with me today, number ${i}.`;
  const conv = [
    turn(1, "Hello there, how are you doing today?", chatter(1)),
    turn(2, "My brother Tom lives in Porto and works as a nurse.", chatter(2)),
    turn(3, "I was just thinking about stuff and things in general.", chatter(3)),
    turn(4, "Our anniversary dinner is on Saturday at 7pm at Cafe Lua.", chatter(4)),
    turn(5, "Honestly it has been a long and somewhat boring week overall.", chatter(5)),
  ];
  const found = extractMustKeep(conv);

  it("keeps the sentences with facts and drops the chatter when the budget is short", () => {
    const text = extractiveSummary({ previousSummary: null, turns: conv, items: found, maxTokens: 120, countTokens: count });
    const context = text.slice(text.indexOf("### Important Context"));
    expect(context).toContain("- User: My brother Tom lives in Porto");
    expect(context).toContain("- User: Our anniversary dinner is on Saturday at 7pm");
    // Turn openers without facts would come next; the budget ends before them.
    expect(context).not.toContain("stuff and things");
    expect(text).not.toContain("thank you so much");
    expect(count(text)).toBeLessThanOrEqual(120);
    expect(verifySummary(text, found, { detailsBudget: 0, countTokens: count }).retentionRate).toBe(1);
  });
});
