// Splitting a time range into what the daily rollup can answer and what it cannot. The rollup
// holds whole UTC days; a range that starts or ends inside a day is answered for that day from
// the calls themselves, so every figure is exact to the millisecond while a year still reads a
// few rows per day.

const DAY_MS = 86_400_000;

export const DEFAULT_RANGE_DAYS = 30;

/** A half-open interval [from, to) of instants. */
export interface Interval {
  from: Date;
  to: Date;
}

export interface RangeSplit {
  range: Interval;
  /** Whole UTC days [fromDay, toDay) (YYYY-MM-DD), read from the rollup; empty when equal. */
  wholeDays: { fromDay: string; toDay: string };
  /** The partial days at either end, read from the calls; either may be empty (from = to). */
  head: Interval;
  tail: Interval;
}

const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const dayText = (d: Date) => d.toISOString().slice(0, 10);

/** The requested range, or the last DEFAULT_RANGE_DAYS days up to now. */
export function resolveRange(q: { from?: Date; to?: Date }, now: Date = new Date()): Interval {
  const to = q.to ?? now;
  const from = q.from ?? new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
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
