import { describe, expect, it } from "vitest";
import { consolidateFact, extractFacts, factShapes, similarity, subjectOf, type StoredFact } from "@/lib/context/facts";
import type { TranscriptTurn } from "@/lib/context/compaction";

const t = (user: string, assistant = "Okay.", seq = 1): TranscriptTurn => ({
  turnSeq: 1,
  messages: [
    { role: "user", text: user, seq },
    { role: "assistant", text: assistant, seq: seq + 1 },
  ],
});

describe("extractFacts", () => {
  it("takes the user's sentences with names, places, dates, amounts, plans and tastes, with their seq", () => {
    const facts = extractFacts([
      t("Hi there! My sister Anna lives in Porto. I'm flying there on May 12. I hate long layovers. How are you?", "I'll plan around that.", 7),
    ]);
    expect(facts.map((f) => [f.text, f.subject, f.attribute, f.value, f.fromSeq])).toEqual([
      ["My sister Anna lives in Porto.", "anna", "lives_in", "porto", 7],
      ["I'm flying there on May 12.", "user", null, null, 7],
      ["I hate long layovers.", "user", "likes:long layovers", "no", 7],
    ]);
    expect(facts[0].kinds).toEqual(expect.arrayContaining(["person", "place"]));
  });

  it("takes the assistant's decisions but not its chatter, and never tool output", () => {
    const turn: TranscriptTurn = {
      turnSeq: 3,
      messages: [
        { role: "user", text: "Run the migration.", seq: 10 },
        { role: "assistant", text: "We decided to use Postgres for the ledger. I'll run it on Friday. Paris is lovely in May.", seq: 11 },
        { role: "user", text: "I moved to Berlin in 2020 (tool output)", seq: 12 },
      ],
    };
    expect(extractFacts([turn]).map((f) => [f.text, f.fromSeq])).toEqual([["We decided to use Postgres for the ledger.", 11]]);
  });

  it("skips questions, code and sentences with no fact in them", () => {
    expect(extractFacts([t("Did you move to Lisbon in June? Here is `createUser(Anna)`. That is nice.")])).toEqual([]);
  });

  it("redacts secrets in fact text", () => {
    const [fact] = extractFacts([t(`My budget is $900 and the key is sk-ant-api03-${"a".repeat(40)} today.`)]);
    expect(fact.text).not.toContain("aaaa");
    expect(fact.attribute).toBe("budget");
    expect(fact.value?.startsWith("$900 and the key is")).toBe(true);
    expect(fact.value).not.toContain("aaaa");
  });
});

describe("extractFacts of pasted logs and dated messages", () => {
  const said = (role: "user" | "assistant", text: string, at?: string, seq = 1): TranscriptTurn => ({ turnSeq: 1, messages: [{ role, text, seq, at, toolResult: false }] });

  it("names the speaker a log line gives, dates the fact by its timestamp and writes its relative dates absolutely", () => {
    const facts = extractFacts([said("assistant", "[7:31 pm on 21 January, 2022] Nate: I won my first video game tournament last week in Seattle!", "2026-11-26T10:00:00Z")]);
    expect(facts.map((f) => [f.subject, f.text])).toEqual([
      ["nate", "Nate (21 January 2022): I won my first video game tournament last week (the week before 21 January 2022) in Seattle!"],
    ]);
    expect(facts[0].saidAt).toEqual(new Date(2022, 0, 21, 19, 31));
  });

  it("makes 'I' and 'my' the named speaker's in attribute facts", () => {
    const [fact] = extractFacts([said("user", "Joanna: I moved to Portland in 2020.")]);
    expect([fact.subject, fact.attribute, fact.value]).toEqual(["joanna", "lives_in", "portland"]);
    expect(fact.text).toBe("Joanna: I moved to Portland in 2020.");
  });

  it("dates a plain message by when it was stored, without naming anyone", () => {
    const [fact] = extractFacts([said("user", "Yesterday I adopted a puppy named Max in Porto.", "2022-03-02T09:00:00")]);
    expect(fact.text).toBe("Yesterday (1 March 2022) I adopted a puppy named Max in Porto.");
    expect(fact.saidAt).toEqual(new Date(2022, 2, 2, 9));
  });

  it("takes no table rows, runs of names, empty plans or questions", () => {
    const text = [
      "| Anna | Porto | 2021 |",
      "Porto Lisbon Madrid Berlin Vienna",
      "I'll definitely check it out tomorrow.",
      "Did you move to Lisbon in June?",
      "My sister Anna lives in Porto.",
    ].join("\n");
    expect(extractFacts([said("user", text, "2022-03-02T09:00:00")]).map((f) => f.text)).toEqual(["My sister Anna lives in Porto."]);
  });
});

describe("factShapes", () => {
  it("sets one attribute per pattern and normalizes subjects", () => {
    expect(factShapes("I moved to Lisbon last month.", [])).toEqual([{ subject: "user", attribute: "lives_in", value: "lisbon" }]);
    expect(factShapes("My favourite colour is dark green, honestly.", [])).toEqual([{ subject: "user", attribute: "favorite colour", value: "dark green" }]);
    expect(factShapes("Tomasz works at Allegro and my budget is $4,500.", [])).toEqual([
      { subject: "tomasz", attribute: "works_at", value: "allegro" },
      { subject: "user", attribute: "budget", value: "$4,500" },
    ]);
    expect(factShapes("I love sushi.", [])).toEqual([{ subject: "user", attribute: "likes:sushi", value: "yes" }]);
    expect(subjectOf("My sister")).toBe("user's sister");
    expect(subjectOf("We")).toBe("user");
  });
});

describe("consolidateFact", () => {
  const at = (d: string) => new Date(`${d}T12:00:00Z`);
  const stored: StoredFact[] = [
    { id: "porto", subject: "user", attribute: "lives_in", value: "porto", text: "I live in Porto.", validFrom: at("2026-01-10") },
    { id: "tea", subject: "user", attribute: null, value: null, text: "I drink genmaicha every morning at 7am.", validFrom: at("2026-01-10") },
  ];

  it("repeats: same attribute and value, or near-identical wording", () => {
    expect(consolidateFact({ subject: "user", attribute: "lives_in", value: "porto", text: "I still live in Porto, yes.", validFrom: at("2026-02-01") }, stored)).toEqual({ action: "repeat", id: "porto" });
    expect(consolidateFact({ subject: "user", attribute: null, value: null, text: "I drink genmaicha every morning at 7am!", validFrom: at("2026-02-01") }, stored)).toEqual({ action: "repeat", id: "tea" });
  });

  it("supersedes: same subject and attribute, another value", () => {
    expect(consolidateFact({ subject: "user", attribute: "lives_in", value: "lisbon", text: "I moved to Lisbon.", validFrom: at("2026-03-01") }, stored)).toEqual({ action: "supersede", ids: ["porto"] });
  });

  it("a contradicting fact said before the stored one is stale, not a replacement", () => {
    expect(consolidateFact({ subject: "user", attribute: "lives_in", value: "braga", text: "I live in Braga.", validFrom: at("2025-06-01") }, stored)).toEqual({ action: "stale", supersededBy: "porto" });
  });

  it("inserts: another subject, a different statement, or another attribute of the same sentence", () => {
    expect(consolidateFact({ subject: "anna", attribute: "lives_in", value: "lisbon", text: "Anna lives in Lisbon.", validFrom: at("2026-03-01") }, stored)).toEqual({ action: "insert" });
    expect(consolidateFact({ subject: "user", attribute: null, value: null, text: "I drink coffee on weekends.", validFrom: at("2026-03-01") }, stored)).toEqual({ action: "insert" });
    expect(consolidateFact({ subject: "user", attribute: "budget", value: "$900", text: "I live in Porto.", validFrom: at("2026-03-01") }, stored.slice(0, 1))).toEqual({ action: "insert" });
  });

  it("similarity ignores case, punctuation and filler words", () => {
    expect(similarity("I live in Porto.", "i LIVE in porto!")).toBe(1);
    expect(similarity("I live in Porto.", "I work in Porto.")).toBeLessThan(0.8);
  });
});
