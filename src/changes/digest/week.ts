import { DAY_MS, isoDate, utcDay } from '../../shared/time.js';
import { dayIn, wallTimeToIso } from '../../web/format.js';

const WEEK_MS = 7 * DAY_MS;

/** A digest's week: Monday 00:00 UTC to the end of Sunday UTC. `key` (its Monday) names it in digest_sends. */
export interface DigestWeek {
  key: string;
  /** UTC midnight of the Monday, and of the Sunday. */
  from: number;
  to: number;
}

function weekStarting(monday: number): DigestWeek {
  return { key: isoDate(monday), from: monday, to: monday + 6 * DAY_MS };
}

/** The week (Monday to Sunday, UTC) an instant falls in. */
export function weekOf(instant: number): DigestWeek {
  const day = utcDay(instant);
  // 1970-01-01 was a Thursday: days since then, shifted so that Monday is 0.
  const sinceMonday = (Math.floor(day / DAY_MS) + 3) % 7;
  return weekStarting(day - sinceMonday * DAY_MS);
}

/** The last week that has ended at `now`. */
export function lastCompleteWeek(now: number): DigestWeek {
  return weekStarting(weekOf(now).from - WEEK_MS);
}

/** The week a YYYY-MM-DD day falls in (already checked to be a date). */
export function weekOfDate(date: string): DigestWeek {
  return weekOf(Date.parse(`${date}T00:00:00Z`));
}

/** The `count` weeks up to and including `week`, oldest first. */
export function weeksUpTo(week: DigestWeek, count: number): DigestWeek[] {
  return Array.from({ length: count }, (_, i) => weekStarting(week.from - (count - 1 - i) * WEEK_MS));
}

/** Whether the week has ended at `now` (a digest of a week still running would read half of it). */
export function weekEnded(week: DigestWeek, now: number): boolean {
  return now >= week.to + DAY_MS;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The last time at or before `now` that was `day` (0 Sunday .. 6 Saturday) at `hour`:00 on the wall clock of
 * `timeZone`. A wall time that a clock change skips takes the offset before it (wallTimeToIso).
 */
export function lastWallTime(now: number, timeZone: string, day: number, hour: number): number {
  const today = dayIn(now, timeZone);
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  const weekday = new Date(todayMs).getUTCDay();
  for (let back = (weekday - day + 7) % 7; ; back += 7) {
    const date = isoDate(todayMs - back * DAY_MS);
    const at = Date.parse(wallTimeToIso(`${date}T${pad(hour)}:00`, timeZone)!);
    if (at <= now) return at;
  }
}

/**
 * The week whose digest is due for a person at `now`, or null: the last week that has ended, once the person's day
 * and hour (in their time zone) have come after its end. A person far east of UTC whose Monday morning comes before
 * the UTC week ends gets that week's digest at their next Monday morning, never two digests on one day.
 */
export function dueWeek(now: number, setting: { timeZone: string; digestDay: number; digestHour: number }): DigestWeek | null {
  const week = lastCompleteWeek(now);
  const last = lastWallTime(now, setting.timeZone, setting.digestDay, setting.digestHour);
  return last >= week.to + DAY_MS ? week : null;
}
