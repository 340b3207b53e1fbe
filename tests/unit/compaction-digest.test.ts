import { describe, expect, it } from "vitest";
import { extractiveSummary, extractMustKeep, parseSections, SUMMARY_HEADINGS, verifySummary, type TranscriptTurn } from "@/lib/context/compaction";
import { digestSentences, isChatter, renderDigest, selectSentences } from "@/lib/context/compaction/digest";
import { estimateTextTokens } from "@/lib/tokens/tokenizer";

const count = estimateTextTokens;

/** A chat between two people pasted as a log, one line per message, alternating roles as the import stores them. */
function pasted(lines: [string, string, string][]): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  lines.forEach(([stamp, who, text], i) => {
    const message = { role: i % 2 === 0 ? ("user" as const) : ("assistant" as const), text: `[${stamp}] ${who}: ${text}`, at: "2026-11-26T10:00:00Z" };
    if (i % 2 === 0) turns.push({ turnSeq: turns.length + 2, messages: [message] });
    else turns[turns.length - 1].messages.push(message);
  });
  return turns;
}

const CHAT = pasted([
  ["7:31 pm on 21 January, 2022", "Nate", "Hey Joanna! Long time no see! What's up?"],
  ["7:31 pm on 21 January, 2022", "Joanna", "Hey Nate! I finished my first screenplay last Friday. What about you?"],
  ["7:31 pm on 21 January, 2022", "Nate", "Wow, congrats! I won my first Counter-Strike tournament last week - so exciting!"],
  ["7:31 pm on 21 January, 2022", "Joanna", "Thanks! That's awesome!"],
  ["2:01 pm on 23 January, 2022", "Nate", "I adopted two turtles named Tank and Shelly from a pet store in Tacoma."],
  ["2:01 pm on 23 January, 2022", "Joanna", "So cute! Sadly I'm allergic to most reptiles and animals with fur."],
  ["2:01 pm on 23 January, 2022", "Nate", "Sorry to hear that. See you!"],
  ["2:01 pm on 23 January, 2022", "Joanna", "Bye!"],
]);

describe("the digest of what people said", () => {
  it("tells chatter from statements", () => {
    for (const s of ["Hey there!", "Thanks! That's awesome!", "Long time no see!", "What about you?", "Bye!", "You bet!", "Anytime!"]) expect(isChatter(s), s).toBe(true);
    for (const s of ["I adopted two turtles.", "I love sushi.", "It cost $40.", "My brother got the job."]) expect(isChatter(s), s).toBe(false);
    expect(isChatter("Hey Joanna!", new Set(["joanna"]))).toBe(true);
  });

  it("dates, attributes and resolves what both people said, and leaves the chatter out", () => {
    const lines = renderDigest(selectSentences(digestSentences(CHAT, count), 1_000));
    expect(lines).toEqual([
      "**21 January 2022**",
      "- Joanna: I finished my first screenplay last Friday (14 January 2022).",
      "- Nate: I won my first Counter-Strike tournament last week (the week before 21 January 2022) - so exciting!",
      "**23 January 2022**",
      "- Nate: I adopted two turtles named Tank and Shelly from a pet store in Tacoma.",
      "- Joanna: Sadly I'm allergic to most reptiles and animals with fur.",
    ]);
  });

  it("spends a short budget on words not yet covered rather than on a retelling", () => {
    const turns: TranscriptTurn[] = [
      { turnSeq: 2, messages: [{ role: "user", text: "My brother Tom moved to Lisbon for a nursing job at the Santa Maria hospital." }] },
      { turnSeq: 3, messages: [{ role: "user", text: "Tom moved to Lisbon for the nursing job at Santa Maria." }] },
      { turnSeq: 4, messages: [{ role: "user", text: "I started learning the cello with a teacher called Ines." }] },
    ];
    const sentences = digestSentences(turns, count);
    const budget = sentences[0].tokens + sentences[2].tokens;
    expect(selectSentences(sentences, budget).map((s) => s.text)).toEqual([
      "My brother Tom moved to Lisbon for a nursing job at the Santa Maria hospital.",
      "I started learning the cello with a teacher called Ines.",
    ]);
  });
});

describe("news about someone already mentioned", () => {
  it("counts a new pairing of a name and a word as news, where a retelling adds nothing", () => {
    const turns: TranscriptTurn[] = [
      { turnSeq: 2, messages: [{ role: "user", text: "My manager is Amara." }] },
      { turnSeq: 3, messages: [{ role: "user", text: "The canteen is run by Ilse." }] },
      { turnSeq: 4, messages: [{ role: "user", text: "Amara is still my manager." }] },
      { turnSeq: 5, messages: [{ role: "user", text: "Ilse is my manager now." }] },
    ];
    const sentences = digestSentences(turns, count);
    const picked = selectSentences(sentences, sentences[0].tokens + sentences[1].tokens + sentences[3].tokens).map((s) => s.text);
    expect(picked).toEqual(["My manager is Amara.", "The canteen is run by Ilse.", "Ilse is my manager now."]);
  });
});

describe("extractive summary of a long conversation between people", () => {
  const items = extractMustKeep(CHAT);

  it("keeps the PRD's sections, puts the dated digest under Important Context and keeps every item", () => {
    const summary = extractiveSummary({ previousSummary: null, turns: CHAT, items, maxTokens: 1_000, countTokens: count });
    expect(parseSections(summary).map((s) => s.heading)).toEqual([...SUMMARY_HEADINGS]);
    const context = parseSections(summary).find((s) => s.heading === "Important Context")?.body ?? "";
    expect(context).toContain("**23 January 2022**\n- Nate: I adopted two turtles named Tank and Shelly from a pet store in Tacoma.");
    expect(summary).toContain("said 21 January 2022 – 23 January 2022");
    expect(summary).not.toMatch(/\[\d/); // no pasted timestamps
    expect(summary).not.toContain("What about you?");
    expect(verifySummary(summary, items, { detailsBudget: 0, countTokens: count }).retentionRate).toBe(1);
  });

  it("carries a previous digest with its dates into the next one", () => {
    const first = extractiveSummary({ previousSummary: null, turns: CHAT, items, maxTokens: 1_000, countTokens: count });
    const later = pasted([
      ["9:00 am on 2 March, 2022", "Nate", "Tank learned to climb the ramp yesterday."],
      ["9:00 am on 2 March, 2022", "Joanna", "My screenplay was accepted by the Portland film festival!"],
    ]);
    const second = extractiveSummary({ previousSummary: first, turns: later, items: extractMustKeep(later, first), maxTokens: 1_000, countTokens: count });
    const context = parseSections(second).find((s) => s.heading === "Important Context")?.body ?? "";
    expect(context).toContain("**21 January 2022**\n- Joanna: I finished my first screenplay last Friday (14 January 2022).");
    expect(context).toContain("**2 March 2022**\n- Nate: Tank learned to climb the ramp yesterday (1 March 2022).");
    expect(context.indexOf("21 January 2022")).toBeLessThan(context.indexOf("2 March 2022"));
    // Carried once: the first digest's lines are not repeated.
    expect(context.split("Tank and Shelly").length).toBe(2);
  });

  it("keeps the digest to about a quarter of what it condenses, unless told the summary need not shrink", () => {
    const many: TranscriptTurn[] = Array.from({ length: 40 }, (_, i) => ({
      turnSeq: i + 2,
      messages: [{ role: "user" as const, text: `On trip ${i + 1} I visited the town of Place${i} and bought a souvenir called Item${i} for my cousin.` }],
    }));
    const said = many.reduce((n, t) => n + count(t.messages[0].text), 0);
    const digestTokens = (summary: string) => count(parseSections(summary).find((x) => x.heading === "Important Context")?.body ?? "");
    const compacted = extractiveSummary({ previousSummary: null, turns: many, items: [], maxTokens: 4_000, countTokens: count });
    const archived = extractiveSummary({ previousSummary: null, turns: many, items: [], maxTokens: 4_000, countTokens: count, digestShare: 1 });
    expect(digestTokens(compacted)).toBeLessThanOrEqual(said * 0.3);
    expect(digestTokens(archived)).toBeGreaterThan(said * 0.9);
  });

  it("stays within a small budget by choosing fewer sentences, never by cutting one", () => {
    for (const maxTokens of [120, 200, 300]) {
      const summary = extractiveSummary({ previousSummary: null, turns: CHAT, items, maxTokens, countTokens: count });
      expect(count(summary)).toBeLessThanOrEqual(maxTokens);
      for (const line of summary.split("\n").filter((l) => l.startsWith("- Nate: ") || l.startsWith("- Joanna: "))) expect(line).toMatch(/[.!)]$/);
    }
  });
});
