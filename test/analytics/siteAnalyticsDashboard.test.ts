import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { noteSiteAnalyticsError, siteAnalyticsProvider } from '../../src/analytics/providers/connections.js';
import { sha256Hex } from '../../src/secrets.js';
import { TestService } from '../support/harness.js';
import { hiddenFields, Visitor } from '../support/visitor.js';
import { RANGE, TOTALS } from '../integrations/fakes/siteVisits.js';
import { SiteAnalyticsSetup } from './siteAnalyticsSupport.js';

const SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';

let s: SiteAnalyticsSetup;
beforeAll(async () => {
  s = await SiteAnalyticsSetup.start();
});
beforeEach(() => s.reset());
afterAll(() => s.close());

type Owner = Awaited<ReturnType<TestService['signedInOwner']>>;

/** Sends a form of the Settings page as the browser would, with the page's CSRF token. */
async function post(visitor: Visitor, workspaceId: string, path: string, form: Record<string, string> = {}): Promise<Response> {
  const csrf = await visitor.csrf(`/w/${workspaceId}/settings`);
  return visitor.request(path, { method: 'POST', form: { _csrf: csrf, ...form } });
}

const page = async (visitor: Visitor, workspaceId: string) => (await visitor.request(`/w/${workspaceId}/settings`)).text();
const plausibleForm = () => ({ siteId: s.plausible.siteId, apiKey: s.plausible.apiKey, baseUrl: s.plausible.origin });
const authorizations = (workspaceId: string) => s.t.db.selectFrom('ga4_authorizations').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
const userId = async (email: string) => (await s.t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

/** Presses Connect Google Analytics; answers the service's redirect to Google's consent screen. */
const pressConnectGa4 = (owner: Owner) => post(owner.visitor, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/ga4/connect`);

/** Google's consent screen (the fake consents at once): where it sends the browser back. */
async function consentAt(authorizationUrl: string): Promise<string> {
  const consent = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  return consent.headers.get('location')!;
}

/** The owner's browser through Google's consent and back: the service's answer to the callback. */
async function authorizeGa4(owner: Owner): Promise<Response> {
  const started = await pressConnectGa4(owner);
  expect(started.status).toBe(303);
  return owner.visitor.request(await consentAt(started.headers.get('location')!));
}

describe('the web-analytics section of the Settings page', () => {
  it('offers owners the Plausible, Umami and Google Analytics forms, lets Google be a form target, and members only a note', async () => {
    const owner = await s.t.signedInOwner();
    const answer = await owner.visitor.request(`/w/${owner.workspaceId}/settings`);
    const html = await answer.text();
    expect(html).toContain('<h2>Web analytics</h2>');
    for (const action of ['plausible', 'umami-self-hosted', 'umami-cloud', 'ga4/connect']) expect(html).toContain(`action="/w/${owner.workspaceId}/site-analytics/${action}"`);
    expect(answer.headers.get('content-security-policy')).toContain(`form-action 'self' ${s.google.origin}`);

    await s.t.user(owner.workspaceId, `member-${owner.workspaceId}@acme.example`, 'member');
    const member = new Visitor(s.t.baseUrl);
    await member.signIn(`member-${owner.workspaceId}@acme.example`, 'correct horse battery');
    const memberHtml = await page(member, owner.workspaceId);
    expect(memberHtml).toContain('An owner of this workspace can connect it.');
    expect(memberHtml).not.toContain('/site-analytics/');
  });

  it('refuses members (403), connecting nothing', async () => {
    const owner = await s.t.signedInOwner();
    await s.t.user(owner.workspaceId, `member-${owner.workspaceId}@acme.example`, 'member');
    const member = new Visitor(s.t.baseUrl);
    await member.signIn(`member-${owner.workspaceId}@acme.example`, 'correct horse battery');

    expect((await post(member, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/plausible`, plausibleForm())).status).toBe(403);
    expect((await post(member, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/ga4/connect`)).status).toBe(403);
    expect(await s.connectionRow(owner.workspaceId)).toBeUndefined();
    expect(s.plausible.calls).toEqual([]);

    await post(owner.visitor, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/plausible`, plausibleForm());
    expect((await post(member, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/disconnect`)).status).toBe(403);
    expect(await s.connectionRow(owner.workspaceId)).toMatchObject({ provider: 'plausible' });
  });
});

describe('connecting Plausible and Umami with their forms', () => {
  it('connects Plausible, shows what it reads and offers Disconnect; disconnecting offers the forms again', async () => {
    const owner = await s.t.signedInOwner();
    const done = await post(owner.visitor, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/plausible`, plausibleForm());
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`/w/${owner.workspaceId}/settings`);
    const html = await page(owner.visitor, owner.workspaceId);
    expect(html).toContain('<td id="site-analytics-provider">Plausible</td>');
    expect(html).toContain(`site <code>${s.plausible.siteId}</code> at ${s.plausible.origin}`);
    expect(html).not.toContain(`action="/w/${owner.workspaceId}/site-analytics/plausible"`);
    expect(html).not.toContain(s.plausible.apiKey);

    const again = await post(owner.visitor, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/umami-cloud`, { apiKey: 'x', websiteId: 'y' });
    expect(again.status).toBe(409);

    expect((await post(owner.visitor, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/disconnect`)).status).toBe(303);
    expect(await s.connectionRow(owner.workspaceId)).toBeUndefined();
    expect(await page(owner.visitor, owner.workspaceId)).toContain(`action="/w/${owner.workspaceId}/site-analytics/plausible"`);
  });

  it('connects a self-hosted Umami with its user and Umami Cloud with its API key', async () => {
    const selfHosted = await s.t.signedInOwner();
    const form = { baseUrl: s.umami.baseUrl, username: s.umami.username, password: s.umami.password, websiteId: s.umami.websiteId };
    expect((await post(selfHosted.visitor, selfHosted.workspaceId, `/w/${selfHosted.workspaceId}/site-analytics/umami-self-hosted`, form)).status).toBe(303);
    expect(await page(selfHosted.visitor, selfHosted.workspaceId)).toContain(`website <code>${s.umami.websiteId}</code> at ${s.umami.baseUrl}`);

    const cloud = await s.t.signedInOwner();
    const cloudForm = { apiKey: s.umamiCloud.apiKey, websiteId: s.umamiCloud.websiteId, baseUrl: s.umamiCloud.baseUrl };
    expect((await post(cloud.visitor, cloud.workspaceId, `/w/${cloud.workspaceId}/site-analytics/umami-cloud`, cloudForm)).status).toBe(303);
    const traffic = await (await siteAnalyticsProvider(s.t.db, s.services, cloud.workspaceId)).traffic(RANGE);
    expect(traffic).toMatchObject(TOTALS);
  });

  it('shows the form again with the problem and the fields typed (never the secret) when a field is wrong or the provider refuses', async () => {
    const owner = await s.t.signedInOwner();
    const path = `/w/${owner.workspaceId}/site-analytics/plausible`;
    const badSite = await post(owner.visitor, owner.workspaceId, path, { ...plausibleForm(), siteId: 'https://acme.example/' });
    expect(badSite.status).toBe(400);
    expect(await badSite.text()).toContain('Site id: the site’s domain as Plausible lists it');
    const plainHttp = await post(owner.visitor, owner.workspaceId, path, { ...plausibleForm(), baseUrl: 'http://plausible.acme.example' });
    expect(plainHttp.status).toBe(400);
    expect(await plainHttp.text()).toContain('Server: must be an https URL such as https://plausible.io.');
    expect(s.plausible.calls).toEqual([]);

    const wrongKey = await post(owner.visitor, owner.workspaceId, path, { ...plausibleForm(), apiKey: 'not-the-key' });
    expect(wrongKey.status).toBe(400);
    const html = await wrongKey.text();
    expect(html).toContain('<p class="notice error" role="alert" id="site-analytics-error">Plausible was not connected: Plausible refused the credentials (401)');
    expect(html).toContain(`value="${s.plausible.siteId}"`);
    expect(html).toContain(`value="${s.plausible.origin}"`);
    expect(html).not.toContain('not-the-key');

    const selfHosted = await post(owner.visitor, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/umami-self-hosted`, {
      baseUrl: s.umami.baseUrl,
      username: s.umami.username,
      password: '',
      websiteId: s.umami.websiteId,
    });
    expect(selfHosted.status).toBe(400);
    expect(await selfHosted.text()).toContain('Password: required.');

    s.plausible.fail({ status: 503, body: { error: 'Service Unavailable' } });
    expect((await post(owner.visitor, owner.workspaceId, path, plausibleForm())).status).toBe(502);
    expect(await s.connectionRow(owner.workspaceId)).toBeUndefined();
  });

  it('shows the last read error of the connection', async () => {
    const owner = await s.t.signedInOwner();
    await post(owner.visitor, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/plausible`, plausibleForm());
    await noteSiteAnalyticsError(s.t.db, owner.workspaceId, 'Plausible is limiting requests (429): Too many requests');
    expect(await page(owner.visitor, owner.workspaceId)).toContain(
      '<p class="notice error" role="alert" id="site-analytics-error">The last read failed: Plausible is limiting requests (429): Too many requests</p>',
    );
  });
});

describe('connecting Google Analytics through Google', () => {
  it('sends the owner to Google with the client, the callback, analytics.readonly, offline access, consent and a state stored hashed', async () => {
    const owner = await s.t.signedInOwner();
    const started = await pressConnectGa4(owner);
    expect(started.status).toBe(303);
    const location = new URL(started.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(`${s.google.origin}/o/oauth2/v2/auth`);
    const state = location.searchParams.get('state')!;
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: s.google.clientId,
      redirect_uri: `${s.t.baseUrl}/dashboard/site-analytics/ga4/callback`,
      response_type: 'code',
      scope: SCOPE,
      access_type: 'offline',
      prompt: 'consent',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(await authorizations(owner.workspaceId)).toMatchObject({
      user_id: await userId(owner.email),
      state_hash: sha256Hex(`${await userId(owner.email)}:${state}`),
      expires_at: s.t.clock.now() + 10 * 60_000,
      refresh_token: null,
    });
  });

  it('exchanges the code, keeps the grant sealed, lists every page of properties, and connects the one picked', async () => {
    s.google.accountsPerPage = 1;
    const owner = await s.t.signedInOwner();
    const back = await authorizeGa4(owner);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`/w/${owner.workspaceId}/site-analytics/ga4/property`);
    expect(Object.fromEntries(s.google.tokenRequests()[0]!)).toEqual({
      grant_type: 'authorization_code',
      code: expect.stringMatching(/^4\/0A/),
      redirect_uri: `${s.t.baseUrl}/dashboard/site-analytics/ga4/callback`,
      client_id: s.google.clientId,
      client_secret: s.google.clientSecret,
    });
    expect(s.google.dataCalls().map((call) => [call.query.get('pageSize'), call.query.get('pageToken')])).toEqual([
      ['200', null],
      ['200', '1'],
    ]);
    const pending = await authorizations(owner.workspaceId);
    expect(pending).toMatchObject({ state_hash: null, refresh_token: expect.stringMatching(/^sealed:v1:/), expires_at: s.t.clock.now() + 60 * 60_000, properties_error: null });

    const picker = await (await owner.visitor.request(`/w/${owner.workspaceId}/site-analytics/ga4/property`)).text();
    expect(picker).toContain(`<input type="radio" name="property" value="${s.ga4.propertyId}"> acme.example <span class="muted">Acme Inc · ${s.ga4.propertyId}</span>`);
    expect(picker).toContain('<input type="radio" name="property" value="402113"> Another client <span class="muted">Agency · 402113</span>');

    const picked = await post(owner.visitor, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/ga4/property`, { property: s.ga4.propertyId });
    expect(picked.status).toBe(303);
    expect(picked.headers.get('location')).toBe(`/w/${owner.workspaceId}/settings`);
    expect(await authorizations(owner.workspaceId)).toBeUndefined();
    const row = await s.connectionRow(owner.workspaceId);
    expect(row).toMatchObject({ provider: 'ga4', credential: expect.stringMatching(/^sealed:v1:/) });
    expect(JSON.parse(row!.settings)).toEqual({ propertyId: s.ga4.propertyId, propertyName: 'acme.example' });
    expect(await page(owner.visitor, owner.workspaceId)).toContain(`property <code>${s.ga4.propertyId}</code> (acme.example)`);

    s.ga4.reset();
    const traffic = await (await siteAnalyticsProvider(s.t.db, s.services, owner.workspaceId)).traffic(RANGE);
    expect(traffic).toMatchObject({ ...TOTALS, breakdownCounts: 'visits' });
  });

  it('lets the owner type the property id when the properties cannot be listed, and refuses a measurement id or a property without access', async () => {
    const owner = await s.t.signedInOwner();
    s.google.fail({ status: 403, body: { error: { code: 403, message: 'Google Analytics Admin API has not been used in project 123456789 before or it is disabled.', status: 'PERMISSION_DENIED' } } });
    expect((await authorizeGa4(owner)).status).toBe(303);
    const picker = await (await owner.visitor.request(`/w/${owner.workspaceId}/site-analytics/ga4/property`)).text();
    expect(picker).toContain('The properties could not be listed: Google Analytics refused the credentials (403): PERMISSION_DENIED: Google Analytics Admin API has not been used');
    expect(picker).not.toContain('type="radio"');

    const path = `/w/${owner.workspaceId}/site-analytics/ga4/property`;
    const measurementId = await post(owner.visitor, owner.workspaceId, path, { propertyId: 'G-ABC123XYZ' });
    expect(measurementId.status).toBe(400);
    expect(await measurementId.text()).toContain('not a G-… measurement id');

    const noAccess = await post(owner.visitor, owner.workspaceId, path, { propertyId: '999999' });
    expect(noAccess.status).toBe(400);
    expect(await noAccess.text()).toContain('Property 999999 was not connected: Google Analytics refused the credentials (403): PERMISSION_DENIED');
    expect(await s.connectionRow(owner.workspaceId)).toBeUndefined();

    expect((await post(owner.visitor, owner.workspaceId, path, { propertyId: `properties/${s.ga4.propertyId}` })).status).toBe(303);
    expect(JSON.parse((await s.connectionRow(owner.workspaceId))!.settings)).toEqual({ propertyId: s.ga4.propertyId, propertyName: '' });
  });

  it('refuses a callback whose state is used, expired or from another session, and a grant that is another owner’s', async () => {
    const owner = await s.t.signedInOwner();
    const started = await pressConnectGa4(owner);
    const callback = await consentAt(started.headers.get('location')!);

    await s.t.user(owner.workspaceId, `second-${owner.workspaceId}@acme.example`, 'owner');
    const second = new Visitor(s.t.baseUrl);
    await second.signIn(`second-${owner.workspaceId}@acme.example`, 'correct horse battery');
    const foreign = await second.request(callback);
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain('This Google Analytics link is not valid');

    expect((await owner.visitor.request(callback)).status).toBe(303);
    expect((await owner.visitor.request(callback)).status).toBe(400);
    // The grant is the owner's who obtained it: another owner cannot pick its property.
    expect((await second.request(`/w/${owner.workspaceId}/site-analytics/ga4/property`)).status).toBe(404);
    expect((await post(second, owner.workspaceId, `/w/${owner.workspaceId}/site-analytics/ga4/property`, { propertyId: s.ga4.propertyId })).status).toBe(404);

    const late = await s.t.signedInOwner();
    const lateCallback = await consentAt((await pressConnectGa4(late)).headers.get('location')!);
    s.t.clock.advance(10 * 60_000 + 1);
    const tokenRequests = s.google.tokenRequests().length;
    expect((await late.visitor.request(lateCallback)).status).toBe(400);
    expect(s.google.tokenRequests()).toHaveLength(tokenRequests);

    // An hour after the consent, the grant waiting for its property is gone too.
    s.t.clock.advance(60 * 60_000);
    expect((await owner.visitor.request(`/w/${owner.workspaceId}/site-analytics/ga4/property`)).status).toBe(404);
    expect(await authorizations(owner.workspaceId)).toMatchObject({ refresh_token: expect.stringMatching(/^sealed:v1:/) });
    await pressConnectGa4(late);
    expect(await authorizations(owner.workspaceId)).toBeUndefined();
  });

  it('connects nothing when the owner denies access, unticks the scope, or Google fails', async () => {
    const owner = await s.t.signedInOwner();
    s.google.consent = 'deny';
    const denied = await authorizeGa4(owner);
    expect(denied.status).toBe(400);
    expect(await denied.text()).toContain('Google did not grant access (access_denied)');

    s.google.consent = 'allow-without-scope';
    const partial = await authorizeGa4(owner);
    expect(partial.status).toBe(400);
    expect(await partial.text()).toContain('did not grant read access to Google Analytics');

    s.google.consent = 'allow';
    s.google.failTokens({ status: 503, body: { error: 'temporarily_unavailable', error_description: 'Try again later' } });
    const failed = await authorizeGa4(owner);
    expect(failed.status).toBe(502);
    expect(await failed.text()).toContain('Google&#39;s token endpoint answered 503 during the authorization code exchange');
    expect(await authorizations(owner.workspaceId)).toMatchObject({ refresh_token: null });
    expect(await s.connectionRow(owner.workspaceId)).toBeUndefined();
  });
});

describe('a server without a Google client', () => {
  it('names the settings the operator must set and the redirect URI to register, and refuses to start', async () => {
    const bare = await TestService.start({ writer: false });
    try {
      const owner = await bare.signedInOwner();
      const html = await page(owner.visitor, owner.workspaceId);
      expect(html).toContain('the operator must set <code>GA4_CLIENT_ID</code> and <code>GA4_CLIENT_SECRET</code>');
      expect(html).toContain(`<code>${bare.baseUrl}/dashboard/site-analytics/ga4/callback</code>`);
      expect(html).not.toContain('/site-analytics/ga4/connect');
      expect(html).toContain(`action="/w/${owner.workspaceId}/site-analytics/plausible"`);
      const refused = await owner.visitor.request(`/w/${owner.workspaceId}/site-analytics/ga4/connect`, { method: 'POST', form: { _csrf: hiddenFields(html)._csrf! } });
      expect(refused.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
