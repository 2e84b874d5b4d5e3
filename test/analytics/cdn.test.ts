import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/analytics/cdn/backfill.js';
import { connectApiToken } from '../../src/analytics/cdn/connection.js';
import { cdnCrawlerVisits, queueDueCdnPolls, readCdnStatus } from '../../src/analytics/cdn/sync.js';
import { resealCredentials } from '../../src/credentials/reseal.js';
import { CredentialSealer } from '../../src/credentials/sealed.js';
import { JOB_HANDLERS } from '../../src/jobs/handlers.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields } from '../support/visitor.js';
import { crawlerDataSet, FakeCloudflare, graphqlErrors, rateLimited, USER_AGENTS, type FakeZone } from '../integrations/fakes/cloudflare.js';

const DAY_MS = 24 * HOUR_MS;
const ZONE: FakeZone = { id: '023e105f4ecef8ad9ca31a8372d0c353', name: 'acme.example', plan: 'Free Website', status: 'active' };
const OTHER_ZONE: FakeZone = { id: '7c5dae5552338874e5053f2534d2767a', name: 'acme-shop.example', plan: 'Pro Website', status: 'active' };
/** The crawler token each AI user agent of the data set is stored under. */
const AI_CRAWLER_OF: Record<string, string> = {
  [USER_AGENTS.gptBot]: 'GPTBot',
  [USER_AGENTS.claudeBot]: 'ClaudeBot',
  [USER_AGENTS.perplexityBot]: 'PerplexityBot',
  [USER_AGENTS.oaiSearchBot]: 'OAI-SearchBot',
};

const SECRETS_KEY = Buffer.alloc(32, 9);
let cloudflare: FakeCloudflare;
let t: TestService;

beforeAll(async () => {
  cloudflare = await FakeCloudflare.start();
  const { authUrl, tokenUrl, apiBaseUrl } = cloudflare.endpoints();
  t = await TestService.start({
    writer: false,
    env: {
      CDN_CLIENT_ID: cloudflare.clientId,
      CDN_CLIENT_SECRET: cloudflare.clientSecret,
      CDN_AUTH_URL: authUrl,
      CDN_TOKEN_URL: tokenUrl,
      CDN_API_BASE_URL: apiBaseUrl,
      SECRETS_KEY: SECRETS_KEY.toString('base64'),
    },
  });
  cloudflare.now = () => t.clock.now();
  cloudflare.traffic = crawlerDataSet(t.clock.now() - 40 * DAY_MS, t.clock.now() + 10 * DAY_MS);
});
afterAll(async () => {
  await t.close();
  await cloudflare.close();
});
beforeEach(async () => {
  // Syncs a test left queued run now, so that each test counts only its own requests to Cloudflare.
  await t.jobs.drain();
  cloudflare.reset();
  cloudflare.zones = [ZONE, OTHER_ZONE];
});

/** What the zone's edge counted from the AI crawlers in [since, until): visitors' requests only, per crawler token. */
function expectedVisits(since: number, until: number): Map<string, number> {
  const visits = new Map<string, number>();
  for (const row of cloudflare.traffic) {
    const crawler = AI_CRAWLER_OF[row.userAgent];
    if (crawler === undefined || row.hour < since || row.hour >= until || (row.source ?? 'eyeball') !== 'eyeball') continue;
    visits.set(crawler, (visits.get(crawler) ?? 0) + row.requests);
  }
  return visits;
}

async function storedVisits(workspaceId: string, since: number, until: number): Promise<Map<string, number>> {
  const visits = await cdnCrawlerVisits(t.db, workspaceId, { since, until });
  expect(visits.total).toBe(visits.byCrawler.reduce((sum, row) => sum + row.visits, 0));
  return new Map(visits.byCrawler.map((row) => [row.crawler, row.visits]));
}

const pasteToken = (ws: TestWorkspace) => connectApiToken(t.db, t.clock, t.service.services.cdn, t.service.services.credentials, ws.workspaceId, cloudflare.issueApiToken());

async function connectUrl(ws: TestWorkspace): Promise<string> {
  const answer = await t.rest(ws.key, 'POST', '/api/v1/integrations/cdn/connect-url', {});
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.data as { url: string }).url;
}

/** The owner opens the URL and allows access (the fake consents at once): where Cloudflare sends the browser back. */
async function consent(url: string): Promise<string> {
  const answer = await fetch(url, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return answer.headers.get('location')!;
}

/** The browser arriving at the callback, signed in nowhere. */
async function callback(location: string): Promise<{ status: number; page: string }> {
  const answer = await fetch(location, { redirect: 'manual' });
  return { status: answer.status, page: await answer.text() };
}

async function connectWithOAuth(ws: TestWorkspace): Promise<string> {
  const answered = await callback(await consent(await connectUrl(ws)));
  expect(answered.status, answered.page).toBe(200);
  return answered.page;
}

async function selectZone(ws: TestWorkspace, zoneId: string) {
  const answer = await t.rest(ws.key, 'POST', '/api/v1/integrations/cdn/zone', { zoneId });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as { zone: { id: string; name: string }; changed: boolean; backfill: { since: string; until: string; windowsTotal: number; windowsDone: number }; jobId: string | null };
}

const connectionRow = (workspaceId: string) => t.db.selectFrom('cdn_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
const syncJobs = (workspaceId: string) =>
  t.db.selectFrom('jobs').selectAll().where('workspace_id', '=', workspaceId).where('kind', '=', 'cdn_sync').orderBy('created_at').orderBy('id').execute();
const hoursStored = async (workspaceId: string) =>
  Number((await t.db.selectFrom('cdn_crawler_hours').select((eb) => eb.fn.countAll<number | string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()).n);
const trafficQueries = () => cloudflare.graphqlRequests.filter((request) => /httpRequestsAdaptiveGroups\s*\(/.test(request.query));
const queriedSince = (request: { variables: Record<string, unknown> }) => Date.parse((request.variables.filter as { datetime_geq: string }).datetime_geq);

describe('connecting Cloudflare with OAuth (get_cdn_connect_url and the callback)', () => {
  it('answers an authorization URL with PKCE S256 and a one-time state, stored hashed with the verifier sealed', async () => {
    const ws = await t.workspace();
    const answer = await t.rest(ws.key, 'POST', '/api/v1/integrations/cdn/connect-url', {});
    expect(answer.status).toBe(200);
    const data = answer.body.data as { url: string; expiresAt: string; redirectUri: string; scopes: string[] };
    const url = new URL(data.url);
    expect(url.origin + url.pathname).toBe(cloudflare.endpoints().authUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: cloudflare.clientId,
      redirect_uri: `${t.baseUrl}/integrations/cdn/callback`,
      scope: 'zone.read analytics.read',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(data).toMatchObject({ redirectUri: `${t.baseUrl}/integrations/cdn/callback`, scopes: ['zone.read', 'analytics.read'], expiresAt: new Date(t.clock.now() + 15 * 60_000).toISOString() });
    const [pending] = await t.db.selectFrom('cdn_authorizations').selectAll().where('workspace_id', '=', ws.workspaceId).execute();
    expect(pending!.state_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(pending!.state_hash).not.toContain(url.searchParams.get('state'));
    expect(pending!.code_verifier).toMatch(/^sealed:v1:/);
    expect(await readCdnStatus(t.db, ws.workspaceId)).toBeUndefined();
  });

  it('connects the workspace that asked for the URL when the owner allows access, tokens sealed, and lists the zones on a plain page', async () => {
    const ws = await t.workspace({ name: 'Acme Crawlers' });
    const page = await connectWithOAuth(ws);
    expect(page).toContain('Cloudflare is connected to the workspace <strong>Acme Crawlers</strong>');
    expect(page).toContain('acme-shop.example');
    const exchange = cloudflare.tokenRequests.at(-1)!;
    expect(exchange.form.get('grant_type')).toBe('authorization_code');
    expect(exchange.form.get('redirect_uri')).toBe(`${t.baseUrl}/integrations/cdn/callback`);
    // client_secret_basic unless CDN_TOKEN_AUTH_METHOD says otherwise.
    expect(exchange.authorization).toMatch(/^Basic /);
    const row = await connectionRow(ws.workspaceId);
    expect(row).toMatchObject({ via: 'oauth', access_token: expect.stringMatching(/^sealed:v1:/), refresh_token: expect.stringMatching(/^sealed:v1:/), zone_id: null });
    expect(row.access_expires_at).toBe(t.clock.now() + 3599_000);
    expect(await readCdnStatus(t.db, ws.workspaceId)).toEqual({ connected: true, via: 'oauth', zone: null, lastSyncAt: null, lastError: null, backfill: null });
    expect(await t.db.selectFrom('cdn_authorizations').selectAll().where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
  });

  it('takes a state once: the same callback again is refused, and connects nothing', async () => {
    const ws = await t.workspace();
    const location = await consent(await connectUrl(ws));
    expect((await callback(location)).status).toBe(200);
    const exchanges = cloudflare.tokenRequests.length;
    const again = await callback(location);
    expect(again.status).toBe(400);
    expect(again.page).toContain('this Cloudflare link is not valid: it expired (it lasts 15 minutes) or was already used');
    expect(cloudflare.tokenRequests).toHaveLength(exchanges);
  });

  it('refuses an expired state, an unknown one, and a refusal at Cloudflare, with clear pages', async () => {
    const ws = await t.workspace();
    const location = await consent(await connectUrl(ws));
    t.clock.advance(15 * 60_000 + 1);
    const expired = await callback(location);
    expect(expired.status).toBe(400);
    expect(expired.page).toContain('expired');
    const forged = new URL(location);
    forged.searchParams.set('state', 'a'.repeat(43));
    expect((await callback(forged.href)).status).toBe(400);
    const denied = new URL(await consent(await connectUrl(ws)));
    denied.searchParams.delete('code');
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('error_description', 'The resource owner denied the request');
    const refused = await callback(denied.href);
    expect(refused.status).toBe(400);
    expect(refused.page).toContain('Cloudflare did not grant access (access_denied: The resource owner denied the request)');
    expect(await readCdnStatus(t.db, ws.workspaceId)).toBeUndefined();
  });

  it("binds the state to its workspace: another workspace's calls see no connection and cannot select its zones", async () => {
    const connected = await t.workspace();
    const other = await t.workspace({ name: 'Other Co', site: 'https://other.example' });
    await connectWithOAuth(connected);
    expect((await t.rest(connected.key, 'GET', '/api/v1/integrations/cdn/zones')).status).toBe(200);

    const listed = await t.rest(other.key, 'GET', '/api/v1/integrations/cdn/zones');
    expect(listed.status).toBe(400);
    expect(listed.body.error).toContain('not connected to Cloudflare: call get_cdn_connect_url');
    const selected = await t.rest(other.key, 'POST', '/api/v1/integrations/cdn/zone', { zoneId: ZONE.id });
    expect(selected.status).toBe(404);
    expect(selected.body.error).toBe(`zoneId: Cloudflare zone ${ZONE.id} is not readable by this workspace's Cloudflare grant: this workspace is not connected to Cloudflare: call get_cdn_connect_url and open the URL, or paste an API token on the Settings page of the dashboard`);
    expect(await readCdnStatus(t.db, other.workspaceId)).toBeUndefined();
  });

  it('refreshes an expired access token before using it, storing the rotated tokens sealed', async () => {
    const ws = await t.workspace();
    await connectWithOAuth(ws);
    const before = await connectionRow(ws.workspaceId);
    t.clock.advance(3600_000);
    const listed = await t.rest(ws.key, 'GET', '/api/v1/integrations/cdn/zones');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(cloudflare.tokenRequests.at(-1)!.form.get('grant_type')).toBe('refresh_token');
    const after = await connectionRow(ws.workspaceId);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.refresh_token).toMatch(/^sealed:v1:/);
    expect(after.access_expires_at).toBe(t.clock.now() + 3599_000);
  });
});

describe('list_cdn_zones and select_cdn_zone', () => {
  it('lists every zone the grant reads, page after page, the selected one marked', async () => {
    const ws = await t.workspace();
    await pasteToken(ws);
    const many = Array.from({ length: 57 }, (_, i) => ({ id: `${i}`.padStart(32, 'a'), name: `site-${i}.example`, plan: 'Free Website', status: 'active' }));
    // Cloudflare's API description makes a zone's status and the list's total_pages optional.
    cloudflare.zones = [ZONE, ...many, { id: 'b'.repeat(32), name: 'new.example', plan: 'Free Website' }];
    cloudflare.resultInfo = ['page', 'per_page', 'count', 'total_count'];
    const listed = await t.rest(ws.key, 'GET', '/api/v1/integrations/cdn/zones');
    expect(listed.status).toBe(200);
    const data = listed.body.data as { zones: Array<{ id: string; selected: boolean }>; selectedZoneId: string | null };
    expect(data.zones).toHaveLength(59);
    expect(data.zones[0]).toEqual({ id: ZONE.id, name: ZONE.name, plan: 'Free Website', status: 'active', selected: false });
    expect(data.zones.at(-1)).toEqual({ id: 'b'.repeat(32), name: 'new.example', plan: 'Free Website', status: 'unknown', selected: false });
    expect(data.selectedZoneId).toBeNull();
    await selectZone(ws, ZONE.id);
    const again = (await t.rest(ws.key, 'GET', '/api/v1/integrations/cdn/zones')).body.data as typeof data;
    expect(again.selectedZoneId).toBe(ZONE.id);
    expect(again.zones.filter((zone) => zone.selected).map((zone) => zone.id)).toEqual([ZONE.id]);
  });

  it('refuses a zone the grant does not read with 404 naming zoneId, and passes on Cloudflare being busy as 503', async () => {
    const ws = await t.workspace();
    await pasteToken(ws);
    const unknown = await t.rest(ws.key, 'POST', '/api/v1/integrations/cdn/zone', { zoneId: 'ffffffffffffffffffffffffffffffff' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("zoneId: Cloudflare zone ffffffffffffffffffffffffffffffff is not readable by this workspace's Cloudflare grant: call list_cdn_zones for the zones it can read");
    cloudflare.fail('zones', rateLimited('30'));
    const busy = await t.rest(ws.key, 'GET', '/api/v1/integrations/cdn/zones');
    expect(busy.status).toBe(503);
    expect(busy.body.error).toContain('try again in 30 seconds');
    expect(await readCdnStatus(t.db, ws.workspaceId)).toMatchObject({ connected: true, via: 'api_token', zone: null });
  });
});

describe('the sync: backfill, resumption after a rate limit, the hourly poll', () => {
  it('backfills the retention the zone allows in windows of its widest query, storing AI crawlers only, summed per hour, crawler and path', async () => {
    const ws = await t.workspace();
    await pasteToken(ws);
    cloudflare.limits = { maxDuration: 3 * 86_400, maxPageSize: 10_000, notOlderThan: 31 * 86_400 };
    const selection = await selectZone(ws, ZONE.id);
    const now = t.clock.now();
    const since = Math.ceil((now - 31 * DAY_MS + HOUR_MS) / HOUR_MS) * HOUR_MS;
    const until = Math.floor(now / HOUR_MS) * HOUR_MS;
    expect(selection).toMatchObject({ zone: { id: ZONE.id, name: ZONE.name }, changed: true, jobId: expect.any(String) });
    expect(selection.backfill).toEqual({ since: new Date(since).toISOString(), until: new Date(until).toISOString(), windowsTotal: 11, windowsDone: 0 });
    expect(await readCdnStatus(t.db, ws.workspaceId)).toMatchObject({ zone: { id: ZONE.id, name: ZONE.name }, backfill: { windowsDone: 0, windowsTotal: 11 } });

    await t.jobs.drain();
    const queries = trafficQueries();
    expect(queries).toHaveLength(11);
    expect(queries.map(queriedSince)).toEqual(Array.from({ length: 11 }, (_, i) => since + i * 3 * DAY_MS));
    expect(queries.every((query) => (query.variables.filter as { requestSource: string }).requestSource === 'eyeball')).toBe(true);
    expect(await storedVisits(ws.workspaceId, since, until)).toEqual(expectedVisits(since, until));
    const visits = await cdnCrawlerVisits(t.db, ws.workspaceId, { since, until });
    const mostFirst = (counts: number[]) => counts.every((count, i) => i === 0 || count <= counts[i - 1]!);
    expect(mostFirst(visits.byCrawler.map((row) => row.visits))).toBe(true);
    expect(visits.byCrawler.find((row) => row.crawler === 'GPTBot')?.operator).toMatch(/OpenAI/);
    expect(mostFirst(visits.byPage.map((page) => page.visits))).toBe(true);
    expect(visits.byPage.map((page) => page.path).sort()).toEqual(['/', '/blog/launch', '/docs/setup', '/pricing']);
    // Hours: 4 AI crawler rows for each stored hour, the browser, Googlebot and the Workers subrequest left out.
    expect(await hoursStored(ws.workspaceId)).toBe(((until - since) / HOUR_MS) * 4);
    const status = await readCdnStatus(t.db, ws.workspaceId);
    expect(status).toMatchObject({ connected: true, lastSyncAt: t.clock.now(), lastError: null, backfill: { windowsDone: 11, windowsTotal: 11 } });
    expect(await syncJobs(ws.workspaceId)).toEqual([expect.objectContaining({ state: 'done', subject_id: ZONE.id })]);
  });

  it("waits out Cloudflare's rate limit through the job's retry, then resumes after the last stored window without counting twice", async () => {
    const ws = await t.workspace();
    await pasteToken(ws);
    const selection = await selectZone(ws, ZONE.id);
    expect(selection.backfill.windowsTotal).toBe(31);
    const since = Date.parse(selection.backfill.since);
    const until = Date.parse(selection.backfill.until);
    // The sixth window's query: Cloudflare's 429 with Retry-After; then its GraphQL limiter's message inside a 200.
    cloudflare.failAt('graphql', 6, rateLimited('600'));
    await t.jobs.drain();
    let [job] = await syncJobs(ws.workspaceId);
    expect(job).toMatchObject({ state: 'queued', attempts: 1 });
    expect(job!.run_at - t.clock.now()).toBeGreaterThanOrEqual(600_000);
    expect(job!.error).toContain('try again in 600 seconds');
    expect(await readCdnStatus(t.db, ws.workspaceId)).toMatchObject({ backfill: { windowsDone: 5, windowsTotal: 31 } });
    expect(trafficQueries()).toHaveLength(6);

    cloudflare.fail('graphql', graphqlErrors('rate limiter budget depleted, please try again later'));
    t.clock.advance(601_000);
    await t.jobs.drain();
    [job] = await syncJobs(ws.workspaceId);
    expect(job).toMatchObject({ state: 'queued', attempts: 2 });
    // No Retry-After in a GraphQL answer: Cloudflare's five-minute block.
    expect(job!.run_at - t.clock.now()).toBeGreaterThanOrEqual(300_000);

    t.clock.advance(job!.run_at - t.clock.now());
    await t.jobs.drain();
    [job] = await syncJobs(ws.workspaceId);
    expect(job).toMatchObject({ state: 'done', attempts: 3 });
    const queries = trafficQueries();
    // 5 stored, the refused sixth, the refused sixth again, then the sixth to the 31st: no window read twice once stored.
    expect(queries).toHaveLength(5 + 1 + 1 + 26);
    expect(queries.slice(5, 8).map(queriedSince)).toEqual([since + 5 * DAY_MS, since + 5 * DAY_MS, since + 5 * DAY_MS]);
    expect(await storedVisits(ws.workspaceId, since, until)).toEqual(expectedVisits(since, until));
    expect(await readCdnStatus(t.db, ws.workspaceId)).toMatchObject({ lastError: null, backfill: { windowsDone: 31, windowsTotal: 31 } });
  });

  it('selecting another zone drops the old hours and backfills the new one; the same zone again keeps them', async () => {
    const ws = await t.workspace();
    await pasteToken(ws);
    await selectZone(ws, ZONE.id);
    await t.jobs.drain();
    const stored = await hoursStored(ws.workspaceId);
    expect(stored).toBeGreaterThan(0);

    const same = await selectZone(ws, ZONE.id);
    // A catch-up sync is queued; it reads whatever zone is selected when it runs.
    expect(same).toMatchObject({ changed: false, backfill: { windowsDone: 31, windowsTotal: 31 }, jobId: expect.any(String) });
    expect(await hoursStored(ws.workspaceId)).toBe(stored);

    const other = await selectZone(ws, OTHER_ZONE.id);
    expect(other).toMatchObject({ zone: { id: OTHER_ZONE.id, name: OTHER_ZONE.name }, changed: true, backfill: { windowsDone: 0 }, jobId: null });
    expect(await hoursStored(ws.workspaceId)).toBe(0);
    cloudflare.graphqlRequests.length = 0;
    await t.jobs.drain();
    expect(trafficQueries().every((query) => query.variables.zoneTag === OTHER_ZONE.id)).toBe(true);
    expect(await hoursStored(ws.workspaceId)).toBe(stored);
  });

  it('polls every hour, once across instances, reading the new hours and the last two again without counting twice', async () => {
    const ws = await t.workspace();
    await pasteToken(ws);
    const selection = await selectZone(ws, ZONE.id);
    await t.jobs.drain();
    const since = Date.parse(selection.backfill.since);
    const firstUntil = Date.parse(selection.backfill.until);
    const jobsBefore = (await syncJobs(ws.workspaceId)).length;

    // Not yet due: the poll runs ten minutes after the next hour ends.
    t.clock.set(firstUntil + HOUR_MS + 9 * 60_000);
    await t.jobs.drain();
    expect(await syncJobs(ws.workspaceId)).toHaveLength(jobsBefore);

    t.clock.set(firstUntil + HOUR_MS + 10 * 60_000);
    cloudflare.graphqlRequests.length = 0;
    // A second instance's worker shares the sweep's claim: of the two, one queues the poll.
    const secondInstance = new JobWorker({
      db: t.db,
      clock: t.clock,
      services: t.service.services,
      logger: t.service.logger,
      handlers: JOB_HANDLERS,
      sweeps: [{ name: 'cdn-polls', everyMs: 60_000, run: () => queueDueCdnPolls(t.db, t.clock) }],
    });
    await Promise.all([secondInstance.drain(), t.jobs.drain()]);
    const jobs = await syncJobs(ws.workspaceId);
    expect(jobs).toHaveLength(jobsBefore + 1);
    expect(jobs.at(-1)).toMatchObject({ state: 'done' });
    const polled = trafficQueries().filter((query) => query.variables.zoneTag === ZONE.id);
    const newUntil = firstUntil + HOUR_MS;
    expect(polled.map(queriedSince)).toContain(firstUntil - 2 * HOUR_MS);
    expect(await storedVisits(ws.workspaceId, since, newUntil)).toEqual(expectedVisits(since, newUntil));
    expect(await connectionRow(ws.workspaceId)).toMatchObject({ synced_until: newUntil, next_poll_at: newUntil + HOUR_MS + 10 * 60_000 });
  });

  it('forgets a grant Cloudflare no longer accepts, keeping the reason for the owner', async () => {
    const ws = await t.workspace();
    await pasteToken(ws);
    await selectZone(ws, ZONE.id);
    cloudflare.revokeAll();
    await t.jobs.drain();
    const [job] = await syncJobs(ws.workspaceId);
    expect(job).toMatchObject({ state: 'failed' });
    const status = await readCdnStatus(t.db, ws.workspaceId);
    expect(status).toMatchObject({ connected: false, via: 'api_token', zone: { id: ZONE.id } });
    expect(status!.lastError).toContain('Connect Cloudflare again, or paste an API token');
    expect(await connectionRow(ws.workspaceId)).toMatchObject({ access_token: null });
    const listed = await t.rest(ws.key, 'GET', '/api/v1/integrations/cdn/zones');
    expect(listed.status).toBe(400);
  });
});

describe('the Settings page', () => {
  it('lets an owner paste a scoped API token, checked against Cloudflare before it is stored sealed, and refuses the Global API Key', async () => {
    const owner = await t.signedInOwner();
    const page = await owner.visitor.request(`/w/${owner.workspaceId}/settings`);
    const html = await page.text();
    expect(html).toContain(`action="/w/${owner.workspaceId}/cdn/token"`);
    expect(html).toContain(`action="/w/${owner.workspaceId}/cdn/connect"`);
    expect(page.headers.get('content-security-policy')).toContain(`form-action 'self' ${cloudflare.origin}`);
    const csrf = hiddenFields(html)._csrf!;

    const globalKey = await owner.visitor.request(`/w/${owner.workspaceId}/cdn/token`, { method: 'POST', form: { _csrf: csrf, apiToken: 'e'.repeat(37) } });
    expect(globalKey.status).toBe(400);
    expect(await globalKey.text()).toContain('Global API Key');
    const token = cloudflare.issueApiToken();
    cloudflare.zones = [ZONE, { id: 'b'.repeat(32), name: 'new.example', plan: 'Free Website' }];
    const saved = await owner.visitor.request(`/w/${owner.workspaceId}/cdn/token`, { method: 'POST', form: { _csrf: csrf, apiToken: ` Bearer ${token} ` } });
    expect(saved.status).toBe(200);
    const connected = await saved.text();
    expect(connected).toContain('Cloudflare is connected');
    expect(connected).toContain('acme.example <span class="muted">active · Free Website</span>');
    expect(connected).toContain('new.example <span class="muted">unknown · Free Website</span>');
    const row = await connectionRow(owner.workspaceId);
    expect(row).toMatchObject({ via: 'api_token', refresh_token: null, access_expires_at: null });
    expect(row.access_token).toMatch(/^sealed:v1:/);
    expect(t.service.services.credentials.open(row.access_token!)).toBe(token);
    expect(await (await owner.visitor.request(`/w/${owner.workspaceId}/settings`)).text()).toContain('with an API token');
  });
});

describe('without an OAuth client', () => {
  it('answers get_cdn_connect_url with 400 naming CDN_CLIENT_ID and CDN_CLIENT_SECRET', async () => {
    const bare = await TestService.start({ writer: false });
    try {
      const ws = await bare.workspace();
      const answer = await bare.rest(ws.key, 'POST', '/api/v1/integrations/cdn/connect-url', {});
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain('the operator must set CDN_CLIENT_ID and CDN_CLIENT_SECRET');
      expect(answer.body.error).toContain(`${bare.baseUrl}/integrations/cdn/callback`);
    } finally {
      await bare.close();
    }
  });
});

describe('secrets at rest', () => {
  it('reseals the Cloudflare tokens and pending PKCE verifiers under a new key, and back', async () => {
    const ws = await t.workspace();
    await connectWithOAuth(ws);
    await connectUrl(ws);
    const next = new CredentialSealer(Buffer.alloc(32, 4), [SECRETS_KEY]);
    const before = await connectionRow(ws.workspaceId);
    const counts = await resealCredentials(t.db, next);
    expect(counts['cdn_connections.access_token'].resealed).toBeGreaterThan(0);
    expect(counts['cdn_connections.refresh_token'].resealed).toBeGreaterThan(0);
    expect(counts['cdn_authorizations.code_verifier'].resealed).toBeGreaterThan(0);
    const after = await connectionRow(ws.workspaceId);
    expect(next.isCurrent(after.access_token!)).toBe(true);
    expect(next.open(after.refresh_token!)).toBe(t.service.services.credentials.open(before.refresh_token!));
    // Back under the service's key, which the rest of this file's service keeps using.
    await resealCredentials(t.db, new CredentialSealer(SECRETS_KEY, [Buffer.alloc(32, 4)]));
    expect((await t.rest(ws.key, 'GET', '/api/v1/integrations/cdn/zones')).status).toBe(200);
  });
});
