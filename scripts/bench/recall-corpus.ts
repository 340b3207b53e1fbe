// Multi-session personal conversations with planted facts, for the recall benchmark
// (scripts/bench/recall.ts): ordinary chatter about cooking, weather, films and errands, and
// here and there a fact a later question needs (a person, place, date, time, amount, event,
// preference or plan). Deterministic: the same seed and sizes give the same corpus.
//
// Every question records its evidence (session index, turn index, role and the message's seq
// as the send path numbers it: turn t's user message is seq 2t+1, its reply 2t+2) and the
// answer strings that count as visible when present in a text, compared normalised
// (`answerVisible`). Chatter never contains a digit or a word of the value pools, so an
// answer can only be visible through its evidence turn (or, for a temporal question, the
// later statement that made it the answer).
import { int, pick, rng, type Rand } from "./corpus";
import {
  NAMES,
  PET_NAMES,
  CITIES,
  BANDS,
  VENUES,
  ALLERGENS,
  COURSES,
  GIFTS,
  CARS,
  EMPLOYERS,
  MONTHS,
  WEEKDAYS,
  RELATIONS,
  APPOINTMENTS,
  LODGINGS,
  OCCASIONS,
  TRADES,
  ACTIVITIES,
  CODED,
  ANIMALS,
  PEOPLE_FOR_GIFTS,
  CHAT_USER,
  CHAT_ASSISTANT,
  ACKS,
} from "./recall-vocab";

export type QuestionKind = "single" | "cross" | "temporal";

export interface RecallTurn {
  user: string;
  assistant: string;
}

export interface Evidence {
  session: number;
  /** 0-based turn in the session; turn_seq is turn + 1. */
  turn: number;
  role: "user" | "assistant";
  seq: number;
}

export interface RecallQuestion {
  id: string;
  kind: QuestionKind;
  /** What the fact is about: person, pet, date, place, amount, event, preference, plan, time, number. */
  category: string;
  question: string;
  /** Any one of these, normalised, present in a text makes the answer visible there. */
  answers: string[];
  evidence: Evidence;
  /** The session in which the question is asked (after its last turn): the evidence's, or a later one for "cross". */
  askSession: number;
  /** Temporal questions: the earlier statement the evidence contradicts. */
  superseded?: Evidence;
}

export interface RecallUser {
  index: number;
  sessions: RecallTurn[][];
  questions: RecallQuestion[];
}

export interface RecallCorpusOptions {
  seed: number;
  users: number;
  sessionsPerUser: number;
  turnsPerSession: number;
  /** Planted facts (each with its question) per session, besides the temporal pairs. */
  factsPerSession: number;
}

export interface RecallCorpus {
  options: RecallCorpusOptions;
  users: RecallUser[];
}

// ------------------------------------------------------------------ facts

interface Draw {
  r: Rand;
  /** Takes a value from a pool that this user has not used yet. */
  fresh<T extends string>(pool: readonly T[], key?: string): T;
  /** A value from `make` not drawn before for this user (dates and times must not repeat across facts). */
  unique(make: () => string): string;
}

interface Fact {
  category: string;
  /** A key unique per user, so no two questions ask the same thing. */
  key: string;
  statement: string;
  role: "user" | "assistant";
  /** The user's message when the assistant states the fact. */
  prompt?: string;
  question: string;
  answers: string[];
}

const money = (n: number) => `$${n.toLocaleString("en-US")}`;
const dateAnswers = (month: string, day: number) => [`${month} ${day}`, `${day} ${month}`];

const FACTS: readonly ((d: Draw) => Fact)[] = [
  (d) => {
    const rel = d.fresh(RELATIONS, "rel");
    const name = d.fresh(NAMES);
    return {
      category: "person", key: `rel:${rel}`, role: "user",
      statement: `My ${rel} ${name} is coming over this weekend, so the flat needs a proper tidy.`,
      question: `What is my ${rel}'s name?`, answers: [name],
    };
  },
  (d) => {
    const animal = d.fresh(ANIMALS, "animal");
    const pet = d.fresh(PET_NAMES);
    return {
      category: "pet", key: `pet:${animal}`, role: "user",
      statement: `Big news at home: we adopted a ${animal} and named it ${pet}.`,
      question: `What did we name the ${animal} we adopted?`, answers: [pet],
    };
  },
  (d) => {
    const appt = d.fresh(APPOINTMENTS, "appt");
    const date = d.unique(() => `${pick(d.r, MONTHS)} ${int(d.r, 2, 28)}`);
    const [month, day] = [date.split(" ")[0], Number(date.split(" ")[1])];
    return {
      category: "date", key: `appt:${appt}`, role: "user",
      statement: `My ${appt} appointment finally got booked for ${month} ${day}, after weeks of waiting.`,
      question: `When is my ${appt} appointment?`, answers: dateAnswers(month, day),
    };
  },
  (d) => {
    const lodging = d.fresh(LODGINGS, "lodging");
    const occasion = d.fresh(OCCASIONS, "occasion");
    const city = d.fresh(CITIES);
    return {
      category: "place", key: `trip:${occasion}`, role: "user",
      statement: `We booked a ${lodging} in ${city} for ${occasion}, right by the old harbour.`,
      question: `Where did we book the ${lodging} for ${occasion}?`, answers: [city],
    };
  },
  (d) => {
    const trade = d.fresh(TRADES.map(([t]) => t), "trade");
    const thing = TRADES.find(([t]) => t === trade)?.[1] ?? "boiler";
    const amount = Number(d.unique(() => String(int(d.r, 20, 480) * 5)));
    return {
      category: "amount", key: `trade:${trade}:${thing}`, role: "user",
      statement: `The ${trade} came round and quoted ${money(amount)} to fix the ${thing}, which is more than I hoped.`,
      question: `How much did the ${trade} quote to fix the ${thing}?`, answers: [String(amount)],
    };
  },
  (d) => {
    const band = d.fresh(BANDS);
    const venue = d.fresh(VENUES, "venue");
    return {
      category: "event", key: `gig:${venue}`, role: "user",
      statement: `I got tickets to see ${band} at the ${venue} next month, I can't wait.`,
      question: `Which band am I going to see at the ${venue}?`, answers: [band],
    };
  },
  (d) => {
    const allergen = d.fresh(ALLERGENS, "allergen");
    return {
      category: "preference", key: "allergy", role: "user",
      statement: `Just so you know, I'm allergic to ${allergen}, so please leave it out of any recipe you suggest.`,
      question: "What am I allergic to?", answers: [allergen],
    };
  },
  (d) => {
    const course = d.fresh(COURSES);
    const month = pick(d.r, MONTHS);
    return {
      category: "plan", key: `course:${month}`, role: "user",
      statement: `I've signed up for ${course} classes starting in ${month}, every week at the community centre.`,
      question: `What classes did I sign up for that start in ${month}?`, answers: [course],
    };
  },
  (d) => {
    const activity = d.fresh(ACTIVITIES, "activity");
    const time = d.unique(() => `${int(d.r, 3, 6)}:${pick(d.r, ["05", "10", "15", "20", "35", "40", "45", "50"])}`);
    const day = pick(d.r, WEEKDAYS);
    return {
      category: "time", key: `pickup:${activity}`, role: "user",
      statement: `The ${activity} pickup moved to ${time} every ${day}, so I have to leave work early.`,
      question: `What time is the ${activity} pickup?`, answers: [time],
    };
  },
  (d) => {
    const thing = d.fresh(CODED, "coded");
    const code = d.unique(() => String(int(d.r, 1000, 9999)));
    return {
      category: "number", key: `code:${thing}`, role: "user",
      statement: `Reminder for myself: the code for the ${thing} is ${code}.`,
      question: `What's the code for the ${thing}?`, answers: [code],
    };
  },
  (d) => {
    const who = d.fresh(PEOPLE_FOR_GIFTS, "giftee");
    const gift = d.fresh(GIFTS);
    return {
      category: "plan", key: `gift:${who}`, role: "user",
      statement: `For my ${who}'s birthday I ordered a ${gift}; it should arrive in time if the post behaves.`,
      question: `What did I order for my ${who}'s birthday?`, answers: [gift],
    };
  },
  (d) => {
    // Stated by the assistant: the user gives the parts, the reply works out the total.
    const name = d.fresh(NAMES);
    // Every number of the user's facts is drawn once, so no answer can be read off another fact.
    const a = Number(d.unique(() => String(int(d.r, 60, 400))));
    const b = Number(d.unique(() => String(int(d.r, 60, 400))));
    d.unique(() => String(a + b));
    const city = d.fresh(CITIES);
    return {
      category: "amount", key: `flights:${city}`, role: "assistant",
      prompt: `Can you add up the flights to ${city} for me? Mine was ${money(a)} and ${name}'s was ${money(b)}.`,
      statement: `Together the flights to ${city} come to ${money(a + b)}.`,
      question: `What did the flights to ${city} cost in total?`, answers: [String(a + b)],
    };
  },
];

interface Temporal {
  category: string;
  key: string;
  first: string;
  later: string;
  question: string;
  answers: string[];
}

const TEMPORALS: readonly ((d: Draw) => Temporal)[] = [
  (d) => {
    const a = d.fresh(CITIES);
    const b = d.fresh(CITIES);
    return {
      category: "place", key: "home", question: "Which city do I live in now?", answers: [b],
      first: `Living in ${a} means the summers are hot and the trams are always full.`,
      later: `We finally moved to ${b} last weekend, there are boxes everywhere.`,
    };
  },
  (d) => {
    const a = d.fresh(NAMES);
    const b = d.fresh(NAMES);
    return {
      category: "person", key: "manager", question: "Who is my manager now?", answers: [b],
      first: `My manager ${a} wants the quarterly report by the end of the week.`,
      later: `${a} left the company, and ${b} took over as my manager this week.`,
    };
  },
  (d) => {
    // With cents, so the answer cannot be read off a pickup time or another amount.
    const a = int(d.r, 25, 49);
    const b = a + int(d.r, 4, 15);
    return {
      category: "amount", key: "gym", question: "How much is my gym membership now?", answers: [`${b}.90`],
      first: `My gym membership is $${a}.90 a month, which still feels like a lot.`,
      later: `The gym raised my membership to $${b}.90 a month starting now.`,
    };
  },
  (d) => {
    const a = d.fresh(CARS);
    const b = d.fresh(CARS);
    return {
      category: "event", key: "car", question: "What car do I drive now?", answers: [b],
      first: `My old ${a} made a strange rattling noise on the motorway again.`,
      later: `I sold the old car and bought a ${b}, it drives like a dream.`,
    };
  },
  (d) => {
    const a = d.fresh(EMPLOYERS);
    const b = d.fresh(EMPLOYERS);
    return {
      category: "plan", key: "job", question: "Where do I work now?", answers: [b],
      first: `Things at ${a} are busy, we have a big launch coming up.`,
      later: `Today was my first day at ${b}, the new team seems friendly.`,
    };
  },
];

// ------------------------------------------------------------------ assembly

function chatUser(r: Rand): string {
  return Array.from({ length: int(r, 1, 2) }, () => pick(r, CHAT_USER)).join(" ");
}

function chatAssistant(r: Rand): string {
  return Array.from({ length: int(r, 2, 4) }, () => pick(r, CHAT_ASSISTANT)).join(" ");
}

function drawFor(r: Rand): Draw {
  const used = new Set<string>();
  return {
    r,
    fresh<T extends string>(pool: readonly T[], key?: string): T {
      const free = pool.filter((v) => !used.has(`${key ?? "v"}:${v}`) && (key !== undefined || !used.has(`v:${v}`)));
      if (free.length === 0) throw new RetryFact();
      const v = pick(r, free);
      used.add(`${key ?? "v"}:${v}`);
      return v;
    },
    unique(make: () => string): string {
      for (let i = 0; i < 50; i++) {
        const v = make();
        if (!used.has(`u:${v}`)) {
          used.add(`u:${v}`);
          return v;
        }
      }
      throw new RetryFact();
    },
  };
}

/** A fact's pools ran dry for this user: draw another kind of fact. */
class RetryFact extends Error {}

const seqOf = (turn: number, role: "user" | "assistant") => 2 * turn + (role === "user" ? 1 : 2);

function evidenceAt(session: number, turn: number, role: "user" | "assistant"): Evidence {
  return { session, turn, role, seq: seqOf(turn, role) };
}

/** Free turn slots of a session: never the first turn (the product always keeps it verbatim). */
function takeSlot(r: Rand, free: Set<number>[], session: number, minTurn = 1): number | null {
  const options = [...free[session]].filter((t) => t >= minTurn);
  if (options.length === 0) return null;
  const t = pick(r, options.sort((a, b) => a - b));
  free[session].delete(t);
  return t;
}

function generateUser(o: RecallCorpusOptions, index: number): RecallUser {
  const r = rng((o.seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const d = drawFor(r);
  const S = o.sessionsPerUser;
  const T = o.turnsPerSession;
  const sessions: RecallTurn[][] = Array.from({ length: S }, () =>
    Array.from({ length: T }, () => ({ user: chatUser(r), assistant: chatAssistant(r) })),
  );
  const free = sessions.map(() => new Set(Array.from({ length: T - 1 }, (_, i) => i + 1)));
  const questions: RecallQuestion[] = [];
  const keys = new Set<string>();
  const qid = () => `u${index}-q${questions.length}`;

  // Temporal pairs first (they need two slots in order): one per three sessions.
  const temporalCount = Math.min(TEMPORALS.length, Math.floor(S / 3), S > 0 && T > 2 ? S : 0);
  for (let k = 0; k < temporalCount; k++) {
    const t = TEMPORALS[k](d);
    const s1 = int(r, 0, S - 1);
    const s2 = int(r, s1, S - 1);
    const t1 = takeSlot(r, free, s1, 1);
    if (t1 === null) continue;
    const t2 = takeSlot(r, free, s2, s1 === s2 ? t1 + 1 : 1);
    if (t2 === null) {
      free[s1].add(t1);
      continue;
    }
    sessions[s1][t1] = { user: `${chatUser(r)} ${t.first}`, assistant: `${pick(r, ACKS)} ${chatAssistant(r)}` };
    sessions[s2][t2] = { user: t.later, assistant: `${pick(r, ACKS)} ${chatAssistant(r)}` };
    keys.add(t.key);
    questions.push({
      id: qid(), kind: "temporal", category: t.category, question: t.question, answers: t.answers,
      evidence: evidenceAt(s2, t2, "user"), askSession: s2, superseded: evidenceAt(s1, t1, "user"),
    });
  }

  for (let s = 0; s < S; s++) {
    for (let f = 0; f < o.factsPerSession; f++) {
      let fact: Fact | null = null;
      for (let attempt = 0; attempt < 20 && !fact; attempt++) {
        try {
          const candidate = pick(r, FACTS)(d);
          if (!keys.has(candidate.key)) fact = candidate;
        } catch (err) {
          if (!(err instanceof RetryFact)) throw err;
        }
      }
      const turn = fact ? takeSlot(r, free, s) : null;
      if (!fact || turn === null) continue;
      keys.add(fact.key);
      sessions[s][turn] =
        fact.role === "user"
          ? { user: r() < 0.5 ? fact.statement : `${chatUser(r)} ${fact.statement}`, assistant: `${pick(r, ACKS)} ${chatAssistant(r)}` }
          : { user: fact.prompt ?? chatUser(r), assistant: `${fact.statement} ${chatAssistant(r)}` };
      // About two in five are asked in a later session, when there is one.
      const cross = s < S - 1 && r() < 0.4;
      questions.push({
        id: qid(), kind: cross ? "cross" : "single", category: fact.category, question: fact.question, answers: fact.answers,
        evidence: evidenceAt(s, turn, fact.role), askSession: cross ? int(r, s + 1, S - 1) : s,
      });
    }
  }
  return { index, sessions, questions };
}

export function generateRecallCorpus(options: RecallCorpusOptions): RecallCorpus {
  if (options.turnsPerSession < 3) throw new Error("recall corpus: at least 3 turns per session");
  return { options, users: Array.from({ length: options.users }, (_, u) => generateUser(options, u)) };
}

/** The text of a message of the corpus, by session, turn and role. */
export function messageText(user: RecallUser, e: Pick<Evidence, "session" | "turn" | "role">): string {
  const t = user.sessions[e.session][e.turn];
  return e.role === "user" ? t.user : t.assistant;
}

/** A session as one plain transcript, the way a verbatim memory would hold it. */
export function transcript(turns: readonly RecallTurn[]): string {
  return turns.map((t) => `User: ${t.user}\nAssistant: ${t.assistant}`).join("\n\n");
}

/**
 * Lower case, thousands separators dropped ("$1,250" → "1250"), every other non-alphanumeric
 * run a single space, padded with spaces so whole-word containment is a plain `includes`.
 */
export function normalise(text: string): string {
  const flat = text
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  return ` ${flat} `;
}

/** Whether any answer string occurs, as whole words, in the (normalised) text. */
export function answerVisible(normalisedText: string, answers: readonly string[]): boolean {
  return answers.some((a) => normalisedText.includes(normalise(a)));
}
