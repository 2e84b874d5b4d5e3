import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { SearchConsolePeriod } from '../../../db/schema.js';
import { wilsonInterval } from '../../../src/visibility/metrics/wilson.js';
import { pageKey } from '../../../src/visibility/rankings/pages.js';
import { disconnectSearchConsole } from '../../../src/visibility/searchConsole/connection.js';
import { sumConsoleQueries } from '../../../src/visibility/searchConsole/syncJob.js';
import type { rankingsReport } from '../../../tools/analytics/outputs.js';
import { insertPublishedArticle } from '../../links/support.js';
import { TestService, START_TIME, type TestWorkspace } from '../../support/harness.js';
import { Seeder } from '../metrics/seed.js';
import { consoleRow } from '../searchConsole/rows.js';

const DAY = 86_400_000;
const ago = (days: number) => new Date(START_TIME - days * DAY).toISOString();
const ARTICLE = 'https://acme.example/blog/crm-for-dentists';
const OTHERS = ['https://rival.example/a', 'https://rival.example/b'];

describe('get_rankings_', () => {
  let t: TestService;
  let ws: TestWorkspace;
  let articleId: string;
  const ids: Record<string, string> = {};

  const rankings = async (input: Record<string, unknown> = {}, key = ws.key) => {
    const answer = await t.rest(key, 'GET', '/api/v1/analytics/rankings', input);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as z.output<typeof rankingsReport>;
  };

  beforeAll(async () => {
    t = await TestService.start();
    ws = await t.workspace();
    const seed = new Seeder(t, ws);
    for (const text of ['crm for dentists', 'crm for vets', 'crm history', 'crm reviews']) ids[text] = await seed.query(text);
    articleId = await insertPublishedArticle(t.db, t.clock, ws.workspaceId, ARTICLE);

    // crm history: checked once, in a run 100 days ago: still its latest position.
    await seed.rank(ago(100), ids['crm history']!, 'google', [...Array.from({ length: 19 }, (_, i) => `https://rival.example/${i}`), 'https://acme.example/old']);
    // crm for dentists: nine weekly runs' Google checks, the article at 3 in the latest; only the last eight runs count
    // for the AI overview: cited in weeks 0 and 3, shown without citing us in week 1 (week 8, also cited, is the ninth).
    const overview: Record<number, { shown: boolean; references: string[] }> = {
      0: { shown: true, references: [`${ARTICLE}#faq`] },
      1: { shown: true, references: OTHERS },
      3: { shown: true, references: ['https://docs.acme.example/setup'] },
      8: { shown: true, references: [ARTICLE] },
    };
    for (let week = 8; week >= 0; week--) {
      seed.nextRun();
      await seed.rank(ago(7 * week), ids['crm for dentists']!, 'google', [...OTHERS, week === 0 ? ARTICLE : 'https://acme.example/'], overview[week] ?? { shown: false, references: [] });
      // crm for vets: the pricing page at 12 a week ago; this week's check failed and says nothing.
      if (week === 1) await seed.rank(ago(7), ids['crm for vets']!, 'google', [...Array.from({ length: 11 }, (_, i) => `https://rival.example/${i}`), 'https://acme.example/pricing']);
    }
    await seed.rank(ago(0), ids['crm for vets']!, 'google', null);
    // Bing spells the page with www. and a trailing slash: the same page.
    await seed.rank(ago(0), ids['crm for dentists']!, 'bing', [...OTHERS, 'https://rival.example/c', 'https://rival.example/d', 'https://www.acme.example/blog/crm-for-dentists/']);
    t.clock.set(START_TIME);

    await t.db
      .insertInto('search_console_connections')
      .values({ workspace_id: ws.workspaceId, property: 'sc-domain:acme.example', refresh_token: 'refresh', state_hash: null, state_expires_at: null, connected_at: START_TIME, last_sync_at: START_TIME, last_error: null })
      .execute();
    const row = (query: string, page: string, clicks: number, impressions: number, position: number, period: SearchConsolePeriod = 'current') =>
      consoleRow(ws.workspaceId, period, { query, page, clicks, impressions, position });
    await t.db
      .insertInto('search_console_rows')
      .values([
        row('crm for dentists', `${ARTICLE}/`, 10, 100, 3),
        row('crm for dentists', 'https://acme.example/', 2, 300, 7),
        row('dental crm software', ARTICLE, 5, 50, 4.2),
        row('acme login', 'https://acme.example/login', 40, 60, 1.1),
        // The 28 days before: kept for growth, never read by the rankings.
        row('crm for dentists', `${ARTICLE}/`, 500, 5000, 9, 'previous'),
        row('crm for vets', 'https://acme.example/pricing', 8, 80, 11, 'previous'),
        row('acme old pricing', 'https://acme.example/old-pricing', 900, 900, 1, 'previous'),
      ])
      .execute();
    await sumConsoleQueries(t.db, ws.workspaceId);
  });
  afterAll(() => t.close());

  it('scope ours (default): the keywords the published articles appear for, with positions, Search Console figures and the AI overview rate', async () => {
    const data = await rankings();
    expect(data.scope).toBe('ours');
    expect(data.searchConsole).toEqual({ connected: true, property: 'sc-domain:acme.example', lastSyncAt: new Date(START_TIME).toISOString(), startDate: '2026-10-24', endDate: '2026-11-20' });
    expect(data.rankings).toEqual([
      {
        queryId: ids['crm for dentists'],
        keyword: 'crm for dentists',
        tracked: true,
        googlePosition: 3,
        googleCheckedAt: ago(0),
        bingPosition: 5,
        bingCheckedAt: ago(0),
        clicks: 12,
        impressions: 400,
        // (3 x 100 + 7 x 300) / 400
        gscPosition: 6,
        page: ARTICLE,
        isOurs: true,
        articleId,
        aiOverviewRate: { rate: 0.25, interval: wilsonInterval(2, 8), count: 2, of: 8 },
        aiOverviewShown: 3,
      },
      {
        queryId: null,
        keyword: 'dental crm software',
        tracked: false,
        googlePosition: null,
        googleCheckedAt: null,
        bingPosition: null,
        bingCheckedAt: null,
        clicks: 5,
        impressions: 50,
        gscPosition: 4.2,
        page: ARTICLE,
        isOurs: true,
        articleId,
        aiOverviewRate: null,
        aiOverviewShown: null,
      },
    ]);
    expect((await t.mcpTool(ws.key, 'get_rankings_')).structuredContent).toEqual(data);
  });

  it('scope site: every tracked query and the top Search Console queries, whatever page earned them', async () => {
    const data = await rankings({ scope: 'site' });
    expect(data.rankings.map((r) => [r.keyword, r.googlePosition, r.page, r.isOurs])).toEqual([
      ['crm for dentists', 3, ARTICLE, true],
      ['crm for vets', 12, 'https://acme.example/pricing', false],
      ['crm history', 20, 'https://acme.example/old', false],
      ['acme login', null, 'https://acme.example/login', false],
      ['dental crm software', null, ARTICLE, true],
      ['crm reviews', null, null, false],
    ]);
    const vets = data.rankings[1]!;
    // The failed check is ignored; no AI overview data on that check: no rate.
    expect(vets).toMatchObject({ googleCheckedAt: ago(7), clicks: 0, impressions: 0, gscPosition: null, aiOverviewRate: { rate: null, of: 0 } });
    expect(data.rankings[5]).toMatchObject({ tracked: true, googleCheckedAt: null, aiOverviewRate: { rate: null, interval: null, count: 0, of: 0 } });
  });

  it("counts a Search Console page as an article's with or without www., the host's case and the trailing slash", () => {
    const article = pageKey('https://acme.example/blog/a');
    for (const spelling of ['https://www.acme.example/blog/a/', 'https://ACME.example/blog/a', 'https://acme.example/blog/a//']) expect(pageKey(spelling)).toBe(article);
    expect(pageKey('https://acme.example/blog/b')).not.toBe(article);
  });

  it('answers a page of rows at a time', async () => {
    const second = await rankings({ scope: 'site', limit: '2', page: '2' });
    expect(second.rankings.map((r) => r.keyword)).toEqual(['crm history', 'acme login']);
    expect(second).toMatchObject({ page: 2, limit: 2, total: 6, nextPage: 3 });
    expect(await rankings({ scope: 'site', limit: '2', page: '3' })).toMatchObject({ total: 6, nextPage: null });
    expect(await rankings({ scope: 'site', limit: '2', page: '9' })).toMatchObject({ rankings: [], total: 6, nextPage: null });
    expect(await rankings({})).toMatchObject({ page: 1, limit: 100, total: 2, nextPage: null });
  });

  it('shows no Search Console figures without Search Console, and nothing for a workspace without checks', async () => {
    const other = await t.workspace();
    const seed = new Seeder(t, other);
    await seed.query('crm for dentists');
    t.clock.set(START_TIME);
    expect((await rankings({}, other.key)).rankings).toEqual([]);
    const site = await rankings({ scope: 'site' }, other.key);
    expect(site.searchConsole).toMatchObject({ connected: false, property: null });
    expect(site.rankings).toEqual([expect.objectContaining({ keyword: 'crm for dentists', googlePosition: null, clicks: null, impressions: null, gscPosition: null })]);
  });

  it('keeps each row in its place as queries are added, reworded and removed, and as Search Console data comes and goes', async () => {
    const other = await t.workspace();
    await t.db
      .insertInto('search_console_connections')
      .values({ workspace_id: other.workspaceId, property: 'sc-domain:acme.example', refresh_token: 'refresh', state_hash: null, state_expires_at: null, connected_at: START_TIME, last_sync_at: START_TIME, last_error: null })
      .execute();
    await t.db
      .insertInto('search_console_rows')
      .values(
        [['crm a', 500], ['crm b', 100], ['crm c', 300]].map(([query, impressions]) =>
          consoleRow(other.workspaceId, 'current', { query: query as string, page: 'https://acme.example/', clicks: 1, impressions: impressions as number, position: 8 }),
        ),
      )
      .execute();
    await sumConsoleQueries(t.db, other.workspaceId);
    const rows = async () => (await rankings({ scope: 'site' }, other.key)).rankings.map((r) => [r.keyword, r.tracked, r.impressions]);
    const call = async (path: string, body: Record<string, unknown>) => {
      const answer = await t.rest(other.key, 'POST', path, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data as Record<string, unknown>;
    };

    // Tracked after the sync: the query takes its wording's impressions.
    const { query } = (await call('/api/v1/queries', { text: 'CRM b' })) as { query: { id: string } };
    expect(await rows()).toEqual([['crm a', false, 500], ['crm c', false, 300], ['CRM b', true, 100]]);
    // Reworded to another console query: that one becomes tracked, the old wording untracked.
    await call('/api/v1/queries/update', { queryId: query.id, text: 'crm a' });
    expect(await rows()).toEqual([['crm a', true, 500], ['crm c', false, 300], ['crm b', false, 100]]);
    await call('/api/v1/queries/remove', { queryId: query.id, confirm: true });
    await call('/api/v1/queries', { text: 'crm new' });
    expect(await rows()).toEqual([['crm a', false, 500], ['crm c', false, 300], ['crm b', false, 100], ['crm new', true, 0]]);
    // Disconnected: no console rows, and no impressions left to order by.
    await disconnectSearchConsole(t.db, other.workspaceId);
    expect(await rows()).toEqual([['crm new', true, null]]);
    expect(await t.db.selectFrom('query_latest').select('impressions').where('workspace_id', '=', other.workspaceId).execute()).toEqual([{ impressions: 0 }]);
  });

  it('refuses an unknown scope, naming the field', async () => {
    const answer = await t.rest(ws.key, 'GET', '/api/v1/analytics/rankings', { scope: 'everything' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('scope: must be one of ours, site');
  });
});
