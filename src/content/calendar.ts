import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { PLANS } from '../plans.js';
import { loadBrandRow } from '../brand/readBrand.js';
import { loadTeamWorkspace } from '../team/seats.js';
import { readArticlePolicy, WEEKDAYS, type Weekday } from './policy.js';

export const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Flexible scheduling's range: 1 to 5 articles a day. */
export const MAX_ARTICLES_PER_DAY = 5;
/** Planning reaches to the end of the calendar month after the current one (UTC). */
const MONTHS_AHEAD = 1;

/** The first instant of the UTC calendar month `offset` months after the one `at` falls in. */
export function monthStart(at: number, offset = 0): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
}

/** `2026-11`: how months are named in answers. */
export function monthKey(at: number): string {
  return new Date(at).toISOString().slice(0, 7);
}

export function dayStart(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

export function weekdayOf(at: number): Weekday {
  return WEEKDAYS[(new Date(at).getUTCDay() + 6) % 7]!;
}

/** The end (exclusive) of the window slots are planned in: the first instant after the next calendar month. */
export function horizonEnd(now: number): number {
  return monthStart(now, MONTHS_AHEAD + 1);
}

function minutesOfDay(hhmm: string): number {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/**
 * An article holds its slot and counts against its month unless it was archived without ever being written: such a
 * row cost nothing and publishes nothing, like a deleted planned title. A written article that was archived still
 * used the month's allowance.
 */
function countedArticles(db: Kysely<Database>, workspaceId: string, from: number, to: number) {
  return db
    .selectFrom('articles')
    .where('workspace_id', '=', workspaceId)
    .where('scheduled_at', '>=', from)
    .where('scheduled_at', '<', to)
    .where((eb) => eb.or([eb('status', '!=', 'archived'), eb('written_at', 'is not', null)]));
}

/** Articles counted against the plan's monthly allowance in the UTC calendar month of `now`. */
export async function articlesInMonth(db: Kysely<Database>, workspaceId: string, now: number): Promise<number> {
  const row = await countedArticles(db, workspaceId, monthStart(now), monthStart(now, 1))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface CalendarRules {
  publishDays: Weekday[];
  /** `HH:MM` UTC. */
  publishTime: string;
  /** The policy's articlesPerDay when flexible scheduling is on, else 1. */
  slotsPerDay: number;
  flexibleScheduling: boolean;
  /** The plan's articlesPerMonth. */
  monthlyAllowance: number;
}

export async function loadCalendarRules(db: Kysely<Database>, workspaceId: string): Promise<CalendarRules> {
  const [policy, brand, workspace] = await Promise.all([readArticlePolicy(db, workspaceId), loadBrandRow(db, workspaceId), loadTeamWorkspace(db, workspaceId)]);
  const flexibleScheduling = brand.flexible_scheduling === 1;
  return {
    publishDays: policy.publishDays,
    publishTime: policy.publishTime,
    // A policy saved with several a day keeps that number, but it only applies while flexible scheduling is on.
    slotsPerDay: flexibleScheduling ? policy.articlesPerDay : 1,
    flexibleScheduling,
    monthlyAllowance: PLANS[workspace.plan].articlesPerMonth,
  };
}

/** The workspace's calendar from the start of the current month to the horizon: its rules and what is already booked. */
export interface Calendar {
  rules: CalendarRules;
  now: number;
  end: number;
  /** Counted articles per UTC day start. */
  perDay: Map<number, number>;
  /** Counted articles per month key. */
  perMonth: Map<string, number>;
}

/** `except`: an article left out of the counts (the one being moved). */
export async function loadCalendar(db: Kysely<Database>, workspaceId: string, now: number, except?: string): Promise<Calendar> {
  const end = horizonEnd(now);
  let booked = countedArticles(db, workspaceId, monthStart(now), end).select('scheduled_at');
  if (except !== undefined) booked = booked.where('id', '!=', except);
  const [rules, rows] = await Promise.all([loadCalendarRules(db, workspaceId), booked.execute()]);
  const perDay = new Map<number, number>();
  const perMonth = new Map<string, number>();
  for (const { scheduled_at: at } of rows) {
    perDay.set(dayStart(at), (perDay.get(dayStart(at)) ?? 0) + 1);
    perMonth.set(monthKey(at), (perMonth.get(monthKey(at)) ?? 0) + 1);
  }
  return { rules, now, end, perDay, perMonth };
}

/**
 * Every slot still open between now and the horizon, earliest first: publish days at the publish time, strictly after
 * now, `slotsPerDay` a day less what the day already holds, and no more in a month than its allowance has left.
 * A day with room for several gives its time once per free place.
 */
export function freeSlots(calendar: Calendar): number[] {
  const { rules, now, end, perDay, perMonth } = calendar;
  const offset = minutesOfDay(rules.publishTime) * MINUTE_MS;
  const allowanceLeft = new Map<string, number>();
  const slots: number[] = [];
  for (let day = dayStart(now); day < end; day += DAY_MS) {
    const slot = day + offset;
    if (slot <= now || !rules.publishDays.includes(weekdayOf(day))) continue;
    const month = monthKey(day);
    let left = allowanceLeft.get(month) ?? rules.monthlyAllowance - (perMonth.get(month) ?? 0);
    for (let open = rules.slotsPerDay - (perDay.get(day) ?? 0); open > 0 && left > 0; open--, left--) slots.push(slot);
    allowanceLeft.set(month, left);
  }
  return slots;
}

/** The earliest open slot, or null when the calendar is full up to the horizon. Call it inside a transaction that took lockWorkspace before booking. */
export async function nextFreeSlot(db: Kysely<Database>, workspaceId: string, now: number): Promise<number | null> {
  return freeSlots(await loadCalendar(db, workspaceId, now))[0] ?? null;
}
