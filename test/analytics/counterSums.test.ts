import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CounterEvent } from '../../src/analytics/counter/events.js';
import { counterTraffic } from '../../src/analytics/counter/figures.js';
import { recordCounterEvents, weekKey } from '../../src/analytics/counter/record.js';
import { metricWindow, type MetricDays } from '../../src/visibility/metrics/window.js';
import { TestService, START_TIME, type TestWorkspace } from '../support/harness.js';

const DAY = 86_400_000;

/** A page view of its own visitor, as the collect endpoint hands it to the ingest. */
function pageView(workspaceId: string, visitor: string, at: number, path: string): CounterEvent {
  return {
    workspaceId,
    visitor,
    at,
    type: 'pageview',
    path,
    url: `https://acme.example${path}`,
    arrival: { source: 'direct', engine: null, referrerHost: null, utmSource: null, utmMedium: null, utmCampaign: null },
    engagedMs: 0,
    firstReport: false,
    lead: null,
  };
}

describe("the counter's batches and sums", () => {
  let t: TestService;

  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('has stored every event it was given when a flush resolves, however many batches they fill', async () => {
    const ws = await t.workspace({ site: 'https://acme.example' });
    // Not a multiple of the batch size (500), and added at once, as a burst of requests adds them.
    const events = 1234;
    for (let n = 0; n < events; n++) t.service.counterIngest.add(pageView(ws.workspaceId, `visitor-${n}`, START_TIME + n, `/page/${n % 7}`));
    await t.service.counterIngest.flush();
    const stored = await t.db
      .selectFrom('counter_days')
      .select((eb) => eb.fn.sum<number | string>('pageviews').as('pageviews'))
      .where('workspace_id', '=', ws.workspaceId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.pageviews)).toBe(events);
  });

  it('keys weeks by their Monday', () => {
    expect(['2026-11-23', '2026-11-26', '2026-11-29', '2026-11-30', '2026-03-01'].map(weekKey)).toEqual(['2026-11-23', '2026-11-23', '2026-11-23', '2026-11-30', '2026-02-23']);
  });

  describe('top pages from whole weeks and the days at either end', () => {
    let ws: TestWorkspace;
    const paths = Array.from({ length: 12 }, (_, n) => `/page/${n}`);

    beforeAll(async () => {
      ws = await t.workspace({ site: 'https://acme.example' });
      // 130 days in which each page's views rise or fall, so that every window has its own order; written day by day
      // in batches as the ingest writes them.
      for (let day = 129; day >= 0; day--) {
        const at = START_TIME - day * DAY;
        const events = paths.flatMap((path, n) => {
          const views = Math.max(0, Math.round(n % 2 === 0 ? (130 - day) / (n + 4) : day / (n + 2)) + ((day * 7 + n) % 3));
          return Array.from({ length: views }, (_, v) => pageView(ws.workspaceId, `visitor-${day}-${n}-${v}`, at + v, path));
        });
        await recordCounterEvents(t.db, events);
      }
      // 130 ingest batches: on PostgreSQL under a loaded CI machine this takes longer than the default hook timeout.
    }, 120_000);

    /** The same ranking summed from the daily rows alone. */
    async function fromDays(days: MetricDays) {
      const window = metricWindow(days, START_TIME);
      const rows = await t.db
        .selectFrom('counter_page_days')
        .select(['path', (eb) => eb.fn.sum<number | string>('pageviews').as('pageviews')])
        .where('workspace_id', '=', ws.workspaceId)
        .where('day', '>=', new Date(window.from).toISOString().slice(0, 10))
        .where('day', '<=', new Date(window.to).toISOString().slice(0, 10))
        .groupBy('path')
        .execute();
      return rows
        .map((row) => ({ path: row.path, pageViews: Number(row.pageviews) }))
        .sort((a, b) => b.pageViews - a.pageViews || (a.path < b.path ? -1 : 1))
        .slice(0, 10);
    }

    it.each(['7', '30', '90'] as const)('over %s days, equal to the daily rows summed', async (days) => {
      const traffic = await counterTraffic(t.db, ws.workspaceId, metricWindow(days, START_TIME));
      expect(traffic.topPages).toEqual(await fromDays(days));
      expect(traffic.topPages.reduce((sum, page) => sum + page.pageViews, 0)).toBeGreaterThan(0);
    });

    it('holds in the weekly rows exactly what the daily rows hold', async () => {
      const [days, weeks] = await Promise.all([
        t.db.selectFrom('counter_page_days').select(['path', 'day', 'pageviews']).where('workspace_id', '=', ws.workspaceId).execute(),
        t.db.selectFrom('counter_page_weeks').select(['path', 'week', 'pageviews']).where('workspace_id', '=', ws.workspaceId).execute(),
      ]);
      const summed = new Map<string, number>();
      for (const row of days) summed.set(`${row.path} ${weekKey(row.day)}`, (summed.get(`${row.path} ${weekKey(row.day)}`) ?? 0) + row.pageviews);
      expect(new Map(weeks.map((row) => [`${row.path} ${row.week}`, row.pageviews]))).toEqual(summed);
    });
  });
});
