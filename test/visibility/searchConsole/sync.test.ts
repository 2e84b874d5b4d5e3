import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queueSearchConsoleSync } from '../../../src/visibility/searchConsole/connection.js';
import type { TestService } from '../../support/harness.js';
import { Visitor } from '../../support/visitor.js';
import type { FakeGoogle, FakeRow } from '../../integrations/fakes/google/searchConsole.js';
import { connection, connectSearchConsole, startWithGoogle, stopWithGoogle } from './support.js';

const PROPERTY = 'sc-domain:acme.example';
// The test clock starts on 21 November 2026: the last 28 full days run from 24 October to 20 November, the 28 before
// them from 26 September to 23 October.
const CURRENT = { startDate: '2026-10-24', endDate: '2026-11-20' };
const PREVIOUS = { startDate: '2026-09-26', endDate: '2026-10-23' };
const PAGING = { dimensions: ['query', 'page'], rowLimit: 25_000 };
const dates = (range: { startDate: string; endDate: string }) => ({ start_date: range.startDate, end_date: range.endDate });

let google: FakeGoogle;
let t: TestService;
beforeAll(async () => {
  ({ google, t } = await startWithGoogle());
});
afterAll(() => stopWithGoogle({ google, t }));
beforeEach(() => {
  google.sites = [{ siteUrl: PROPERTY, permissionLevel: 'siteOwner' }];
  google.rows.set(PROPERTY, [
    { date: '2026-11-20', query: 'acme crm', page: 'https://acme.example/', clicks: 120, impressions: 900, position: 1.2 },
    { date: '2026-11-20', query: 'crm for startups', page: 'https://acme.example/blog/crm-for-startups', clicks: 14, impressions: 610, position: 7.4 },
    { date: '2026-10-10', query: 'acme crm', page: 'https://acme.example/', clicks: 80, impressions: 700, position: 1.5 },
  ]);
});

/** A connected workspace whose first sync has not run yet. */
async function connected(): Promise<string> {
  const owner = await t.signedInOwner();
  expect((await connectSearchConsole(owner.visitor, owner.workspaceId)).status).toBe(303);
  return owner.workspaceId;
}

const jobs = (workspaceId: string) =>
  t.db.selectFrom('jobs').select(['state', 'attempts', 'error', 'result', 'run_at']).where('workspace_id', '=', workspaceId).where('kind', '=', 'search_console_sync').orderBy('created_at').execute();
const rows = (workspaceId: string) =>
  t.db
    .selectFrom('search_console_rows')
    .select(['period', 'query', 'page', 'clicks', 'impressions', 'position', 'start_date', 'end_date'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('period')
    .orderBy('query')
    .execute();

describe('the Search Console sync job', () => {
  it('refreshes the access token, reads the last 28 full days by query and page in pages of 25,000 rows, and stores them', async () => {
    const many: FakeRow[] = Array.from({ length: 25_003 }, (_, i) => ({
      date: '2026-11-01',
      query: `query ${i}`,
      page: `https://acme.example/p/${i % 40}`,
      clicks: 1,
      impressions: 10,
      position: 3.5,
    }));
    google.rows.set(PROPERTY, many);
    const workspaceId = await connected();
    const refreshToken = (await connection(t, workspaceId))!.refresh_token;
    const apiRequests = google.apiRequests.length;
    await t.jobs.drain();

    expect(Object.fromEntries(google.tokenRequests.at(-1)!)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: google.clientId,
      client_secret: google.clientSecret,
    });
    const queries = google.apiRequests.slice(apiRequests);
    expect(queries.map((r) => [r.method, r.path])).toEqual(Array(3).fill(['POST', '/webmasters/v3/sites/sc-domain%3Aacme.example/searchAnalytics/query']));
    // The 28 days before hold no rows here: one request answers it.
    expect(queries.map((r) => r.body)).toEqual([
      { ...CURRENT, ...PAGING, startRow: 0 },
      { ...CURRENT, ...PAGING, startRow: 25_000 },
      { ...PREVIOUS, ...PAGING, startRow: 0 },
    ]);
    const stored = await t.db.selectFrom('search_console_rows').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(25_003);
    expect(await connection(t, workspaceId)).toMatchObject({ last_sync_at: t.clock.now(), last_error: null });
    const [job] = await jobs(workspaceId);
    expect(job).toMatchObject({ state: 'done', attempts: 1 });
    expect(JSON.parse(job!.result!)).toEqual({ property: PROPERTY, ...CURRENT, rows: 25_003, previous: { ...PREVIOUS, rows: 0 } });
  });

  it('reads the 28 days before the last 28 too, each period summed over its own days, and keeps them apart', async () => {
    google.rows.set(PROPERTY, [
      { date: '2026-11-20', query: 'acme crm', page: 'https://acme.example/', clicks: 70, impressions: 500, position: 1 },
      { date: '2026-10-24', query: 'acme crm', page: 'https://acme.example/', clicks: 50, impressions: 500, position: 2 },
      { date: '2026-10-23', query: 'acme crm', page: 'https://acme.example/', clicks: 30, impressions: 300, position: 3 },
      { date: '2026-09-26', query: 'acme crm', page: 'https://acme.example/', clicks: 10, impressions: 100, position: 5 },
      // Outside both periods: today (not a full day yet) and the day before the previous period.
      { date: '2026-11-21', query: 'acme crm', page: 'https://acme.example/', clicks: 999, impressions: 999, position: 1 },
      { date: '2026-09-25', query: 'acme crm', page: 'https://acme.example/', clicks: 999, impressions: 999, position: 1 },
      { date: '2026-11-02', query: 'crm for startups', page: 'https://acme.example/blog/crm-for-startups', clicks: 4, impressions: 60, position: 8 },
    ]);
    const workspaceId = await connected();
    const apiRequests = google.apiRequests.length;
    await t.jobs.drain();

    expect(google.apiRequests.slice(apiRequests).map((r) => r.body)).toEqual([
      { ...CURRENT, ...PAGING, startRow: 0 },
      { ...PREVIOUS, ...PAGING, startRow: 0 },
    ]);
    const home = 'https://acme.example/';
    expect(await rows(workspaceId)).toEqual([
      { period: 'current', query: 'acme crm', page: home, clicks: 120, impressions: 1000, position: expect.closeTo(1.5, 5), ...dates(CURRENT) },
      { period: 'current', query: 'crm for startups', page: 'https://acme.example/blog/crm-for-startups', clicks: 4, impressions: 60, position: 8, ...dates(CURRENT) },
      // crm for startups has no data in the 28 days before: it has no previous row, not a row of zeros.
      { period: 'previous', query: 'acme crm', page: home, clicks: 40, impressions: 400, position: expect.closeTo(3.5, 5), ...dates(PREVIOUS) },
    ]);
    const [job] = await jobs(workspaceId);
    expect(JSON.parse(job!.result!)).toEqual({ property: PROPERTY, ...CURRENT, rows: 2, previous: { ...PREVIOUS, rows: 1 } });
  });

  it('stores no previous rows when Google has no data for the 28 days before (a site new to Search Console)', async () => {
    google.rows.set(PROPERTY, [{ date: '2026-11-19', query: 'acme crm', page: 'https://acme.example/', clicks: 3, impressions: 40, position: 2 }]);
    const workspaceId = await connected();
    await t.jobs.drain();
    expect(await rows(workspaceId)).toEqual([
      { period: 'current', query: 'acme crm', page: 'https://acme.example/', clicks: 3, impressions: 40, position: 2, ...dates(CURRENT) },
    ]);
    const [job] = await jobs(workspaceId);
    expect(JSON.parse(job!.result!)).toMatchObject({ rows: 1, previous: { ...PREVIOUS, rows: 0 } });
  });

  it('keeps at most 100,000 rows a period, the first ones in Google\'s order', async () => {
    google.rows.set(
      PROPERTY,
      Array.from({ length: 100_001 }, (_, i) => ({ date: '2026-11-20', query: `q${i}`, page: 'https://acme.example/', clicks: 1, impressions: 1, position: 1 })),
    );
    const workspaceId = await connected();
    const apiRequests = google.apiRequests.length;
    await t.jobs.drain();
    expect(google.apiRequests.slice(apiRequests).map((r) => [r.body?.startDate, r.body?.startRow])).toEqual([
      ...[0, 25_000, 50_000, 75_000].map((startRow) => [CURRENT.startDate, startRow]),
      [PREVIOUS.startDate, 0],
    ]);
    const last = await t.db.selectFrom('search_console_rows').select('query').where('workspace_id', '=', workspaceId).where('query', '=', 'q100000').execute();
    expect(last).toEqual([]);
    expect((await connection(t, workspaceId))!.last_error).toBeNull();
  });

  it('replaces the rows of both periods on the next sync, a week later: the days move from one period to the other', async () => {
    const workspaceId = await connected();
    await t.jobs.drain();
    expect(await rows(workspaceId)).toEqual([
      { period: 'current', query: 'acme crm', page: 'https://acme.example/', clicks: 120, impressions: 900, position: expect.closeTo(1.2, 5), ...dates(CURRENT) },
      { period: 'current', query: 'crm for startups', page: 'https://acme.example/blog/crm-for-startups', clicks: 14, impressions: 610, position: expect.closeTo(7.4, 5), ...dates(CURRENT) },
      { period: 'previous', query: 'acme crm', page: 'https://acme.example/', clicks: 80, impressions: 700, position: expect.closeTo(1.5, 5), ...dates(PREVIOUS) },
    ]);
    google.rows.set(PROPERTY, [
      { date: '2026-11-25', query: 'acme pricing', page: 'https://acme.example/pricing', clicks: 30, impressions: 200, position: 2 },
      { date: '2026-10-28', query: 'acme crm', page: 'https://acme.example/', clicks: 6, impressions: 50, position: 1 },
    ]);
    t.clock.advance(7 * 86_400_000);
    expect(await queueSearchConsoleSync(t.db, t.clock, workspaceId)).toEqual(expect.stringMatching(/^job_/));
    await t.jobs.drain();
    expect(await rows(workspaceId)).toEqual([
      { period: 'current', query: 'acme pricing', page: 'https://acme.example/pricing', clicks: 30, impressions: 200, position: 2, start_date: '2026-10-31', end_date: '2026-11-27' },
      { period: 'previous', query: 'acme crm', page: 'https://acme.example/', clicks: 6, impressions: 50, position: 1, start_date: '2026-10-03', end_date: '2026-10-30' },
    ]);
  });

  it('queues one sync at a time, and none for a workspace that is not connected', async () => {
    const workspaceId = await connected();
    expect(await queueSearchConsoleSync(t.db, t.clock, workspaceId)).toBeUndefined();
    expect(await jobs(workspaceId)).toHaveLength(1);
    const stranger = await t.workspace();
    expect(await queueSearchConsoleSync(t.db, t.clock, stranger.workspaceId)).toBeUndefined();
  });

  it('disconnects with a message to connect again when Google revoked the authorization, keeping the last rows', async () => {
    const workspaceId = await connected();
    await t.jobs.drain();
    google.revokeAll();
    const jobId = await queueSearchConsoleSync(t.db, t.clock, workspaceId);
    await t.jobs.drain();
    // Both syncs were queued at the same instant of the test clock: find this one by id, not by order.
    const job = await t.db.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', jobId!).executeTakeFirst();
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    const after = await connection(t, workspaceId);
    expect(after).toMatchObject({ property: PROPERTY, refresh_token: null });
    expect(after!.last_error).toBe(
      'Google no longer accepts the stored authorization (Google refused the refresh of the stored authorization (invalid_grant: Token has been expired or revoked.)): connect Search Console again in the dashboard',
    );
    expect(await rows(workspaceId)).toHaveLength(3);
    expect(await queueSearchConsoleSync(t.db, t.clock, workspaceId)).toBeUndefined();
    // One connection.broken change, with the refusal and where to connect again.
    const broken = await t.db.selectFrom('changes').selectAll().where('workspace_id', '=', workspaceId).where('kind', '=', 'connection.broken').execute();
    expect(broken.map((c) => [c.severity, c.title])).toEqual([
      ['critical', 'Google Search Console refused Sightline\u2019s credentials: Google refused the refresh of the stored authorization (invalid_grant: Token has been expired or revoked.)'],
    ]);
    expect(JSON.parse(broken[0]!.details)).toMatchObject({ connection: 'search_console', reconnectAt: `/w/${workspaceId}/settings` });

    const owner = await t.db.selectFrom('memberships').innerJoin('users', 'users.id', 'memberships.user_id').select('users.email').where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
    const visitor = new Visitor(t.baseUrl);
    await visitor.signIn(owner.email, 'correct horse battery');
    const page = await (await visitor.request(`/w/${workspaceId}/settings`)).text();
    expect(page).toContain('connect Search Console again in the dashboard');
    expect(page).toContain(`action="/w/${workspaceId}/search-console/connect"`);
  });

  it('retries while Google is unavailable and records the error once the attempts run out', async () => {
    const workspaceId = await connected();
    const unavailable = { status: 503, body: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } } };
    google.fail('searchAnalytics', unavailable, unavailable, unavailable);
    await t.jobs.drain();
    expect(await jobs(workspaceId)).toEqual([expect.objectContaining({ state: 'queued', attempts: 1 })]);
    expect((await connection(t, workspaceId))!.last_error).toBeNull();
    for (let attempt = 2; attempt <= 3; attempt++) {
      t.clock.advance(60 * 60_000);
      await t.jobs.drain();
    }
    expect(await jobs(workspaceId)).toEqual([expect.objectContaining({ state: 'failed', attempts: 3 })]);
    expect((await connection(t, workspaceId))!.last_error).toBe('the Search Console API answered 503: The service is currently unavailable.');
    expect(await rows(workspaceId)).toEqual([]);
    // An outage is no refusal of the credentials.
    expect(await t.db.selectFrom('changes').select('id').where('workspace_id', '=', workspaceId).where('kind', '=', 'connection.broken').execute()).toEqual([]);
  });

  it("ends at once on a refusal another attempt cannot fix, keeping Google's message", async () => {
    const workspaceId = await connected();
    google.sites = [];
    await t.jobs.drain();
    expect(await jobs(workspaceId)).toEqual([expect.objectContaining({ state: 'failed', attempts: 1 })]);
    expect((await connection(t, workspaceId))!.last_error).toBe(
      "the Search Console API answered 403: User does not have sufficient permission for site 'sc-domain:acme.example'. See also: https://support.google.com/webmasters/answer/2451999.",
    );
  });

  it('stores nothing for a workspace disconnected before the sync ran', async () => {
    const workspaceId = await connected();
    await t.db.deleteFrom('search_console_connections').where('workspace_id', '=', workspaceId).execute();
    await t.jobs.drain();
    const [job] = await jobs(workspaceId);
    expect(job).toMatchObject({ state: 'done' });
    expect(JSON.parse(job!.result!)).toEqual({ skipped: 'Search Console is not connected' });
    expect(await rows(workspaceId)).toEqual([]);
  });
});
