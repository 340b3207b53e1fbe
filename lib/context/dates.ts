// When something was said, and what its relative dates ("yesterday", "last week", "next
// Friday") meant then. A summary or a fact read months later must say "20 January 2022", not
// "yesterday". Pure; chrono-node does the parsing. Dates are local-time calendar days: a
// transcript's "1:56 pm on 8 May, 2023" is a wall-clock time with no zone to convert from.
import * as chrono from "chrono-node";

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "21 January 2022". */
export function formatDay(d: Date): string {
  return `${d.getDate()} ${MONTH_NAMES[d.getMonth()]} ${d.getFullYear()}`;
}

/** "January 2022". */
export function formatMonth(d: Date): string {
  return `${MONTH_NAMES[d.getMonth()]} ${d.getFullYear()}`;
}

const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());

// ------------------------------------------------------------------ leading timestamps

// "[2023-05-08 13:56] Ann: …", "[08/05/2023, 13:56:01] Ann: …", "[1:56 pm on 8 May, 2023] Ann: …",
// and the bracketless "08/05/2023, 13:56 - Ann: …" of exported phone chats.
const BRACKET_RE = /^[ \t]*\[([^\]\n]{6,48})\][ \t]*/;
const DASH_RE = /^[ \t]*(\d{1,2}[./]\d{1,2}[./]\d{2,4},?[ \t]+\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[AaPp]\.?[Mm]\.?)?)[ \t]+[-–][ \t]+/;
const SLASHED_RE = /^(\d{1,2})[./](\d{1,2})[./]\d{2,4}/;

/**
 * A timestamp as chat exports write it, or null when it is not one whole date with a year.
 * Slashed dates are read day first (as most chat exports outside the US write them) unless
 * the numbers or a 12-hour clock say month first.
 */
export function parseTimestamp(raw: string): Date | null {
  const text = raw.trim();
  // A log repeats its stamps (a session's, a minute's): parsed once each.
  const known = STAMPS.get(text);
  if (known !== undefined) return known === null ? null : new Date(known);
  if (STAMPS.size >= STAMP_CACHE) STAMPS.clear();
  const at = parseStamp(text);
  STAMPS.set(text, at ? at.getTime() : null);
  return at;
}

const STAMP_CACHE = 2_000;
const STAMPS = new Map<string, number | null>();

function parseStamp(text: string): Date | null {
  const slashed = SLASHED_RE.exec(text);
  let dayFirst = true;
  if (slashed) {
    const [a, b] = [Number(slashed[1]), Number(slashed[2])];
    dayFirst = a > 12 || (b <= 12 && !/\d\s?[ap]\.?m\b/i.test(text));
  }
  const [r] = (dayFirst ? chrono.en.GB : chrono.en).parse(text, new Date(2000, 0, 1));
  // The whole stamp must be the date: "[see notes, Friday]" is not a timestamp.
  if (!r || r.index > 4 || r.text.length < text.length * 0.7) return null;
  if (!r.start.isCertain("day") || !r.start.isCertain("month") || !r.start.isCertain("year")) return null;
  return r.start.date();
}

/** Words before a colon that label a line rather than name who speaks. */
const LABELS = new Set(
  ("note notes error errors warning warnings todo fixme tip update edit summary question answer example output input result results step fix " +
    "ps re subject reason cause status response request usage description solution problem issue context goal task tl;dr")
    .split(" "),
);
// Capitalised words, lower case after the first letter: "TypeError:" or "README:" name no one.
const SPEAKER_RE = /^[ \t]*(\p{Lu}[\p{Ll}'’.-]*(?:[ \t]\p{Lu}[\p{Ll}'’.-]*){0,2}):[ \t]+(?=\S)/u;

export interface TranscriptPrefix {
  /** When the line says it was said; null when it opens with a speaker only. */
  at: Date | null;
  speaker: string | null;
  /** Characters of the prefix (stamp, speaker, the spaces after them). */
  length: number;
}

/**
 * The "[timestamp] Speaker: " (or "Speaker: ") a pasted or imported chat line opens with.
 * A capitalised name before a colon counts as a speaker; words that label a line ("Error:",
 * "Note:") do not.
 */
export function transcriptPrefix(line: string): TranscriptPrefix | null {
  const stamp = BRACKET_RE.exec(line) ?? DASH_RE.exec(line);
  const at = stamp ? parseTimestamp(stamp[1]) : null;
  const offset = at && stamp ? stamp[0].length : 0;
  const sp = SPEAKER_RE.exec(line.slice(offset));
  const speaker = sp && !LABELS.has(sp[1].toLowerCase()) ? sp[1] : null;
  if (!at && !speaker) return null;
  return { at, speaker, length: offset + (speaker && sp ? sp[0].length : 0) };
}

/** The date a text opens with as a transcript timestamp, or null. */
export function parseLeadingTimestamp(text: string): Date | null {
  return transcriptPrefix(text)?.at ?? null;
}

/** When a message was said: the timestamp it opens with (a pasted log), else when it was stored. */
export function saidAt(text: string, createdAt?: Date | string | null): Date | null {
  const stamped = parseLeadingTimestamp(text);
  if (stamped) return stamped;
  if (!createdAt) return null;
  const d = createdAt instanceof Date ? createdAt : new Date(createdAt);
  return Number.isNaN(d.getTime()) ? null : d;
}

const MONTH_RE = MONTH_NAMES.join("|");
const WHOLE_DATE_RE = new RegExp(`\\b(?:\\d{1,2}(?:st|nd|rd|th)? (?:${MONTH_RE}),? \\d{4}|(?:${MONTH_RE}) \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}|\\d{4}-\\d\\d-\\d\\d)\\b`);

/**
 * The ways a text holding a whole date ("the week before 21 January 2022") is commonly
 * written: the date as "21 January 2022", "January 21, 2022", "21 Jan 2022", "Jan 21, 2022",
 * "2022-01-21", the rest as is. Just the text when it holds no whole date.
 */
export function dateForms(text: string): string[] {
  // The date itself, not the phrase around it ("the week before …" would read as a week earlier).
  const r = WHOLE_DATE_RE.exec(text);
  const parsed = r && chrono.en.GB.parse(r[0], new Date(2000, 0, 1))[0];
  if (!r || !parsed || !parsed.start.isCertain("day")) return [text];
  const d = parsed.start.date();
  const month = MONTH_NAMES[d.getMonth()];
  const short = month.slice(0, 3);
  const iso = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  const forms = [formatDay(d), `${month} ${d.getDate()}, ${d.getFullYear()}`, `${month} ${d.getDate()} ${d.getFullYear()}`, `${d.getDate()} ${short} ${d.getFullYear()}`, `${short} ${d.getDate()}, ${d.getFullYear()}`, iso];
  const before = text.slice(0, r.index);
  const after = text.slice(r.index + r[0].length);
  return [text, ...forms.map((f) => `${before}${f}${after}`)].filter((f, i, all) => all.indexOf(f) === i);
}

// ------------------------------------------------------------------ dates in a sentence

export type DateGrain = "day" | "week" | "weekend" | "month" | "season" | "year";

export interface DateMention {
  /** As written, and where. */
  text: string;
  index: number;
  grain: DateGrain;
  /** The days it covers: start inclusive, end exclusive (local midnight). */
  start: Date;
  end: Date;
  /** Needs the reference date to mean anything ("last week", "on Friday", "in March"). */
  relative: boolean;
  /** What it meant, written absolutely: "20 January 2022", "the week before 21 January 2022". */
  absolute: string;
}

// A sentence without any of these holds no date chrono would find: most sentences, skipped cheaply.
const DATEISH_RE =
  /\d|\b(?:yesterday|today|tonight|tomorrow|ago|last|next|this|past|weeks?|weekends?|months?|years?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|summer|winter|spring|fall|autumn)\b/i;
const SAME_DAY_RE = /^(?:today|tonight|now|this (?:morning|afternoon|evening)|(?:at|by|around) .*|\d.*(?:am|pm|:\d\d).*)$/i;
const FUTURE_RE = /\b(?:will|['’]ll|shall|going to|gonna|plan(?:ning)? to|hope to|want to|can['’]t wait|looking forward|excited to|next|tomorrow|upcoming|coming)\b/i;
const WEEKDAY_RE = /\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\b/i;
const VAGUE_RE = /\b(?:a few|few|several|couple(?: of)?|some)\b/i;
// "May" is also a verb: a month without a year counts after a preposition or before a day.
const MONTH_CONTEXT_RE = /\b(?:in|of|since|until|till|by|early|late|mid|next|last|this|from|during|before|after|around|on|past)[ -]$/i;
const SEASON_RE = /\b(last|this|next|past) (summer|winter|spring|fall|autumn)\b/gi;

function grainOf(t: string): DateGrain {
  if (/\bweekends?\b/.test(t)) return "weekend";
  if (/\bweeks?\b/.test(t)) return "week";
  if (/\bmonths?\b/.test(t)) return "month";
  if (/\byears?\b/.test(t)) return "year";
  return "day";
}

function span(grain: DateGrain, d: Date): { start: Date; end: Date } {
  const day = startOfDay(d);
  switch (grain) {
    case "day":
      return { start: day, end: addDays(day, 1) };
    case "week": {
      const monday = addDays(day, -((day.getDay() + 6) % 7));
      return { start: monday, end: addDays(monday, 7) };
    }
    case "weekend": {
      const saturday = addDays(day, day.getDay() === 0 ? -1 : 6 - day.getDay());
      return { start: saturday, end: addDays(saturday, 2) };
    }
    case "month":
      return { start: new Date(d.getFullYear(), d.getMonth(), 1), end: new Date(d.getFullYear(), d.getMonth() + 1, 1) };
    case "season":
      return { start: new Date(d.getFullYear(), d.getMonth(), 1), end: new Date(d.getFullYear(), d.getMonth() + 3, 1) };
    case "year":
      return { start: new Date(d.getFullYear(), 0, 1), end: new Date(d.getFullYear() + 1, 0, 1) };
  }
}

/** How a relative mention reads absolutely, said on `ref`. */
function absoluteText(t: string, grain: DateGrain, d: Date, ref: Date): string {
  const vague = VAGUE_RE.test(t);
  const unit = grain === "weekend" ? "week" : grain;
  if (vague && /\bago\b/.test(t)) return `a few ${unit}s before ${grain === "year" ? ref.getFullYear() : grain === "month" ? formatMonth(ref) : formatDay(ref)}`;
  if (vague) return `a few ${unit}s after ${formatDay(ref)}`;
  const approx = /\b(?:ago|in)\b/.test(t) && grain !== "day" ? "around " : "";
  switch (grain) {
    case "day":
      return formatDay(d);
    case "week":
      if (/\b(?:last|past|previous)\b/.test(t)) return `the week before ${formatDay(ref)}`;
      if (/\bnext\b/.test(t)) return `the week after ${formatDay(ref)}`;
      if (/\bthis\b/.test(t)) return `the week of ${formatDay(ref)}`;
      return `${approx}${formatDay(d)}`;
    case "weekend":
      return `the weekend of ${formatDay(span("weekend", d).start)}`;
    case "month":
      return `${approx}${formatMonth(d)}`;
    case "season":
    case "year":
      return `${approx}${d.getFullYear()}`;
  }
}

/** "last summer" said in January 2022 is summer 2021 (seasons as in the northern hemisphere). */
function seasonMentions(text: string, ref: Date): DateMention[] {
  const startMonth: Record<string, number> = { spring: 2, summer: 5, fall: 8, autumn: 8, winter: 11 };
  const out: DateMention[] = [];
  for (const m of text.matchAll(SEASON_RE)) {
    const which = m[1].toLowerCase();
    const season = m[2].toLowerCase();
    const month = startMonth[season];
    // The season this year; "last" steps back a year when it has not started yet, "next" forward when it has.
    let year = ref.getFullYear() - (season === "winter" && ref.getMonth() < 2 ? 1 : 0);
    const started = new Date(year, month, 1) <= ref;
    if ((which === "last" || which === "past") && started === false) year--;
    if ((which === "last" || which === "past") && started && ref < new Date(year, month + 3, 1)) year--;
    if (which === "next" && started) year++;
    const start = new Date(year, month, 1);
    const label = season === "winter" ? `winter ${year}–${String(year + 1).slice(2)}` : `${season} ${year}`;
    out.push({ text: m[0], index: m.index, grain: "season", start, end: new Date(year, month + 3, 1), relative: true, absolute: label });
  }
  return out;
}

/**
 * What chrono reads of a sentence: a real one is far shorter, and chrono's cost grows faster
 * than the text (1 MB of dates took seconds). Mentions past it stay as written.
 */
const DATE_SCAN_CHARS = 2_000;

/**
 * The dates a sentence mentions, said on `ref`: relative ones resolved ("last week" said on
 * 21 January 2022 is the week before it), absolute ones as written. Times of day and "today"
 * are left out: they add nothing to the day the sentence was said.
 */
export function dateMentions(whole: string, ref: Date): DateMention[] {
  const sentence = whole.length > DATE_SCAN_CHARS ? whole.slice(0, DATE_SCAN_CHARS) : whole;
  if (!DATEISH_RE.test(sentence)) return [];
  const future = FUTURE_RE.test(sentence);
  const out: DateMention[] = [];
  // The words just before a mention; testing `$`-anchored patterns on the whole prefix instead
  // re-read the sentence for every mention.
  const before = (index: number) => sentence.slice(Math.max(0, index - 40), index);
  for (const r of chrono.parse(sentence, ref, { forwardDate: future })) {
    const t = r.text.toLowerCase();
    // "every Monday", "on Mondays": a routine, not a date.
    if (/\b(?:every|each)\s+(?:other\s+)?$/i.test(before(r.index)) || /^(?:every|each)\b/.test(t) || /(?:mon|tues|wednes|thurs|fri|satur|sun)days\b/.test(t)) continue;
    if (SAME_DAY_RE.test(t) || !(r.start.isCertain("day") || r.start.isCertain("weekday") || r.start.isCertain("month") || /\b(?:week|month|year)s?\b/.test(t))) continue;
    // chrono marks a resolved "last week" certain to the day: only a written year makes a date absolute.
    const hasYear = /\b\d{4}\b|['’]\d\d\b/.test(t);
    const monthOnly = !hasYear && r.start.isCertain("month") && !r.start.isCertain("day") && !/\b(?:last|next|this|ago|week|month|year)s?\b/.test(t);
    // A month name without a year must look like a date, not the verb "may" or "march".
    if (monthOnly && !/^[A-Z]/.test(r.text.replace(/^(?:on|in|the)\s+/i, "")) ) continue;
    if (monthOnly && !/\d/.test(t) && !MONTH_CONTEXT_RE.test(before(r.index))) continue;
    // "for 3 years" is a duration, not a date: a span of weeks, months or years needs an anchor.
    if (/\b(?:weeks?|months?|years?)\b/.test(t) && !/\b(?:ago|last|next|this|past|previous|in|within|coming|later|earlier)\b/.test(t)) continue;
    let grain = grainOf(t);
    let d = r.start.date();
    if (grain === "day" && !r.start.isCertain("day") && !r.start.isCertain("weekday")) grain = r.start.isCertain("month") ? "month" : "year";
    // A bare weekday in a sentence about the past is the last one, not the next.
    if (!future && WEEKDAY_RE.test(t) && !/\b(?:next|this)\b/.test(t) && startOfDay(d) > startOfDay(ref)) d = addDays(d, -7);
    const { start, end } = span(grain, d);
    const relative = !hasYear;
    out.push({ text: r.text, index: r.index, grain, start, end, relative, absolute: relative ? absoluteText(t, grain, d, ref) : r.text });
  }
  for (const s of seasonMentions(sentence, ref)) if (!out.some((o) => o.index <= s.index && s.index < o.index + o.text.length)) out.push(s);
  return out.sort((a, b) => a.index - b.index);
}

const YEAR_ASKED_RE = /\b(?:in|during|since|from|of|by|around)\s+((?:19|20)\d{2})\b(?!\s*[-/.:]\d)/i;

/**
 * The days a question asks about ("in May 2023", "last week", "yesterday", "in 2019"): start
 * inclusive, end exclusive; null when it names no time. A question asks about what was said,
 * so a month without a year is the latest one that has begun by `now`.
 */
export function askedRange(question: string, now: Date): { start: Date; end: Date } | null {
  const [m] = dateMentions(question, now);
  if (m) {
    if (m.relative && m.grain === "month" && m.start > now) return span("month", new Date(m.start.getFullYear() - 1, m.start.getMonth(), 1));
    return { start: m.start, end: m.end };
  }
  const year = YEAR_ASKED_RE.exec(question);
  return year ? span("year", new Date(Number(year[1]), 0, 1)) : null;
}

/**
 * The sentence with each relative date followed by what it meant when said on `ref`:
 * "I won it last week" → "I won it last week (the week before 21 January 2022)". The words
 * as said stay (they carry the tense); a mention already followed by a bracket is left
 * alone, so resolving twice changes nothing.
 */
export function resolveRelativeDates(sentence: string, ref: Date): string {
  let out = "";
  let at = 0;
  for (const m of dateMentions(sentence, ref)) {
    const end = m.index + m.text.length;
    if (!m.relative || m.index < at || /^\s*\(/.test(sentence.slice(end))) continue;
    out += `${sentence.slice(at, end)} (${m.absolute})`;
    at = end;
  }
  return out + sentence.slice(at);
}
