// When something was said, and which time a question asks about. Pure (chrono-node parses).
import * as chrono from "chrono-node";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The time a message opens with, as a pasted or imported chat log gives each line
 * (`[2023-05-08 13:56] Ann: …`, `[08/05/2023, 13:56:01] Ann: …`, `[1:56 pm on 8 May, 2023] Ann: …`):
 * then that, not the moment it was stored, is when it was said. Null when the text does not
 * open with a full date (day, month and year).
 */
export function leadingTimestamp(text: string): Date | null {
  // Cheap refusal first: this runs for every message saved.
  const head = /^\s*\[([^\]\n]{6,60})\]/.exec(text) ?? /^\s*(\d[^\n]{5,40}?)(?=\s[-–—]\s|:\s|\]\s)/.exec(text);
  if (!head) return null;
  const [r] = chrono.parse(head[1], new Date(0));
  if (!r || r.index > 1 || !r.start.isCertain("year") || !r.start.isCertain("month") || !r.start.isCertain("day")) return null;
  return r.start.date();
}

export interface DateRange {
  from: Date;
  to: Date;
  /** The words that named it ("in May 2023", "last week"). */
  text: string;
}

function startOfDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/**
 * The time a question asks about ("in May 2023", "last week", "yesterday", "in 2019", "on
 * 24 May"), as a range of whole days against `now`; null when it names none. A month or day
 * without a year is the latest one not after `now`: a question asks about what was said.
 */
export function dateRangeIn(question: string, now: Date): DateRange | null {
  const year = /\b(?:in|during|since|from|of|by|around)\s+((?:19|20)\d{2})\b(?!\s*[-/.:]\d)/i.exec(question);
  const [r] = chrono.parse(question, now);
  if (!r) {
    if (!year) return null;
    const y = Number(year[1]);
    return { from: new Date(Date.UTC(y, 0, 1)), to: new Date(Date.UTC(y + 1, 0, 1) - 1), text: year[0] };
  }
  let start = r.start.date();
  const yearKnown = r.start.isCertain("year");
  if (!yearKnown && start.getTime() > now.getTime()) start = new Date(Date.UTC(start.getUTCFullYear() - 1, start.getUTCMonth(), start.getUTCDate()));
  const relative = r.tags().has("result/relativeDate") || /\b(?:week|weekend)\b/i.test(r.text);
  let from: Date;
  let to: Date;
  if (r.end) {
    from = startOfDay(start);
    to = new Date(startOfDay(r.end.date()).getTime() + DAY_MS - 1);
  } else if (/\bweek(?:end)?\b/i.test(r.text)) {
    // "last week", "last weekend": the seven days around the date chrono names.
    from = new Date(startOfDay(start).getTime() - 3 * DAY_MS);
    to = new Date(startOfDay(start).getTime() + 4 * DAY_MS - 1);
  } else if (r.start.isCertain("day") || relative) {
    from = startOfDay(start);
    to = new Date(from.getTime() + DAY_MS - 1);
  } else if (r.start.isCertain("month")) {
    from = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1));
    to = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1) - 1);
  } else {
    from = new Date(Date.UTC(start.getUTCFullYear(), 0, 1));
    to = new Date(Date.UTC(start.getUTCFullYear() + 1, 0, 1) - 1);
  }
  return { from, to, text: r.text };
}
