import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { DAY_MS, isoDate } from '../../shared/time.js';
import type { MetricWindow } from '../../visibility/metrics/window.js';
import type { VisitSource } from '../referrers.js';
import { ENGAGED_SESSION_MS, weekKey } from './record.js';
import { SESSION_GAP_MS } from './visitors.js';

/** Returned with every figure of the own counter, so that no reader has to guess what was counted. */
export const COUNTER_DEFINITIONS = {
  pageViews: 'Page loads and single-page navigations the tracking loader reported; bots (isbot) are not counted.',
  uniqueVisitors:
    'Sum of daily unique visitors. A visitor is a hash of a random salt of the UTC day, the site, the client address and its user agent; ' +
    'the salt is never stored with the data and is deleted within 48 hours, so the same person on two days counts twice.',
  sessions: `Page views of one visitor with no gap over ${SESSION_GAP_MS / 60_000} minutes; a session also ends at UTC midnight, when the salt changes. Counted on the day it starts.`,
  bounceRate: `Share of sessions with one page view and under ${ENGAGED_SESSION_MS / 1000} seconds of visible time.`,
  averageTimeOnPage:
    'Visible time per page view in seconds: the time the page was in the foreground, reported when it is hidden or left, averaged over the page views that reported it.',
} as const;

const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);
const seconds = (ms: number, views: number) => (views === 0 ? null : Math.round(ms / views / 100) / 10);

export interface CounterTotals {
  pageViews: number;
  uniqueVisitors: number;
  sessions: number;
  bounceRate: number | null;
  averageTimeOnPageSeconds: number | null;
}

async function totals(db: Kysely<Database>, workspaceId: string, from: string, to: string): Promise<CounterTotals> {
  const row = await db
    .selectFrom('counter_days')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number | string>('pageviews'), eb.lit(0)).as('pageviews'),
      eb.fn.coalesce(eb.fn.sum<number | string>('visitors'), eb.lit(0)).as('visitors'),
      eb.fn.coalesce(eb.fn.sum<number | string>('sessions'), eb.lit(0)).as('sessions'),
      eb.fn.coalesce(eb.fn.sum<number | string>('bounces'), eb.lit(0)).as('bounces'),
      eb.fn.coalesce(eb.fn.sum<number | string>('engaged_ms'), eb.lit(0)).as('engaged_ms'),
      eb.fn.coalesce(eb.fn.sum<number | string>('engaged_views'), eb.lit(0)).as('engaged_views'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .executeTakeFirstOrThrow();
  const sessions = Number(row.sessions);
  return {
    pageViews: Number(row.pageviews),
    uniqueVisitors: Number(row.visitors),
    sessions,
    bounceRate: share(Number(row.bounces), sessions),
    averageTimeOnPageSeconds: seconds(Number(row.engaged_ms), Number(row.engaged_views)),
  };
}

/**
 * The window's ten most viewed pages. Its whole weeks are read from the weekly sums and only the days before the first
 * and after the last from the daily ones: at 90 days a fifth of the rows, which keeps a large site's read short.
 */
function topPages(db: Kysely<Database>, workspaceId: string, window: MetricWindow) {
  const from = isoDate(window.from);
  const to = isoDate(window.to);
  const mondayOnOrAfter = weekKey(isoDate(window.from + 6 * DAY_MS));
  // The Monday of the last week that ends (Sunday) within the window.
  const lastFullWeek = weekKey(isoDate(window.to - 6 * DAY_MS));
  const days = (since: string, until: string) =>
    db.selectFrom('counter_page_days').select(['path', 'pageviews']).where('workspace_id', '=', workspaceId).where('day', '>=', since).where('day', '<=', until);
  const views =
    mondayOnOrAfter > lastFullWeek
      ? days(from, to)
      : db
          .selectFrom('counter_page_weeks')
          .select(['path', 'pageviews'])
          .where('workspace_id', '=', workspaceId)
          .where('week', '>=', mondayOnOrAfter)
          .where('week', '<=', lastFullWeek)
          .unionAll(days(from, isoDate(Date.parse(`${mondayOnOrAfter}T00:00:00Z`) - DAY_MS)))
          .unionAll(days(isoDate(Date.parse(`${lastFullWeek}T00:00:00Z`) + 7 * DAY_MS), to));
  return db
    .selectFrom(views.as('views'))
    .select(['path', (eb) => eb.fn.sum<number | string>('pageviews').as('pageviews')])
    .groupBy('path')
    .orderBy('pageviews', 'desc')
    .orderBy('path')
    .limit(10)
    .execute();
}

/** The own counter over a window: totals against the window before, sessions by source, the daily trend, top pages. */
export async function counterTraffic(db: Kysely<Database>, workspaceId: string, window: MetricWindow) {
  const from = isoDate(window.from);
  const to = isoDate(window.to);
  const previousFrom = isoDate(window.from - window.days * 86_400_000);
  const previousTo = isoDate(window.from - 86_400_000);
  const [current, previous, daily, sources, pages] = await Promise.all([
    totals(db, workspaceId, from, to),
    totals(db, workspaceId, previousFrom, previousTo),
    db
      .selectFrom('counter_days')
      .select(['day', 'pageviews', 'visitors', 'sessions'])
      .where('workspace_id', '=', workspaceId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .execute(),
    db
      .selectFrom('counter_source_days')
      .select(['source', 'engine', (eb) => eb.fn.sum<number | string>('sessions').as('sessions')])
      .where('workspace_id', '=', workspaceId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy(['source', 'engine'])
      .execute(),
    topPages(db, workspaceId, window),
  ]);
  const byDay = new Map(daily.map((row) => [row.day, row]));
  const trend = [];
  for (let day = window.from; day <= window.to; day += 86_400_000) {
    const row = byDay.get(isoDate(day));
    trend.push({ date: isoDate(day), pageViews: row?.pageviews ?? 0, visitors: row?.visitors ?? 0, sessions: row?.sessions ?? 0 });
  }
  return {
    ...current,
    previousPeriod: { from: previousFrom, to: previousTo, ...previous },
    sessionsBySource: sources
      .map((row) => ({ source: row.source as VisitSource, engine: row.engine === '' ? null : row.engine, sessions: Number(row.sessions) }))
      .filter((row) => row.sessions > 0)
      .sort((a, b) => b.sessions - a.sessions || a.source.localeCompare(b.source) || (a.engine ?? '').localeCompare(b.engine ?? '')),
    daily: trend,
    topPages: pages.map((row) => ({ path: row.path, pageViews: Number(row.pageviews) })),
    definitions: COUNTER_DEFINITIONS,
  };
}
