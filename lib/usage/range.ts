// Splitting a time range into what the daily rollups can answer and what they cannot. The
// rollups hold whole UTC days; a range that starts or ends inside a day is answered for that
// day from the calls themselves, so every figure is exact to the millisecond while a year
// still reads a few rows per day. A range without an end ("up to now") has no partial day at
// its end: today's rollup rows already hold every call made so far, and none can be later.
import "server-only";
import type { Interval, RangeSplit } from "@/lib/db/usage/sums";

const DAY_MS = 86_400_000;

export const DEFAULT_RANGE_DAYS = 30;

/** Stands for "no end": later than any call, and a whole day, so it leaves no partial day. */
export const OPEN_END = new Date("9999-12-31T00:00:00Z");

export type { Interval, RangeSplit };

const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const dayText = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The requested range. Without `from`: the last DEFAULT_RANGE_DAYS UTC days, today included,
 * so a chart by day starts with a whole day. Without `to`: up to now (OPEN_END).
 */
export function resolveRange(q: { from?: Date; to?: Date }, now: Date = new Date()): Interval {
  const to = q.to ?? OPEN_END;
  const from = q.from ?? new Date(floorDay(q.to ?? now).getTime() - (DEFAULT_RANGE_DAYS - 1) * DAY_MS);
  return { from, to };
}

export function splitRange(range: Interval): RangeSplit {
  const { from, to } = range;
  const fromFloor = floorDay(from);
  const firstWhole = fromFloor.getTime() === from.getTime() ? fromFloor : new Date(fromFloor.getTime() + DAY_MS);
  const lastWholeEnd = floorDay(to);
  if (firstWhole.getTime() >= lastWholeEnd.getTime()) {
    // No whole day inside: everything comes from the calls.
    const day = dayText(firstWhole);
    return { range, wholeDays: { fromDay: day, toDay: day }, head: { from, to }, tail: { from: to, to } };
  }
  return {
    range,
    wholeDays: { fromDay: dayText(firstWhole), toDay: dayText(lastWholeEnd) },
    head: { from, to: firstWhole },
    tail: { from: lastWholeEnd, to },
  };
}
