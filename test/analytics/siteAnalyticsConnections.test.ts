import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectSiteAnalytics,
  disconnectSiteAnalytics,
  noteSiteAnalyticsError,
  readSiteAnalyticsConnection,
  siteAnalyticsProvider,
} from '../../src/analytics/providers/connections.js';
import type { SiteAnalyticsConnection } from '../../src/analytics/providers/connection.js';
import { AnalyticsAuthError, AnalyticsNotConfiguredError } from '../../src/analytics/providers/provider.js';
import { resealCredentials } from '../../src/credentials/reseal.js';
import { CredentialSealer } from '../../src/credentials/sealed.js';
import { RANGE, TOP_PAGES_BY_VISITS, TOTALS, VISITS_BY_DAY, VISITS_BY_SOURCE } from '../integrations/fakes/siteVisits.js';
import { SiteAnalyticsSetup } from './siteAnalyticsSupport.js';
import { failure } from './support.js';

const SEALED = /^sealed:v1:[0-9a-f]{8}:/;
/** Plausible and GA4 count the same visits of the same sources; GA4 counts self-referrals as direct given the site host. */
const TRAFFIC_BY_VISITS = { ...TOTALS, breakdownCounts: 'visits', bySource: VISITS_BY_SOURCE, daily: VISITS_BY_DAY, topPages: TOP_PAGES_BY_VISITS };

let s: SiteAnalyticsSetup;
beforeAll(async () => {
  s = await SiteAnalyticsSetup.start();
});
beforeEach(() => s.reset());
afterAll(() => s.close());

const connect = (workspaceId: string, connection: SiteAnalyticsConnection) => connectSiteAnalytics(s.t.db, s.t.clock, s.services, workspaceId, connection);
const plausible = (): SiteAnalyticsConnection => ({ provider: 'plausible', baseUrl: s.plausible.origin, siteId: s.plausible.siteId, apiKey: s.plausible.apiKey });
const umamiSelfHosted = (password = s.umami.password): SiteAnalyticsConnection => ({
  provider: 'umami',
  kind: 'self-hosted',
  baseUrl: s.umami.baseUrl,
  username: s.umami.username,
  password,
  websiteId: s.umami.websiteId,
});
const ga4 = (refreshToken: string): SiteAnalyticsConnection => ({ provider: 'ga4', propertyId: s.ga4.propertyId, propertyName: 'acme.example', refreshToken });

describe('a workspace that connected no web-analytics provider', () => {
  it('answers AnalyticsNotConfiguredError, without a provider, naming what to connect and where', async () => {
    const ws = await s.t.workspace();
    const error = await failure(siteAnalyticsProvider(s.t.db, s.services, ws.workspaceId), AnalyticsNotConfiguredError);
    expect(error.message).toBe('no web-analytics provider is connected: connect Plausible, Umami or Google Analytics on the Settings page');
    expect(error.provider).toBeNull();
    expect(error.setting).toBe('connection');
    expect(await readSiteAnalyticsConnection(s.t.db, ws.workspaceId)).toBeUndefined();
  });
});

describe('connecting a provider and reading through it', () => {
  it('Plausible: checks yesterday first, stores the key sealed, and the provider built from the row reads the traffic', async () => {
    const ws = await s.t.workspace();
    await connect(ws.workspaceId, plausible());
    expect(s.plausible.dataCalls().map((call) => (call.body as { date_range: unknown }).date_range)).toContainEqual(['2026-11-20', '2026-11-20']);

    const row = await s.connectionRow(ws.workspaceId);
    expect(row).toMatchObject({ provider: 'plausible', credential: expect.stringMatching(SEALED), connected_at: s.t.clock.now(), last_error: null });
    expect(JSON.parse(row!.settings)).toEqual({ baseUrl: s.plausible.origin, siteId: s.plausible.siteId });
    expect(JSON.stringify(row)).not.toContain(s.plausible.apiKey);
    expect(await readSiteAnalyticsConnection(s.t.db, ws.workspaceId)).toEqual({
      provider: 'plausible',
      connectedAt: s.t.clock.now(),
      lastError: null,
      site: s.plausible.siteId,
      siteName: null,
      baseUrl: s.plausible.origin,
    });

    s.plausible.reset();
    const provider = await siteAnalyticsProvider(s.t.db, s.services, ws.workspaceId);
    expect(provider.name).toBe('plausible');
    expect(await provider.traffic(RANGE)).toEqual(TRAFFIC_BY_VISITS);
    expect(new Set(s.plausible.dataCalls().map((call) => call.headers.authorization))).toEqual(new Set([`Bearer ${s.plausible.apiKey}`]));
  });

  it('Umami self-hosted signs in with the sealed password, Umami Cloud sends the sealed API key', async () => {
    const selfHosted = await s.t.workspace();
    await connect(selfHosted.workspaceId, umamiSelfHosted());
    const cloud = await s.t.workspace();
    await connect(cloud.workspaceId, { provider: 'umami', kind: 'cloud', baseUrl: s.umamiCloud.baseUrl, apiKey: s.umamiCloud.apiKey, websiteId: s.umamiCloud.websiteId });

    for (const [ws, secret] of [
      [selfHosted, s.umami.password],
      [cloud, s.umamiCloud.apiKey],
    ] as const) {
      const row = await s.connectionRow(ws.workspaceId);
      expect(row?.credential).toMatch(SEALED);
      expect(JSON.stringify(row)).not.toContain(secret);
      const traffic = await (await siteAnalyticsProvider(s.t.db, s.services, ws.workspaceId)).traffic(RANGE);
      expect(traffic).toMatchObject({ ...TOTALS, breakdownCounts: 'visitors', daily: VISITS_BY_DAY });
    }
    expect(JSON.parse((await s.connectionRow(selfHosted.workspaceId))!.settings)).toEqual({
      kind: 'self-hosted',
      baseUrl: s.umami.baseUrl,
      username: s.umami.username,
      websiteId: s.umami.websiteId,
    });
    expect(s.umami.logins().length).toBeGreaterThanOrEqual(2);
    expect(s.umamiCloud.dataCalls().every((call) => call.headers['x-umami-api-key'] === s.umamiCloud.apiKey)).toBe(true);
  });

  it('stores nothing when the provider refuses the settings, and keeps the connection in place', async () => {
    const ws = await s.t.workspace();
    await connect(ws.workspaceId, plausible());
    const before = await s.connectionRow(ws.workspaceId);
    s.t.clock.advance(60_000);
    const refused = await failure(connect(ws.workspaceId, umamiSelfHosted('wrong password')), AnalyticsAuthError);
    expect(refused.message).toContain('Umami refused the credentials (401)');
    expect(await s.connectionRow(ws.workspaceId)).toEqual(before);

    const unknownSite = await failure(connect(ws.workspaceId, { ...plausible(), siteId: 'other.example' } as SiteAnalyticsConnection), AnalyticsAuthError);
    expect(unknownSite.provider).toBe('plausible');
    expect(await s.connectionRow(ws.workspaceId)).toEqual(before);
  });

  it('replaces the connection before, forgetting its error', async () => {
    const ws = await s.t.workspace();
    await connect(ws.workspaceId, plausible());
    await noteSiteAnalyticsError(s.t.db, ws.workspaceId, 'Plausible is limiting requests (429): too many');
    s.t.clock.advance(60_000);
    await connect(ws.workspaceId, umamiSelfHosted());
    expect(await readSiteAnalyticsConnection(s.t.db, ws.workspaceId)).toEqual({
      provider: 'umami',
      connectedAt: s.t.clock.now(),
      lastError: null,
      site: s.umami.websiteId,
      siteName: null,
      baseUrl: s.umami.baseUrl,
    });
    expect((await siteAnalyticsProvider(s.t.db, s.services, ws.workspaceId)).name).toBe('umami');
  });

  it('keeps a provider failure as lastError until it is cleared, and forgets all on disconnect', async () => {
    const ws = await s.t.workspace();
    await connect(ws.workspaceId, plausible());
    await noteSiteAnalyticsError(s.t.db, ws.workspaceId, 'Plausible refused the credentials (401): Invalid API key');
    expect(await readSiteAnalyticsConnection(s.t.db, ws.workspaceId)).toMatchObject({ lastError: 'Plausible refused the credentials (401): Invalid API key' });
    await noteSiteAnalyticsError(s.t.db, ws.workspaceId, null);
    expect(await readSiteAnalyticsConnection(s.t.db, ws.workspaceId)).toMatchObject({ lastError: null });

    await disconnectSiteAnalytics(s.t.db, ws.workspaceId);
    expect(await s.connectionRow(ws.workspaceId)).toBeUndefined();
    await failure(siteAnalyticsProvider(s.t.db, s.services, ws.workspaceId), AnalyticsNotConfiguredError);
  });
});

describe('a Google Analytics connection', () => {
  it('refreshes the sealed grant once per provider built and reads the property through the Data API', async () => {
    const ws = await s.t.workspace();
    const refreshToken = s.google.grant();
    await connect(ws.workspaceId, ga4(refreshToken));
    const row = await s.connectionRow(ws.workspaceId);
    expect(row?.credential).toMatch(SEALED);
    expect(JSON.stringify(row)).not.toContain(refreshToken);
    expect(await readSiteAnalyticsConnection(s.t.db, ws.workspaceId)).toMatchObject({ provider: 'ga4', site: s.ga4.propertyId, siteName: 'acme.example', baseUrl: null });

    s.google.reset();
    s.ga4.reset();
    const provider = await siteAnalyticsProvider(s.t.db, s.services, ws.workspaceId);
    expect(await provider.traffic(RANGE)).toEqual(TRAFFIC_BY_VISITS);
    expect(s.google.tokenRequests().map((form) => Object.fromEntries(form))).toEqual([
      { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: s.google.clientId, client_secret: s.google.clientSecret },
    ]);
    expect(s.ga4.dataCalls().map((call) => call.path)).toContain(`/v1beta/properties/${s.ga4.propertyId}:runReport`);
  });

  it('says to connect again when Google no longer accepts the grant', async () => {
    const ws = await s.t.workspace();
    await connect(ws.workspaceId, ga4(s.google.grant()));
    s.google.revokeAll();
    s.ga4.reset();
    const provider = await siteAnalyticsProvider(s.t.db, s.services, ws.workspaceId);
    const error = await failure(provider.traffic(RANGE), AnalyticsAuthError);
    expect(error.message).toBe(
      'Google refused the refresh of the stored authorization (invalid_grant: Token has been expired or revoked.): connect Google Analytics again on the Settings page',
    );
    expect(s.ga4.dataCalls()).toEqual([]);
  });

  it('names the operator settings when the server lost its Google client', async () => {
    const ws = await s.t.workspace();
    await connect(ws.workspaceId, ga4(s.google.grant()));
    const error = await failure(siteAnalyticsProvider(s.t.db, { ...s.services, googleAnalytics: undefined }, ws.workspaceId), AnalyticsNotConfiguredError);
    expect(error.message).toBe(
      'Google Analytics is not configured: GA4_CLIENT_ID and GA4_CLIENT_SECRET (or GSC_CLIENT_ID and GSC_CLIENT_SECRET) are not set: the operator must set them',
    );
  });
});

describe('the stored secrets under a new SECRETS_KEY', () => {
  it('are sealed again by reseal-credentials and still open for the provider', async () => {
    const ws = await s.t.workspace();
    await connect(ws.workspaceId, plausible());
    const rotated = new CredentialSealer(randomBytes(32), [s.secretsKey]);
    const counts = await resealCredentials(s.t.db, rotated);
    expect(counts.site_analytics_connections.resealed).toBeGreaterThanOrEqual(1);
    const row = await s.connectionRow(ws.workspaceId);
    expect(rotated.isCurrent(row!.credential)).toBe(true);
    const provider = await siteAnalyticsProvider(s.t.db, { ...s.services, credentials: rotated }, ws.workspaceId);
    expect((await provider.traffic(RANGE)).visits).toBe(TOTALS.visits);
  });
});
