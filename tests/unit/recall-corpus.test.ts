import { describe, expect, it } from "vitest";
import {
  answerVisible,
  generateRecallCorpus,
  messageText,
  normalise,
  type RecallCorpusOptions,
} from "../../scripts/bench/recall-corpus";

const OPTIONS: RecallCorpusOptions = { seed: 4242, users: 3, sessionsPerUser: 9, turnsPerSession: 16, factsPerSession: 3 };

describe("the recall benchmark's corpus", () => {
  it("is the same for the same seed and sizes, and different for another seed", () => {
    const a = generateRecallCorpus(OPTIONS);
    expect(generateRecallCorpus({ ...OPTIONS })).toEqual(a);
    expect(generateRecallCorpus({ ...OPTIONS, seed: 4243 })).not.toEqual(a);
  });

  it("has the sizes asked for and questions of every kind", () => {
    const c = generateRecallCorpus(OPTIONS);
    expect(c.users).toHaveLength(3);
    for (const u of c.users) {
      expect(u.sessions).toHaveLength(9);
      for (const s of u.sessions) expect(s).toHaveLength(16);
      // Every session plants its facts; one temporal pair per three sessions.
      expect(u.questions.filter((q) => q.kind !== "temporal")).toHaveLength(27);
      expect(u.questions.filter((q) => q.kind === "temporal")).toHaveLength(3);
      expect(new Set(u.questions.map((q) => q.question)).size).toBe(u.questions.length);
    }
    const kinds = new Set(c.users.flatMap((u) => u.questions.map((q) => q.kind)));
    expect([...kinds].sort()).toEqual(["cross", "single", "temporal"]);
  });

  it("puts every answer in its evidence turn, at the seq the send path gives it", () => {
    const c = generateRecallCorpus(OPTIONS);
    for (const u of c.users) {
      for (const q of u.questions) {
        const e = q.evidence;
        expect(answerVisible(normalise(messageText(u, e)), q.answers), `${q.id}: ${q.question}`).toBe(true);
        expect(e.seq).toBe(2 * e.turn + (e.role === "user" ? 1 : 2));
        expect(e.turn).toBeGreaterThan(0);
        if (q.kind === "cross") expect(q.askSession).toBeGreaterThan(e.session);
        else expect(q.askSession).toBe(e.session);
      }
    }
  });

  it("states the answer nowhere else in the user's sessions, except the evidence", () => {
    const c = generateRecallCorpus(OPTIONS);
    for (const u of c.users) {
      for (const q of u.questions) {
        u.sessions.forEach((turns, s) =>
          turns.forEach((t, turn) => {
            for (const role of ["user", "assistant"] as const) {
              const here = s === q.evidence.session && turn === q.evidence.turn && role === q.evidence.role;
              if (!here) expect(answerVisible(normalise(role === "user" ? t.user : t.assistant), q.answers), `${q.id} at s${s} t${turn} ${role}`).toBe(false);
            }
          }),
        );
      }
    }
  });

  it("makes the later statement the answer of a temporal question", () => {
    const c = generateRecallCorpus(OPTIONS);
    for (const q of c.users.flatMap((u) => u.questions.filter((x) => x.kind === "temporal"))) {
      const earlier = q.superseded;
      expect(earlier).toBeDefined();
      if (!earlier) continue;
      const order = (e: typeof earlier) => e.session * 1000 + e.turn;
      expect(order(earlier)).toBeLessThan(order(q.evidence));
    }
  });

  it("compares answers normalised, as whole words", () => {
    const text = normalise("The plumber quoted $1,250 to fix it. Pickup at 4:15 on MARCH 3rd; we live in Porto.");
    expect(answerVisible(text, ["1250"])).toBe(true);
    expect(answerVisible(text, ["4:15"])).toBe(true);
    expect(answerVisible(text, ["porto"])).toBe(true);
    expect(answerVisible(text, ["125"])).toBe(false);
    expect(answerVisible(text, ["Port"])).toBe(false);
    expect(answerVisible(text, ["March 3"])).toBe(false);
  });
});
