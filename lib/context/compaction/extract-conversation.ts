// Extractors for the facts of an ordinary conversation: people, places, dates and times,
// quantities, and the user's commitments, preferences and events. Development chats have
// their own extractors; these read prose only (code blocks and inline code are blanked out
// before they run), so identifiers and log lines never turn into names or dates.
// Precision first: a name that is not a name costs summary budget and shows up as a false loss.
import { type Found, wordCount } from "./extract-statements";
import { capText, normalizeWs, type Located } from "./prose";

const SENTENCE_CHARS = 300;
const isQuestion = (s: string) => /\?["')\]]?$/.test(s);

// ---------------------------------------------------------------- date_time

const WEEKDAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
// Only an abbreviation takes a dot: "in March." ends a sentence, "Mar. 3" is a date.
const MONTH = "(?:January|February|March|April|June|July|August|September|October|November|December|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?)";
const DAY = "(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th)?";
const YEAR = "(?:19|20)\\d\\d";
// "May" is also a verb: as a month it needs a day number or a preposition before it.
const MAY = "(?:(?<=\\b(?:in|of|since|until|by|early|late|mid|next|last|this|from)\\s)May(?!\\s+(?:I|we|you|he|she|they|be)\\b)|May(?=\\s+" + DAY + "\\b))";
const MONTHS = `(?:${MONTH}|${MAY})`;
const DATE_RES: RegExp[] = [
  // March 3, March 3rd 2024, March 2024, mid-March
  new RegExp(`(?<![\\w-])${MONTHS}(?:\\s+${DAY}(?![\\w:]))?(?:,?\\s+${YEAR})?(?![\\w])`, "g"),
  // 3 March, 3rd of March 2024
  new RegExp(`(?<![\\w.:/-])${DAY}(?:\\s+of)?\\s+${MONTHS}(?:,?\\s+${YEAR})?(?![\\w])`, "g"),
  new RegExp(`(?<![\\w-])${WEEKDAY}s?(?![\\w])`, "g"),
  // ISO and slashed dates with a year; not inside paths, versions or times.
  /(?<![\w.\/:@-])(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:[0-2]\d|3[01])(?![\w\/-]|\.\w|:\d)/g,
  /(?<![\w.\/:@-])(?:[0-2]?\d|3[01])\/(?:[0-2]?\d|3[01])\/(?:19|20)?\d\d(?![\w\/-]|\.\w)/g,
  /(?<![\w.\/:@-])(?:[0-2]?\d|3[01])\.(?:[0-2]?\d|3[01])\.(?:19|20)\d\d(?![\w\/-]|\.\w)/g,
  // 3pm, 10:30 am, 15:30; a colon time must not be part of file:line:col.
  /(?<![\w.:\/-])(?:1[0-2]|0?[1-9])(?::[0-5]\d)?\s?(?:a\.m\.|p\.m\.|am|pm)(?![\w])/gi,
  /(?<![\w.:\/-])(?:[01]?\d|2[0-3]):[0-5]\d(?![\w:.\/])/g,
  /\b(?:noon|midnight|tonight|tomorrow(?: (?:morning|afternoon|evening|night))?|yesterday(?: (?:morning|afternoon|evening))?|this (?:morning|afternoon|evening|weekend)|(?:next|last|this) (?:week|month|year|weekend|summer|winter|spring|fall|autumn)|in (?:a|one|two|three|four|five|six|\d{1,2}) (?:days?|weeks?|months?|years?)|(?:one|two|three|four|five|six|\d{1,2}) (?:days?|weeks?|months?|years?) ago)\b/gi,
  new RegExp(`\\b(?:in|since|until|by|from|of|during|before|after|around)\\s+(${YEAR})(?![\\w.\\-/])`, "g"),
  /\b(?:Christmas(?: Eve)?|New Year['’]s(?: Eve| Day)?|Thanksgiving|Easter|Halloween|Valentine['’]s Day|Hanukkah|Ramadan|Diwali|Independence Day|Labor Day|Memorial Day)\b/g,
];

/** Dates, weekdays, times of day, relative times ("next week") and holidays, as written. */
// Every date pattern holds a digit, a capitalised name or one of these words.
const MAYBE_DATE_RE = /\d|[A-Z][a-z]|\b(?:noon|midnight|tonight|tomorrow|yesterday|this|next|last|in|ago)\b/;

export function dateTimes(prose: string): Found[] {
  const out: Found[] = [];
  if (!MAYBE_DATE_RE.test(prose)) return out;
  for (const re of DATE_RES) {
    for (const m of prose.matchAll(re)) {
      // A bare year is the group; everything else is the whole match.
      const text = (m[1] ?? m[0]).trim();
      const index = m.index + m[0].indexOf(text);
      if (text.length >= 3) out.push({ kind: "date_time", text, index });
    }
  }
  return out;
}

// ---------------------------------------------------------------- quantity

const NUM = "(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?";
const WORD_NUM = "(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a dozen|dozens of|a hundred|hundreds of|a thousand)";
const UNITS =
  "%|percent|per cent|km|kilomet(?:er|re)s?|miles?|mi|meters?|metres?|cm|mm|ft|feet|foot|inch(?:es)?|kg|kilos?|kilograms?|grams?|g|lbs?|pounds?|oz|ounces?|liters?|litres?|ml|gallons?|mph|km/h|°[CF]|degrees|hours?|hrs?|minutes?|mins?|seconds?|secs?|days?|nights?|weeks?|months?|years?(?: old)?|yrs?|calories|kcal|steps|laps|reps|servings?";
const COUNT_NOUNS =
  "people|persons|kids|children|sons|daughters|siblings|brothers|sisters|guests|friends|dogs|cats|pets|books|times|tickets|rooms|bedrooms|bathrooms|floors|cars|employees|members|players|teams|classes|lessons|courses|pages|chapters|songs|cups|glasses|bottles|slices|eggs|copies|boxes|stores|shops|countries|cities|languages|plants|trees|miles|acres|games|matches|goals|points|medals|awards|photos|paintings|trips|visits";
const MONEY_RES: RegExp[] = [
  new RegExp(`(?<![\\w$€£¥])[$€£¥]\\s?${NUM}(?:\\s?(?:k|K|m|M|bn|million|billion|thousand))?(?![\\w])`, "g"),
  new RegExp(`(?<![\\w.@\\/=:-])${NUM}\\s?(?:k\\s)?(?:dollars|euros|pounds sterling|bucks|USD|EUR|GBP|CHF|JPY|yen|cents)\\b`, "g"),
];
const MEASURE_RE = new RegExp(`(?<![\\w.@\\/=:#-])${NUM}[ -]?(?:${UNITS})(?![\\w/])`, "g");
const COUNT_RE = new RegExp(`(?<![\\w.@\\/=:#-])(?:${NUM}|${WORD_NUM})\\s(?:(?:[a-z]+\\s)?(?:${COUNT_NOUNS}))\\b`, "gi");
const WORD_MEASURE_RE = new RegExp(`\\b${WORD_NUM}\\s(?:hours|days|nights|weeks|months|years(?: old)?|miles|kilometers|kilometres|minutes)\\b`, "gi");

// Latencies, sizes and item counts (ms, GB, "200 items") are a development chat's measurements,
// not the facts of a conversation: left out, so they do not crowd the budget of its own items.
const HAS_NUMBER_RE = /\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|thousand)\b/i;

/** Money, measures with a unit, percentages and counts of things ("3 kids", "two weeks"). */
export function quantities(prose: string): Found[] {
  const out: Found[] = [];
  if (!HAS_NUMBER_RE.test(prose)) return out;
  for (const re of [...MONEY_RES, MEASURE_RE, COUNT_RE, WORD_MEASURE_RE]) {
    for (const m of prose.matchAll(re)) out.push({ kind: "quantity", text: normalizeWs(m[0]), index: m.index });
  }
  return out;
}

// ---------------------------------------------------------------- person & place

// Capitalised words that start sentences or name times, not people or places.
const NOT_NAMES = new Set(
  (
    "I I'm I've I'll I'd We He She They You It Everyone Someone Nobody The A An And But So Or If Then When While After Before Also Yes No Not Ok Okay Thanks Thank Hi Hello Hey Dear " +
    "My Our Your His Her Their Its This That These Those There Here What Who Why How Which Where Today Tomorrow Yesterday Tonight " +
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December " +
    "Christmas Easter Halloween Thanksgiving God Mom Dad Mum Please Sorry Sure Great Well Oh Just Maybe Last Next Every Some Any All One Two"
  ).split(" "),
);
const NAME_WORD = "[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)?";
const NAME = `${NAME_WORD}(?:\\s(?:de|da|van|von|del|la|le|St\\.)?\\s?${NAME_WORD}){0,2}`;
const TITLE_RE = new RegExp(`\\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|Professor|Aunt|Uncle|Grandma|Grandpa|Coach|Officer|Captain|Pastor|Father|Sister|Rabbi|Judge)\\.?\\s(${NAME})`, "g");
const RELATION = "sister|brother|mom|mother|dad|father|wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|son|daughter|kid|baby|friend|best friend|colleague|co-?worker|boss|manager|neighbou?r|cousin|aunt|uncle|niece|nephew|grandmother|grandfather|grandma|grandpa|roommate|flatmate|therapist|doctor|dentist|teacher|coach|tutor|mentor|landlord|dog|puppy|cat|kitten|horse|parrot";
const RELATION_RE = new RegExp(`\\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\\s(?:(?:little|older|younger|big|new|old|best)\\s)?(?:${RELATION})(?:,\\s|\\s(?:named|called|is\\s)?\\s?)(${NAME})`, "g");
const SOCIAL_BEFORE_RE = new RegExp(
  `\\b(?:(?:met|meet|meeting|lunch|dinner|coffee|drinks|talked|spoke|chatted|hanging out|hung out|dating|married|engaged|played|traveling|travelling|living|stayed|staying)\\s(?:up\\s)?with|married|dating|texted|called|emailed|invited|asked|told|thanked|hugged|visited)\\s(${NAME})(?![\\w.]*\\()`,
  "g",
);
const SOCIAL_AFTER_RE = new RegExp(
  `(?<![\\w.])(${NAME})(?:\\s(?:said|says|told|tells|asked|asks|texted|called|emailed|invited|recommended|suggested|thinks|wants|loves|hates|is my|was my|and I\\b|will join|is coming|came over|got married|got engaged|just had)|['’]s\\s(?:birthday|wedding|party|mom|dad|mother|father|house|place|apartment|husband|wife|kids|son|daughter|graduation|funeral))`,
  "g",
);
const PLACE_BEFORE_RE = new RegExp(
  `\\b(?:live|lives|lived|living|based|born|raised|grew up|stayed|staying|stay|moved|moving|move|relocated|relocating|flew|flying|fly|flight|trip|road trip|travel(?:l)?ed|travel(?:l)?ing|travel|went|going|go|drove|drive|driving|visited|visiting|visit|vacation|vacationing|holiday|honeymoon|weekend|back|arrived|arrive|landed|headed|heading|hometown|apartment|house|office|wedding|conference)\\s(?:to|in|at|from|near|around|through|into)?\\s?(?:the\\s)?(${NAME})(?!['’]s|\\s(?:said|told|and I)\\b)`,
  "g",
);
const PLACE_IN_RE = new RegExp(`\\b(?:married|engaged|met|wedding|honeymoon|ceremony|party|concert|dinner|lunch|class|school|studied|work|works|worked|working|job)\\s(?:in|at)\\s(?:the\\s)?(${NAME})(?!['’]s)`, "g");
const PLACE_SUFFIX_RE = new RegExp(
  `(?<![\\w.])((?:${NAME_WORD}\\s){1,3}(?:City|Park|Street|St\\.|Avenue|Ave\\.|Road|Rd\\.|Lake|River|Mountains?|Beach|Island|Bridge|Hospital|University|College|Airport|Station|Museum|Cafe|Café|Restaurant|Bay|Valley|Square|Center|Centre|Stadium|Hotel|Mall|Market|Library|Zoo))(?![\\w])`,
  "g",
);
// Places often named without a verb before them; small on purpose (common travel and home places).
const KNOWN_PLACES = new Set(
  (
    "London Paris Berlin Madrid Lisbon Porto Rome Milan Vienna Prague Amsterdam Brussels Dublin Edinburgh Copenhagen Stockholm Oslo Helsinki Warsaw Budapest Athens Istanbul " +
    "Zurich Geneva Barcelona Munich Hamburg Tokyo Kyoto Osaka Seoul Beijing Shanghai Singapore Bangkok Bali Sydney Melbourne Auckland Delhi Mumbai Dubai Cairo " +
    "Toronto Vancouver Montreal Chicago Boston Seattle Austin Denver Miami Atlanta Houston Dallas Portland Nashville Phoenix Brooklyn Manhattan Hawaii Alaska California Texas Florida " +
    "Mexico Canada Brazil Argentina Peru Chile Colombia Japan China India Korea Thailand Vietnam Australia Spain Portugal France Germany Italy Greece Ireland Scotland England Wales " +
    "Norway Sweden Finland Denmark Iceland Netherlands Belgium Switzerland Austria Poland Turkey Egypt Morocco Kenya Europe Asia Africa"
  ).split(" "),
);
const MULTI_WORD_PLACES_RE = /\b(?:New York(?: City)?|Los Angeles|San Francisco|San Diego|Las Vegas|New Orleans|Hong Kong|Cape Town|Buenos Aires|Rio de Janeiro|Mexico City|Washington,? D\.?C\.?|New Zealand|South Africa|United States|United Kingdom|Costa Rica|Puerto Rico)\b/g;

/** A name as found, minus leading sentence words ("Then Anna" → "Anna"). */
function cleanName(raw: string): string | null {
  const words = raw.split(/\s+/);
  while (words.length > 0 && NOT_NAMES.has(words[0])) words.shift();
  while (words.length > 0 && NOT_NAMES.has(words[words.length - 1])) words.pop();
  const name = words.join(" ");
  return name.length >= 2 && !NOT_NAMES.has(name) ? name : null;
}

function named(kind: "person" | "place", prose: string, re: RegExp, out: Found[]): void {
  for (const m of prose.matchAll(re)) {
    const name = cleanName(m[1]);
    if (name) out.push({ kind, text: name, index: m.index + m[0].indexOf(m[1]) + m[1].indexOf(name) });
  }
}

/** People named with a title, a relation ("my sister Anna") or a social verb ("met Tom", "Anna said"). */
export function people(prose: string): Found[] {
  const out: Found[] = [];
  if (!/[A-Z][a-z]/.test(prose)) return out;
  for (const re of [TITLE_RE, RELATION_RE, SOCIAL_BEFORE_RE, SOCIAL_AFTER_RE]) named("person", prose, re, out);
  // A title belongs to the name: "Dr. Patel", not "Patel".
  for (const m of prose.matchAll(TITLE_RE)) out.push({ kind: "person", text: normalizeWs(m[0]), index: m.index });
  return out.filter((f) => !KNOWN_PLACES.has(f.text));
}

/** Places after a travel or home verb ("moved to Lisbon"), with a place word ("Golden Gate Park"), or well known. */
export function places(prose: string): Found[] {
  const out: Found[] = [];
  if (!/[A-Z][a-z]/.test(prose)) return out;
  named("place", prose, PLACE_BEFORE_RE, out);
  named("place", prose, PLACE_IN_RE, out);
  named("place", prose, PLACE_SUFFIX_RE, out);
  for (const m of prose.matchAll(MULTI_WORD_PLACES_RE)) out.push({ kind: "place", text: m[0], index: m.index });
  for (const m of prose.matchAll(/(?<![\w.\/-])[A-Z][a-z]+(?![\w.\/-]|\.\w)/g)) if (KNOWN_PLACES.has(m[0])) out.push({ kind: "place", text: m[0], index: m.index });
  return out;
}

// ---------------------------------------------------------------- commitment, preference, event

const COMMITMENT_RE =
  /\b(?:I(?:['’]ll| will| shall| am going to|['’]m going to|['’]m gonna| plan to|['’]m planning to| am planning to| have to| need to| must| promised| intend to|['’]ve got to|['’]m supposed to)|we(?:['’]ll| will|['’]re going to| are going to| plan to|['’]re planning to| have to| need to| promised)|remind me|don['’]t (?:let me )?forget|my plan is|our plan is)\b/i;
// Present tense for the future: "I'm flying to Porto on Friday" is a plan only with a time in it.
const PLANNED_RE = /\b(?:I['’]m|I am|we['’]re|we are) (?:meeting|seeing|flying|leaving|heading|starting|taking|visiting|hosting|moving|driving|getting|having|going)\b/i;
const PREFERENCE_RE =
  /\b(?:(?:I|we) (?:(?:really|absolutely|usually|generally|much|also|still|do|don['’]t|do not|never|always|definitely|kind of|totally|honestly)\s)*(?:prefer|like|love|enjoy|adore|hate|dislike|can['’]t stand|cannot stand|detest|loathe|avoid)|I['’]d (?:much )?rather|I['’]m (?:not )?(?:a (?:big |huge )?fan of|into|allergic|vegetarian|vegan|lactose intolerant)|I am (?:allergic|vegetarian|vegan)|my (?:least )?favou?rite)\b/i;
const PRONOUN_ONLY_RE = /\b(?:like|love|hate|prefer)s? (?:it|that|this|them|the idea|your|you)\b/i;
const EVENT_NOUN_RE =
  /\b(?:birthday|wedding|anniversary|party|concert|festival|conference|meetup|appointment|interview|exam|graduation|funeral|ceremony|trip|vacation|holiday|flight|surgery|race|marathon|recital|premiere|reunion|dinner|lunch|retreat|workshop|hike|camping|game|match|show|date)s?\b/i;
const STRONG_LIFE_RE =
  /\b(?:I|we|my \w+)\s(?:just |finally |recently |already |officially )?(?:adopted|graduated|got (?:married|engaged|promoted|divorced|hired|fired|a new job)|moved|retired|was born|were born|gave birth|passed away|celebrated|attended|visited|travel(?:l)?ed|flew|hiked|joined|quit|signed up|volunteered|ran a marathon|won|lost my|broke up|proposed)\b/i;
const WEAK_LIFE_RE =
  /\b(?:I|we|my \w+)\s(?:just |finally |recently |already )?(?:went|started|finished|bought|sold|met|ran|took|saw|watched|read|cooked|baked|painted|wrote|had|signed|spent|booked|picked up|tried|learned|learnt|got)\b/i;

const ANY_STATEMENT = [PREFERENCE_RE, COMMITMENT_RE, PLANNED_RE, STRONG_LIFE_RE, WEAK_LIFE_RE, EVENT_NOUN_RE];

/**
 * The user's own statements of intent, taste and life: whole sentences, like decisions.
 * `anchored` says whether a sentence holds a date, name, place or amount, which the weaker
 * signals (a planned "I'm flying…", an everyday "I went…", an event noun) need.
 */
export function personalStatements(prose: string, sentences: () => readonly Located[], anchored: (s: Located) => boolean): Found[] {
  const out: Found[] = [];
  // Most messages carry none of the signals; testing the whole prose first skips their sentences.
  if (!ANY_STATEMENT.some((re) => re.test(prose))) return out;
  for (const s of sentences()) {
    if (isQuestion(s.text) || wordCount(s.text) < 3) continue;
    const text = capText(normalizeWs(s.text), SENTENCE_CHARS);
    const push = (kind: Found["kind"]) => out.push({ kind, text, index: s.index });
    if (PREFERENCE_RE.test(s.text) && !PRONOUN_ONLY_RE.test(s.text)) push("preference");
    else if (COMMITMENT_RE.test(s.text) || (PLANNED_RE.test(s.text) && anchored(s))) push("commitment");
    else if (STRONG_LIFE_RE.test(s.text) || ((WEAK_LIFE_RE.test(s.text) || EVENT_NOUN_RE.test(s.text)) && anchored(s))) push("event");
  }
  return out;
}

/** Inline code spans blanked (same length), so `createUser(Anna)` holds no person. */
export function withoutInlineCode(prose: string): string {
  return prose.includes("`") ? prose.replace(/`[^`\n]*`/g, (m) => " ".repeat(m.length)) : prose;
}
