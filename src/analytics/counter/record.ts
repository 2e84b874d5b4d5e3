import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { newId } from '../../ids.js';
import { DAY_MS } from '../../shared/time.js';
import type { VisitSource } from '../referrers.js';
import type { CounterEvent } from './events.js';
import { SESSION_GAP_MS, dayKey } from './visitors.js';

/** A session with one page view is still a bounce below this much visible time. */
export const ENGAGED_SESSION_MS = 10_000;

/** The Monday on or before a UTC day (both YYYY-MM-DD): the key of the weekly page sums. */
export function weekKey(day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  const sinceMonday = (new Date(time).getUTCDay() + 6) % 7;
  return dayKey(time - sinceMonday * DAY_MS);
}

interface DaySums {
  pageviews: number;
  visitors: number;
  sessions: number;
  bounces: number;
  engaged_ms: number;
  engaged_views: number;
}
interface PageSums {
  pageviews: number;
  engaged_ms: number;
  engaged_views: number;
  ai_entries: number;
}
interface SourceSums {
  sessions: number;
  leads: number;
}

interface SessionArrival {
  id: string;
  source: VisitSource;
  engine: string | null;
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
}

/** The daily sums one batch adds, keyed by workspace, day and page or source, written with one upsert per key. */
class BatchSums {
  readonly days = new Map<string, DaySums>();
  readonly pages = new Map<string, PageSums>();
  readonly sources = new Map<string, SourceSums>();
  /** Per workspace and referring host: sessions it referred in the batch, and the first one's time. */
  readonly referrers = new Map<string, { sessions: number; firstAt: number }>();
  readonly seen = new Map<string, number>();

  day(workspaceId: string, day: string): DaySums {
    return entry(this.days, `${workspaceId}\n${day}`, () => ({ pageviews: 0, visitors: 0, sessions: 0, bounces: 0, engaged_ms: 0, engaged_views: 0 }));
  }
  page(workspaceId: string, day: string, path: string): PageSums {
    return entry(this.pages, `${workspaceId}\n${day}\n${path}`, () => ({ pageviews: 0, engaged_ms: 0, engaged_views: 0, ai_entries: 0 }));
  }
  referrer(workspaceId: string, host: string, at: number): void {
    const sums = entry(this.referrers, `${workspaceId}\n${host}`, () => ({ sessions: 0, firstAt: at }));
    sums.sessions += 1;
    sums.firstAt = Math.min(sums.firstAt, at);
  }
  source(workspaceId: string, day: string, source: VisitSource, engine: string | null): SourceSums {
    return entry(this.sources, `${workspaceId}\n${day}\n${source}\n${engine ?? ''}`, () => ({ sessions: 0, leads: 0 }));
  }
}

function entry<T>(map: Map<string, T>, key: string, empty: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = empty();
    map.set(key, value);
  }
  return value;
}

/**
 * Records a batch of accepted events in one transaction: each visitor's current session (one atomic upsert per visitor,
 * so instances writing at once agree on it), new sessions, the leads, and the daily sums the reads use.
 */
export async function recordCounterEvents(db: Kysely<Database>, events: readonly CounterEvent[]): Promise<void> {
  if (events.length === 0) return;
  const byVisitor = new Map<string, CounterEvent[]>();
  for (const event of events) entry(byVisitor, `${event.workspaceId}\n${event.visitor}`, () => []).push(event);
  await db.transaction().execute(async (trx) => {
    const sums = new BatchSums();
    for (const visitorEvents of byVisitor.values()) {
      for (const run of sessionRuns(visitorEvents)) await recordVisitor(trx, run, sums);
    }
    await writeSums(trx, sums);
  });
}

/**
 * A visitor's events of one batch, cut where page views are more than the session gap apart. A batch spans a fraction
 * of a second, but one retried after the database was away can span hours.
 */
function sessionRuns(events: CounterEvent[]): CounterEvent[][] {
  const runs: CounterEvent[][] = [];
  let lastView = -Infinity;
  for (const event of events) {
    if (runs.length === 0 || (event.type === 'pageview' && event.at - lastView > SESSION_GAP_MS && lastView !== -Infinity)) runs.push([]);
    if (event.type === 'pageview') lastView = event.at;
    runs[runs.length - 1]!.push(event);
  }
  return runs;
}

async function recordVisitor(trx: Kysely<Database>, events: CounterEvent[], sums: BatchSums): Promise<void> {
  const { workspaceId, visitor } = events[0]!;
  const views = events.filter((event) => event.type === 'pageview');
  const engagedMs = events.reduce((total, event) => total + event.engagedMs, 0);
  const last = events[events.length - 1]!.at;
  sums.seen.set(workspaceId, Math.max(sums.seen.get(workspaceId) ?? 0, last));

  let session: SessionArrival | null = null;
  if (views.length > 0) {
    const first = views[0]!;
    const proposed = newId('ses');
    const current = await trx
      .insertInto('counter_visitors')
      .values({ workspace_id: workspaceId, visitor, session_id: proposed, last_seen_at: last, pageviews: views.length })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'visitor']).doUpdateSet({
          session_id: sql<string>`case when counter_visitors.last_seen_at < ${first.at - SESSION_GAP_MS} then excluded.session_id else counter_visitors.session_id end`,
          last_seen_at: sql<number>`excluded.last_seen_at`,
          pageviews: sql<number>`counter_visitors.pageviews + excluded.pageviews`,
        }),
      )
      .returning(['session_id', 'pageviews'])
      .executeTakeFirstOrThrow();
    const day = dayKey(first.at);
    if (current.pageviews === views.length) sums.day(workspaceId, day).visitors += 1;
    if (current.session_id === proposed) {
      const bounced = views.length === 1 && engagedMs < ENGAGED_SESSION_MS ? 1 : 0;
      const arrival = first.arrival;
      await trx
        .insertInto('counter_sessions')
        .values({
          id: proposed,
          workspace_id: workspaceId,
          day,
          started_at: first.at,
          last_seen_at: last,
          pageviews: views.length,
          engaged_ms: engagedMs,
          bounced,
          entry_path: first.path,
          referrer_host: arrival.referrerHost,
          source: arrival.source,
          engine: arrival.engine,
          utm_source: arrival.utmSource,
          utm_medium: arrival.utmMedium,
          utm_campaign: arrival.utmCampaign,
        })
        .execute();
      const daySums = sums.day(workspaceId, day);
      daySums.sessions += 1;
      daySums.bounces += bounced;
      sums.source(workspaceId, day, arrival.source, arrival.engine).sessions += 1;
      if (arrival.source === 'ai') sums.page(workspaceId, day, first.path).ai_entries += 1;
      // A referrer from the site itself is navigation: classified direct, and not a referring domain.
      if (arrival.referrerHost !== null && arrival.source !== 'direct') sums.referrer(workspaceId, arrival.referrerHost, first.at);
      session = { id: proposed, ...arrival };
    } else {
      session = await continueSession(trx, current.session_id, views.length, engagedMs, last, sums, workspaceId);
    }
  } else {
    // No page view in this run: the visitor's current session, if the visitor is known today, found in the same statement.
    const current = trx.selectFrom('counter_visitors').select('session_id').where('workspace_id', '=', workspaceId).where('visitor', '=', visitor);
    session = await continueSession(trx, current, 0, engagedMs, null, sums, workspaceId);
  }

  for (const event of events) {
    const day = dayKey(event.at);
    if (event.type === 'pageview') {
      sums.day(workspaceId, day).pageviews += 1;
      sums.page(workspaceId, day, event.path).pageviews += 1;
    } else if (event.type === 'engagement') {
      const daySums = sums.day(workspaceId, day);
      const pageSums = sums.page(workspaceId, day, event.path);
      daySums.engaged_ms += event.engagedMs;
      pageSums.engaged_ms += event.engagedMs;
      if (event.firstReport) {
        daySums.engaged_views += 1;
        pageSums.engaged_views += 1;
      }
    } else if (event.lead !== null) {
      await recordLead(trx, event, session);
      sums.source(workspaceId, day, session?.source ?? 'direct', session?.engine ?? null).leads += 1;
    }
  }
}

/**
 * Adds to a session that is already counted (by id, or the one a query of the visitor's row names); a bounce stops being
 * one with a second page view or enough visible time, and its day's bounce count drops by one (the conditional update
 * makes that happen once, however many instances race).
 */
async function continueSession(
  trx: Kysely<Database>,
  sessionId: string | SelectQueryBuilder<Database, 'counter_visitors', { session_id: string }>,
  views: number,
  engagedMs: number,
  lastSeenAt: number | null,
  sums: BatchSums,
  workspaceId: string,
): Promise<SessionArrival | null> {
  const row = await trx
    .updateTable('counter_sessions')
    .set((eb) => ({
      pageviews: eb('pageviews', '+', views),
      engaged_ms: eb('engaged_ms', '+', engagedMs),
      ...(lastSeenAt === null ? {} : { last_seen_at: lastSeenAt }),
    }))
    .where('id', '=', sessionId)
    .returning(['id', 'day', 'pageviews', 'engaged_ms', 'bounced', 'source', 'engine', 'referrer_host', 'utm_source', 'utm_medium', 'utm_campaign'])
    .executeTakeFirst();
  if (row === undefined) return null;
  if (row.bounced === 1 && (row.pageviews > 1 || Number(row.engaged_ms) >= ENGAGED_SESSION_MS)) {
    const cleared = await trx.updateTable('counter_sessions').set({ bounced: 0 }).where('id', '=', row.id).where('bounced', '=', 1).executeTakeFirst();
    if (cleared.numUpdatedRows === 1n) sums.day(workspaceId, row.day).bounces -= 1;
  }
  return {
    id: row.id,
    source: row.source,
    engine: row.engine,
    referrerHost: row.referrer_host,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
  };
}

/** A lead keeps its session's first touch: where the visitor came from when the session began. */
async function recordLead(trx: Kysely<Database>, event: CounterEvent, session: SessionArrival | null): Promise<void> {
  const lead = event.lead!;
  await trx
    .insertInto('leads')
    .values({
      id: newId('lead'),
      workspace_id: event.workspaceId,
      created_at: event.at,
      session_id: session?.id ?? null,
      path: event.path,
      page_url: event.url,
      form: lead.form,
      email: lead.email,
      name: lead.name,
      fields: JSON.stringify(lead.fields),
      referrer: session?.referrerHost ?? null,
      utm_source: session?.utmSource ?? null,
      utm_medium: session?.utmMedium ?? null,
      utm_campaign: session?.utmCampaign ?? null,
      source: session?.source ?? 'direct',
      engine: session?.engine ?? null,
    })
    .execute();
}

/**
 * Rows in chunks whose sizes are powers of two up to 128: each chunk is one multi-row upsert, and the few statement
 * shapes this makes stay in the prepared-statement cache (db/database.ts).
 */
function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; ) {
    const size = Math.min(128, 2 ** Math.floor(Math.log2(rows.length - start)));
    out.push(rows.slice(start, start + size));
    start += size;
  }
  return out;
}

/**
 * Every instance adds to the same few daily rows; writing them in one order (their keys') keeps two PostgreSQL
 * transactions from each holding a row the other waits for.
 */
function inKeyOrder<T>(map: ReadonlyMap<string, T>): Array<[string, T]> {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The batch's sums added to the daily (and weekly) rows: a few multi-row upserts rather than one statement per key. */
async function writeSums(trx: Kysely<Database>, sums: BatchSums): Promise<void> {
  const add = (table: string, column: string) => sql<number>`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  const days = inKeyOrder(sums.days).map(([key, value]) => {
    const [workspaceId, day] = key.split('\n') as [string, string];
    return { workspace_id: workspaceId, day, ...value };
  });
  for (const rows of chunks(days)) {
    await trx
      .insertInto('counter_days')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'day']).doUpdateSet({
          pageviews: add('counter_days', 'pageviews'),
          visitors: add('counter_days', 'visitors'),
          sessions: add('counter_days', 'sessions'),
          bounces: add('counter_days', 'bounces'),
          engaged_ms: add('counter_days', 'engaged_ms'),
          engaged_views: add('counter_days', 'engaged_views'),
        }),
      )
      .execute();
  }
  const pages = inKeyOrder(sums.pages).map(([key, value]) => {
    const [workspaceId, day, path] = key.split('\n') as [string, string, string];
    return { workspace_id: workspaceId, day, path, ...value };
  });
  for (const rows of chunks(pages)) {
    await trx
      .insertInto('counter_page_days')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'path', 'day']).doUpdateSet({
          pageviews: add('counter_page_days', 'pageviews'),
          engaged_ms: add('counter_page_days', 'engaged_ms'),
          engaged_views: add('counter_page_days', 'engaged_views'),
          ai_entries: add('counter_page_days', 'ai_entries'),
        }),
      )
      .execute();
  }
  // The weekly page views, from the daily ones of this batch (a batch that spans midnight on a Sunday has two weeks).
  const weeks = new Map<string, { workspace_id: string; week: string; path: string; pageviews: number }>();
  for (const page of pages) {
    if (page.pageviews === 0) continue;
    const week = weekKey(page.day);
    const row = entry(weeks, `${page.workspace_id}\n${week}\n${page.path}`, () => ({ workspace_id: page.workspace_id, week, path: page.path, pageviews: 0 }));
    row.pageviews += page.pageviews;
  }
  for (const rows of chunks(inKeyOrder(weeks).map(([, row]) => row))) {
    await trx
      .insertInto('counter_page_weeks')
      .values(rows)
      .onConflict((oc) => oc.columns(['workspace_id', 'week', 'path']).doUpdateSet({ pageviews: add('counter_page_weeks', 'pageviews') }))
      .execute();
  }
  const sources = inKeyOrder(sums.sources).map(([key, value]) => {
    const [workspaceId, day, source, engine] = key.split('\n') as [string, string, VisitSource, string];
    return { workspace_id: workspaceId, day, source, engine, ...value };
  });
  for (const rows of chunks(sources)) {
    await trx
      .insertInto('counter_source_days')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'day', 'source', 'engine']).doUpdateSet({
          sessions: add('counter_source_days', 'sessions'),
          leads: add('counter_source_days', 'leads'),
        }),
      )
      .execute();
  }
  for (const [key, value] of inKeyOrder(sums.referrers)) {
    const [workspaceId, host] = key.split('\n') as [string, string];
    await trx
      .insertInto('counter_referrers')
      .values({ workspace_id: workspaceId, host, first_seen_at: value.firstAt, sessions: value.sessions })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'host']).doUpdateSet({
          sessions: add('counter_referrers', 'sessions'),
          first_seen_at: sql<number>`case when excluded.first_seen_at < counter_referrers.first_seen_at then excluded.first_seen_at else counter_referrers.first_seen_at end`,
        }),
      )
      .execute();
  }
  for (const [workspaceId, at] of inKeyOrder(sums.seen)) {
    await trx
      .updateTable('analytics_sites')
      .set({ loader_seen_at: sql<number>`case when loader_seen_at is null or loader_seen_at < ${at} then ${at} else loader_seen_at end` })
      .where('workspace_id', '=', workspaceId)
      .execute();
  }
}
