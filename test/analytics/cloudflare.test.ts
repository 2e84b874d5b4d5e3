import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ZONE_LIMITS, planBackfill } from '../../src/analytics/cdn/backfill.js';
import { CloudflareClient, pastedApiToken, pkceChallenge, pkceVerifier, type CloudflareOAuthClient, type CrawlerHour } from '../../src/integrations/cloudflare/cdn.js';
import { CloudflareAuthError, CloudflareError, CloudflareRateLimitError } from '../../src/analytics/cdn/errors.js';
import { ManualClock } from '../../src/clock.js';
import { crawlerDataSet, FakeCloudflare, graphqlErrors, rateLimited, USER_AGENTS, type FakeZone } from '../integrations/fakes/cloudflare.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Not on an hour, so that the planner's rounding shows. */
const NOW = Date.parse('2026-11-20T09:41:07Z');
const REDIRECT_URI = 'https://sightline.example/dashboard/cdn/callback';
const SCOPES = ['zone.read', 'analytics.read'];

const AI_USER_AGENTS: readonly string[] = [USER_AGENTS.gptBot, USER_AGENTS.claudeBot, USER_AGENTS.perplexityBot, USER_AGENTS.oaiSearchBot];
const ZONE: FakeZone = { id: '023e105f4ecef8ad9ca31a8372d0c353', name: 'acme.example', plan: 'Free Website', status: 'active' };

let fake: FakeCloudflare;
let client: CloudflareClient;
let oauthClient: CloudflareOAuthClient;
let token: string;

beforeAll(async () => {
  fake = await FakeCloudflare.start();
  fake.now = () => NOW;
  fake.traffic = crawlerDataSet(Math.floor((NOW - 40 * DAY) / HOUR) * HOUR, Math.floor(NOW / HOUR) * HOUR + HOUR);
  client = new CloudflareClient({ endpoints: fake.endpoints(), clock: new ManualClock(NOW) });
  oauthClient = { clientId: fake.clientId, clientSecret: fake.clientSecret };
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.zones = [ZONE];
  token = fake.issueApiToken();
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** The owner goes through the authorization URL and consents; the fake redirects back with a code and the state. */
async function consent(verifier: string, state = 'state-1'): Promise<{ code: string; state: string | null }> {
  const url = client.authorizationUrl({ clientId: fake.clientId, redirectUri: REDIRECT_URI, state, codeChallenge: pkceChallenge(verifier), scopes: SCOPES });
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location')!);
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state') };
}

describe('connecting Cloudflare with OAuth', () => {
  it('sends the owner to the authorization endpoint with the client, redirect URI, state, scopes and an S256 challenge', () => {
    const verifier = pkceVerifier();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pkceVerifier()).not.toBe(verifier);
    const url = new URL(client.authorizationUrl({ clientId: fake.clientId, redirectUri: REDIRECT_URI, state: 'one-time-state', codeChallenge: pkceChallenge(verifier), scopes: SCOPES }));
    expect(url.origin + url.pathname).toBe(fake.endpoints().authUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: fake.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'zone.read analytics.read',
      state: 'one-time-state',
      code_challenge: pkceChallenge(verifier),
      code_challenge_method: 'S256',
    });
    expect(new CloudflareClient().authorizationUrl({ clientId: 'c', redirectUri: REDIRECT_URI, state: 's', codeChallenge: 'x', scopes: SCOPES })).toMatch(
      /^https:\/\/dash\.cloudflare\.com\/oauth2\/auth\?/,
    );
  });

  it('computes the S256 challenge of RFC 7636, appendix B', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('exchanges the code and its verifier for tokens, client id and secret in the form, once', async () => {
    const verifier = pkceVerifier();
    const { code, state } = await consent(verifier, 'state-for-exchange');
    expect(state).toBe('state-for-exchange');
    const tokens = await client.exchangeCode(oauthClient, { code, codeVerifier: verifier, redirectUri: REDIRECT_URI });
    expect(tokens).toEqual({ accessToken: expect.stringMatching(/^ory_at_/), refreshToken: expect.stringMatching(/^ory_rt_/), expiresAt: NOW + 3599_000, scopes: SCOPES });
    expect(Object.fromEntries(fake.tokenRequests[0]!.form)).toEqual({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
    });
    expect(fake.tokenRequests[0]!.authorization).toBeUndefined();
    expect(await client.listZones(tokens.accessToken)).toEqual([{ id: ZONE.id, name: ZONE.name, plan: 'Free Website', status: 'active' }]);

    const reused = await failure(client.exchangeCode(oauthClient, { code, codeVerifier: verifier, redirectUri: REDIRECT_URI }));
    expect(reused).toBeInstanceOf(CloudflareAuthError);
    expect(reused.message).toMatch(/invalid_grant.*Connect Cloudflare again/s);
  });

  it('refuses a code brought with another verifier than the one challenged', async () => {
    const { code } = await consent(pkceVerifier());
    expect(await failure(client.exchangeCode(oauthClient, { code, codeVerifier: pkceVerifier(), redirectUri: REDIRECT_URI }))).toBeInstanceOf(CloudflareAuthError);
  });

  it('authenticates with Basic when the client was registered for client_secret_basic, the secret out of the form', async () => {
    const verifier = pkceVerifier();
    const { code } = await consent(verifier);
    const tokens = await client.exchangeCode({ ...oauthClient, tokenAuthMethod: 'client_secret_basic' }, { code, codeVerifier: verifier, redirectUri: REDIRECT_URI });
    expect(tokens.accessToken).toMatch(/^ory_at_/);
    const sent = fake.tokenRequests[0]!;
    expect(sent.authorization).toBe(`Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`);
    expect(sent.form.has('client_secret')).toBe(false);
  });

  it('refreshes: the new access token works and the rotated refresh token replaces the old one, which is then refused', async () => {
    const verifier = pkceVerifier();
    const { code } = await consent(verifier);
    const first = await client.exchangeCode(oauthClient, { code, codeVerifier: verifier, redirectUri: REDIRECT_URI });
    const refreshed = await client.refreshToken(oauthClient, first.refreshToken!);
    expect(refreshed.accessToken).not.toBe(first.accessToken);
    expect(refreshed.refreshToken).not.toBe(first.refreshToken);
    expect(refreshed.expiresAt).toBe(NOW + 3599_000);
    expect(Object.fromEntries(fake.tokenRequests.at(-1)!.form)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: first.refreshToken,
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
    });
    expect(await client.listZones(refreshed.accessToken)).toHaveLength(1);
    expect(await failure(client.refreshToken(oauthClient, first.refreshToken!))).toBeInstanceOf(CloudflareAuthError);
    expect((await client.refreshToken(oauthClient, refreshed.refreshToken!)).accessToken).toMatch(/^ory_at_/);
  });

  it('keeps the stored refresh token when a refresh answers none', async () => {
    fake.fail('token', { status: 200, body: { access_token: 'ory_at_new', token_type: 'bearer', expires_in: 60 } });
    expect(await client.refreshToken(oauthClient, 'ory_rt_stored')).toEqual({ accessToken: 'ory_at_new', refreshToken: 'ory_rt_stored', expiresAt: NOW + 60_000, scopes: null });
  });

  it('tells a wrong client secret (the operator’s setting) apart from a grant the owner must renew', async () => {
    const error = await failure(client.refreshToken({ ...oauthClient, clientSecret: 'wrong' }, 'ory_rt_any'));
    expect(error).toBeInstanceOf(CloudflareError);
    expect(error).not.toBeInstanceOf(CloudflareAuthError);
    expect(error.message).toMatch(/invalid_client.*client id, secret/s);
  });

  it('maps a rate-limited token endpoint to the wait it asks for', async () => {
    fake.fail('token', rateLimited('42'));
    const error = await failure(client.refreshToken(oauthClient, 'ory_rt_any'));
    expect(error).toBeInstanceOf(CloudflareRateLimitError);
    expect((error as CloudflareRateLimitError).retryAfterSeconds).toBe(42);
  });
});

describe('zones', () => {
  it('lists every zone across pages of 50, with plan and status', async () => {
    fake.zones = Array.from({ length: 120 }, (_, i) => ({ id: `zone${String(i).padStart(3, '0')}`, name: `site${i}.example`, plan: i % 2 ? 'Pro Website' : 'Free Website', status: i === 7 ? 'pending' : 'active' }));
    const zones = await client.listZones(token);
    expect(zones.map((zone) => zone.id)).toEqual(fake.zones.map((zone) => zone.id));
    expect(zones[7]).toEqual({ id: 'zone007', name: 'site7.example', plan: 'Pro Website', status: 'pending' });
    expect(fake.zoneRequests.map((query) => Object.fromEntries(query))).toEqual([1, 2, 3].map((page) => ({ page: String(page), per_page: '50' })));
  });

  it('pages on total_count when result_info has no total_pages, and on short pages when it has no totals either', async () => {
    fake.zones = Array.from({ length: 120 }, (_, i) => ({ id: `zone${String(i).padStart(3, '0')}`, name: `site${i}.example`, plan: 'Free Website', status: 'active' }));
    const pagesAsked = () => fake.zoneRequests.splice(0).map((query) => query.get('page'));
    fake.resultInfo = ['page', 'per_page', 'count', 'total_count'];
    expect((await client.listZones(token)).map((zone) => zone.id)).toEqual(fake.zones.map((zone) => zone.id));
    expect(pagesAsked()).toEqual(['1', '2', '3']);
    fake.resultInfo = ['page', 'per_page', 'count'];
    expect(await client.listZones(token)).toHaveLength(120);
    expect(pagesAsked()).toEqual(['1', '2', '3']);
    // Two full pages: only the empty third one says the list is over.
    fake.zones = fake.zones.slice(0, 100);
    fake.resultInfo = null;
    expect((await client.listZones(token)).map((zone) => zone.id)).toEqual(fake.zones.map((zone) => zone.id));
    expect(pagesAsked()).toEqual(['1', '2', '3']);
  });

  it('ends the list when a page adds no zone, whatever the counts claim', async () => {
    fake.zones = Array.from({ length: 50 }, (_, i) => ({ id: `zone${i}`, name: `site${i}.example`, plan: 'Free Website', status: 'active' }));
    fake.resultInfo = ['page', 'per_page', 'count'];
    const firstPage = { status: 200, body: { success: true, errors: [], messages: [], result: [{ id: 'zone0', name: 'site0.example', status: 'active' }], result_info: { page: 1, per_page: 1, count: 1 } } };
    fake.fail('zones', firstPage, firstPage);
    expect(await client.listZones(token)).toEqual([{ id: 'zone0', name: 'site0.example', plan: null, status: 'active' }]);
    expect(fake.zoneRequests).toHaveLength(2);
  });

  it('lists a zone without a status as one whose status is unknown, not as active', async () => {
    fake.zones = [ZONE, { id: 'f1e2d3c4b5a6978812345678abcdef01', name: 'new.example', plan: 'Free Website' }];
    expect(await client.listZones(token)).toEqual([
      { id: ZONE.id, name: ZONE.name, plan: 'Free Website', status: 'active' },
      { id: 'f1e2d3c4b5a6978812345678abcdef01', name: 'new.example', plan: 'Free Website', status: 'unknown' },
    ]);
  });

  it('accepts a pasted API token as it was copied, and refuses the Global API Key and other text', async () => {
    expect(await client.listZones(pastedApiToken(`  Bearer ${token}\n`))).toHaveLength(1);
    expect(() => pastedApiToken('0123456789abcdef0123456789abcdef01234')).toThrow(/Global API Key/);
    expect(() => pastedApiToken('my password')).toThrow(CloudflareError);
  });
});

describe('crawler traffic and the backfill', () => {
  it('reads the zone’s limits from the GraphQL settings node, with defaults for what it leaves out', async () => {
    fake.limits = { maxDuration: 259_200, maxPageSize: 5000, notOlderThan: 2_678_400 };
    expect(await client.zoneLimits(token, ZONE.id)).toEqual({ retentionSeconds: 2_678_400, maxDurationSeconds: 259_200, maxPageSize: 5000 });
    expect(fake.graphqlRequests[0]!.variables).toEqual({ zoneTag: ZONE.id });
    fake.limits = { maxDuration: null, maxPageSize: null, notOlderThan: 8 * 86_400 };
    expect(await client.zoneLimits(token, ZONE.id)).toEqual({ ...DEFAULT_ZONE_LIMITS, retentionSeconds: 8 * 86_400 });
    fake.limits = null;
    expect(await client.zoneLimits(token, ZONE.id)).toEqual({ retentionSeconds: 31 * 86_400, maxDurationSeconds: 86_400, maxPageSize: 10_000 });
  });

  it('plans whole-hour windows, oldest first, contiguous, none wider than maxDuration, ending before the hour in progress', () => {
    const until = Date.parse('2026-11-20T09:00:00Z');
    const daily = planBackfill({ retentionSeconds: 31 * 86_400, maxDurationSeconds: 86_400 }, NOW);
    expect(daily).toHaveLength(31);
    // The oldest readable hour is left as margin, and the partial one before it.
    expect(daily[0]!.since).toBe(Date.parse('2026-10-20T11:00:00Z'));
    expect(daily.at(-1)!.until).toBe(until);
    for (const [i, window] of daily.entries()) {
      expect(window.since % HOUR).toBe(0);
      expect(window.until - window.since).toBeLessThanOrEqual(DAY);
      if (i > 0) expect(window.since).toBe(daily[i - 1]!.until);
    }
    const threeDays = planBackfill({ retentionSeconds: 31 * 86_400, maxDurationSeconds: 3 * 86_400 }, NOW);
    expect(threeDays).toHaveLength(11);
    expect(threeDays[0]!.until - threeDays[0]!.since).toBe(3 * DAY);
    const halfHour = planBackfill({ retentionSeconds: 6 * 3600, maxDurationSeconds: 1800 }, NOW);
    expect(halfHour.map((window) => (window.until - window.since) / HOUR)).toEqual([1, 1, 1, 1]);
  });

  it('backfills 31 days in several chunks: every hour of every AI crawler exactly once, classified, browsers and Googlebot left out', async () => {
    const limits = await client.zoneLimits(token, ZONE.id);
    const windows = planBackfill(limits, NOW);
    expect(windows.length).toBeGreaterThan(1);
    const rows: CrawlerHour[] = [];
    for (const window of windows) {
      // A page of 50 holds about 8 hours of the data set: each day's chunk is also split further.
      const traffic = await client.crawlerTraffic(token, ZONE.id, window, 50);
      expect(traffic.incompleteHours).toEqual([]);
      rows.push(...traffic.rows);
    }
    const from = windows[0]!.since;
    const to = windows.at(-1)!.until;
    const expected = fake.traffic
      .filter((row) => row.source === undefined && AI_USER_AGENTS.includes(row.userAgent) && row.hour >= from && row.hour < to)
      .map((row) => ({ hour: row.hour, userAgent: row.userAgent, path: row.path, requests: row.requests }));
    expect(expected).toHaveLength(((to - from) / HOUR) * 4);
    const key = (row: { hour: number; userAgent: string; path: string }) => `${row.hour} ${row.userAgent} ${row.path}`;
    expect(new Set(rows.map(key)).size).toBe(rows.length);
    const byKey = (a: { hour: number; userAgent: string; path: string }, b: { hour: number; userAgent: string; path: string }) => key(a).localeCompare(key(b));
    expect(rows.map(({ hour, userAgent, path, requests }) => ({ hour, userAgent, path, requests })).sort(byKey)).toEqual(expected.sort(byKey));
    expect(rows.every((row, i) => i === 0 || row.hour >= rows[i - 1]!.hour)).toBe(true);

    const classifications = new Map(rows.map((row) => [row.userAgent, { crawler: row.crawler, category: row.category, operator: row.operator }]));
    expect(Object.fromEntries(classifications)).toEqual({
      [USER_AGENTS.gptBot]: { crawler: 'GPTBot', category: 'training', operator: 'OpenAI' },
      [USER_AGENTS.claudeBot]: { crawler: 'ClaudeBot', category: 'training', operator: 'Anthropic' },
      [USER_AGENTS.perplexityBot]: { crawler: 'PerplexityBot', category: 'search_index', operator: 'Perplexity' },
      [USER_AGENTS.oaiSearchBot]: { crawler: 'OAI-SearchBot', category: 'search_index', operator: 'OpenAI' },
    });

    const trafficQueries = fake.graphqlRequests.filter((request) => request.query.includes('httpRequestsAdaptiveGroups('));
    expect(trafficQueries.length).toBeGreaterThan(windows.length);
    for (const { query, variables } of trafficQueries) {
      expect(query).toMatch(/orderBy: \[datetimeHour_ASC, count_DESC\]/);
      expect(query).toMatch(/dimensions \{ datetimeHour userAgent clientRequestPath \}/);
      const filter = variables.filter as Record<string, string>;
      expect(variables.zoneTag).toBe(ZONE.id);
      expect(filter.requestSource).toBe('eyeball');
      expect(filter.datetime_geq).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00Z$/);
      expect(Date.parse(filter.datetime_lt!) - Date.parse(filter.datetime_geq!)).toBeLessThanOrEqual(DAY);
    }
  });

  it('reports an hour whose groups overflow a page even alone as incomplete, keeping its busiest groups', async () => {
    const since = Date.parse('2026-11-19T00:00:00Z');
    const traffic = await client.crawlerTraffic(token, ZONE.id, { since, until: since + 3 * HOUR }, 5);
    expect(traffic.incompleteHours).toEqual([since, since + HOUR, since + 2 * HOUR]);
    // Of six groups an hour the browser (40) and Googlebot (5) fill two of the five places.
    expect(traffic.rows).toHaveLength(9);
    for (const hour of traffic.incompleteHours) expect(traffic.rows.filter((row) => row.hour === hour && row.crawler === 'ClaudeBot')).toHaveLength(1);
  });

  it('refuses a window that is not whole hours before asking Cloudflare', async () => {
    const since = Date.parse('2026-11-19T00:00:00Z');
    await expect(client.crawlerTraffic(token, ZONE.id, { since: since + 60_000, until: since + HOUR })).rejects.toThrow(RangeError);
    await expect(client.crawlerTraffic(token, ZONE.id, { since, until: since })).rejects.toThrow(RangeError);
    expect(fake.graphqlRequests).toHaveLength(0);
  });
});

describe('failures', () => {
  const yesterday = { since: Date.parse('2026-11-19T00:00:00Z'), until: Date.parse('2026-11-20T00:00:00Z') };

  it('maps a 429 to a rate-limit error carrying Retry-After, five minutes when Cloudflare sends none', async () => {
    fake.fail('zones', rateLimited('120'));
    const zones = await failure(client.listZones(token));
    expect(zones).toBeInstanceOf(CloudflareRateLimitError);
    expect(zones).toMatchObject({ retryAfterSeconds: 120, retryable: true });
    expect(zones.message).toContain('Please wait and consider throttling your request speed');

    fake.fail('graphql', { status: 429, body: { data: null, errors: [{ message: 'rate limiter budget depleted, try again after 5 minutes' }] } });
    expect(await failure(client.crawlerTraffic(token, ZONE.id, yesterday))).toMatchObject({ retryAfterSeconds: 300 });
  });

  it('reads GraphQL errors inside a 200: the rate limiter, authorization, limits and unavailability', async () => {
    fake.fail('graphql', graphqlErrors('rate limiter budget depleted, try again after 5 minutes'));
    const budget = await failure(client.crawlerTraffic(token, ZONE.id, yesterday));
    expect(budget).toBeInstanceOf(CloudflareRateLimitError);
    expect(budget).toMatchObject({ retryAfterSeconds: 300 });

    fake.fail('graphql', graphqlErrors(`zone '${ZONE.id}' does not have access to the path`));
    expect(await failure(client.zoneLimits(token, ZONE.id))).toBeInstanceOf(CloudflareAuthError);

    fake.fail('graphql', graphqlErrors('too many queries in progress, please try again later'));
    const busy = await failure(client.crawlerTraffic(token, ZONE.id, yesterday));
    expect(busy).not.toBeInstanceOf(CloudflareRateLimitError);
    expect(busy).toMatchObject({ retryable: true });

    // Beyond the zone's retention: the fake refuses it as Cloudflare does, in a 200.
    const old = await failure(client.crawlerTraffic(token, ZONE.id, { since: yesterday.since - 40 * DAY, until: yesterday.since - 39 * DAY }));
    expect(old).toBeInstanceOf(CloudflareError);
    expect(old).not.toBeInstanceOf(CloudflareAuthError);
    expect(old).not.toBeInstanceOf(CloudflareRateLimitError);
    expect(old).toMatchObject({ retryable: false });
    expect(old.message).toContain('cannot request data older than 2678400s');
  });

  it('maps a 401 to an authorization error telling the owner to reconnect', async () => {
    fake.revokeAll();
    const graphql = await failure(client.crawlerTraffic(token, ZONE.id, yesterday));
    expect(graphql).toBeInstanceOf(CloudflareAuthError);
    expect(graphql.message).toMatch(/401: Unauthorized.*Connect Cloudflare again/s);
    const zones = await failure(client.listZones(token));
    expect(zones).toBeInstanceOf(CloudflareAuthError);
    expect(zones.message).toContain('Authentication error (code 10000)');
    expect(zones).toMatchObject({ retryable: false });
  });

  it('treats a zone the token cannot read as an authorization failure', async () => {
    expect(await failure(client.crawlerTraffic(token, 'ffffffffffffffffffffffffffffffff', yesterday))).toBeInstanceOf(CloudflareAuthError);
  });

  it('keeps Cloudflare’s message for other answers, retryable for 5xx', async () => {
    fake.fail('zones', { status: 500, body: { success: false, errors: [{ code: 10001, message: 'service temporarily unavailable' }], messages: [], result: null } });
    const error = await failure(client.listZones(token));
    expect(error).not.toBeInstanceOf(CloudflareAuthError);
    expect(error).toMatchObject({ retryable: true });
    expect(error.message).toContain('500: service temporarily unavailable (code 10001)');
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    const impatient = new CloudflareClient({ endpoints: fake.endpoints(), timeoutMs: 300 });
    fake.fail('zones', { hang: true });
    const error = await failure(impatient.listZones(token));
    expect(error).toBeInstanceOf(CloudflareError);
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining('did not answer within 0.3 seconds') });
  });
});
