import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/secrets.js';
import { pickProperty } from '../../../src/visibility/searchConsole/property.js';
import { TestService } from '../../support/harness.js';
import { hiddenFields, Visitor } from '../../support/visitor.js';
import type { FakeGoogle } from '../../integrations/fakes/google/searchConsole.js';
import { consoleRow } from './rows.js';
import { connection, connectSearchConsole, consentAt, pressConnect, startWithGoogle, stopWithGoogle } from './support.js';

const SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';

let google: FakeGoogle;
let t: TestService;
beforeAll(async () => {
  ({ google, t } = await startWithGoogle());
});
afterAll(() => stopWithGoogle({ google, t }));
beforeEach(() => {
  google.consent = 'allow';
  google.sites = [
    { siteUrl: 'https://www.acme.example/', permissionLevel: 'siteOwner' },
    { siteUrl: 'sc-domain:acme.example', permissionLevel: 'siteFullUser' },
    { siteUrl: 'sc-domain:other.example', permissionLevel: 'siteOwner' },
  ];
});

const userId = async (email: string) => (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
/** A synced query's rows: both periods, which a reconnection to another property or a disconnection must drop alike. */
const rowsOfBothPeriods = (workspaceId: string) =>
  (['current', 'previous'] as const).map((period) => consoleRow(workspaceId, period, { query: 'crm', page: 'https://acme.example/crm', clicks: 3, impressions: 40, position: 4.2 }));
const syncJobs = (workspaceId: string) => t.db.selectFrom('jobs').select(['kind', 'state', 'subject_id']).where('workspace_id', '=', workspaceId).execute();

describe('connecting Google Search Console in the dashboard', () => {
  it('sends the owner to Google with the client, the callback, read-only scope, offline access, consent and a state stored hashed', async () => {
    const owner = await t.signedInOwner();
    const page = await owner.visitor.request(`/w/${owner.workspaceId}/settings`);
    expect(page.headers.get('content-security-policy')).toContain(`form-action 'self' ${google.origin}`);
    expect(await page.text()).toContain(`action="/w/${owner.workspaceId}/search-console/connect"`);

    const started = await pressConnect(owner.visitor, owner.workspaceId);
    expect(started.status).toBe(303);
    const location = new URL(started.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(`${google.origin}/o/oauth2/v2/auth`);
    const state = location.searchParams.get('state')!;
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: google.clientId,
      redirect_uri: `${t.baseUrl}/dashboard/search-console/callback`,
      response_type: 'code',
      scope: SCOPE,
      access_type: 'offline',
      prompt: 'consent',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(await connection(t, owner.workspaceId)).toMatchObject({
      state_hash: sha256Hex(`${await userId(owner.email)}:${state}`),
      state_expires_at: t.clock.now() + 10 * 60_000,
      property: null,
      refresh_token: null,
    });
  });

  it('exchanges the code, keeps the refresh token, picks the domain property of the website and queues the first sync', async () => {
    const owner = await t.signedInOwner();
    const back = await connectSearchConsole(owner.visitor, owner.workspaceId);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`/w/${owner.workspaceId}/settings`);

    const exchange = google.tokenRequests.at(-1)!;
    expect(Object.fromEntries(exchange)).toEqual({
      grant_type: 'authorization_code',
      code: expect.stringMatching(/^4\/0A/),
      redirect_uri: `${t.baseUrl}/dashboard/search-console/callback`,
      client_id: google.clientId,
      client_secret: google.clientSecret,
    });
    expect(google.apiRequests.at(-1)).toMatchObject({ method: 'GET', path: '/webmasters/v3/sites', authorization: expect.stringMatching(/^Bearer ya29\./) });
    expect(await connection(t, owner.workspaceId)).toMatchObject({
      property: 'sc-domain:acme.example',
      refresh_token: expect.stringMatching(/^1\/\/0g/),
      connected_at: t.clock.now(),
      state_hash: null,
      state_expires_at: null,
      last_error: null,
    });
    expect(await syncJobs(owner.workspaceId)).toEqual([{ kind: 'search_console_sync', state: 'queued', subject_id: owner.workspaceId }]);

    const page = await (await owner.visitor.request(`/w/${owner.workspaceId}/settings`)).text();
    expect(page).toContain('<td id="search-console-property">sc-domain:acme.example</td>');
    expect(page).toContain('waiting for the first sync');
    expect(page).toContain(`action="/w/${owner.workspaceId}/search-console/disconnect"`);
  });

  it('refuses a callback whose state is used, expired, or from another session, and connects nothing then', async () => {
    const owner = await t.signedInOwner();
    const started = await pressConnect(owner.visitor, owner.workspaceId);
    const callback = await consentAt(started.headers.get('location')!);

    // Another owner of the same workspace cannot finish what this one started.
    const second = new Visitor(t.baseUrl);
    await t.user(owner.workspaceId, `second-${owner.workspaceId}@acme.example`, 'owner');
    await second.signIn(`second-${owner.workspaceId}@acme.example`, 'correct horse battery');
    const foreign = await second.request(callback);
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain('This Search Console link is not valid');

    expect((await owner.visitor.request(callback)).status).toBe(303);
    const tokenRequests = google.tokenRequests.length;
    const replay = await owner.visitor.request(callback);
    expect(replay.status).toBe(400);

    const other = await t.signedInOwner();
    const late = await consentAt((await pressConnect(other.visitor, other.workspaceId)).headers.get('location')!);
    t.clock.advance(10 * 60_000 + 1);
    expect((await other.visitor.request(late)).status).toBe(400);
    expect(google.tokenRequests).toHaveLength(tokenRequests);
    expect(await connection(t, other.workspaceId)).toMatchObject({ property: null, refresh_token: null });
  });

  it('connects nothing when the account cannot read a property of the website, saying what it can read', async () => {
    google.sites = [
      { siteUrl: 'sc-domain:other.example', permissionLevel: 'siteOwner' },
      { siteUrl: 'https://acme.example/', permissionLevel: 'siteUnverifiedUser' },
    ];
    const owner = await t.signedInOwner();
    const back = await connectSearchConsole(owner.visitor, owner.workspaceId);
    expect(back.status).toBe(400);
    const text = await back.text();
    expect(text).toContain('none of the Search Console properties this Google account can read covers https://acme.example');
    expect(text).toContain('sc-domain:other.example');
    expect(await connection(t, owner.workspaceId)).toMatchObject({ property: null, refresh_token: null });
    expect(await syncJobs(owner.workspaceId)).toEqual([]);
  });

  it('reads permission levels spelt as the discovery document enumerates them (SITE_UNVERIFIED_USER) like the reference’s', async () => {
    google.sites = [
      { siteUrl: 'sc-domain:acme.example', permissionLevel: 'SITE_UNVERIFIED_USER' },
      { siteUrl: 'https://acme.example/', permissionLevel: 'SITE_RESTRICTED_USER' },
    ];
    const owner = await t.signedInOwner();
    expect((await connectSearchConsole(owner.visitor, owner.workspaceId)).status).toBe(303);
    expect(await connection(t, owner.workspaceId)).toMatchObject({ property: 'https://acme.example/' });

    google.sites = [{ siteUrl: 'https://acme.example/', permissionLevel: 'SITE_UNVERIFIED_USER' }];
    const other = await t.signedInOwner();
    const refused = await connectSearchConsole(other.visitor, other.workspaceId);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('none of the Search Console properties this Google account can read covers https://acme.example');
    expect(await connection(t, other.workspaceId)).toMatchObject({ property: null, refresh_token: null });
  });

  it('connects nothing when the owner denies access or grants it without Search Console', async () => {
    const owner = await t.signedInOwner();
    google.consent = 'deny';
    const tokenRequests = google.tokenRequests.length;
    const denied = await connectSearchConsole(owner.visitor, owner.workspaceId);
    expect(denied.status).toBe(400);
    expect(await denied.text()).toContain('Google did not grant access (access_denied)');
    expect(google.tokenRequests).toHaveLength(tokenRequests);

    google.consent = 'allow-without-scope';
    const partial = await connectSearchConsole(owner.visitor, owner.workspaceId);
    expect(partial.status).toBe(400);
    expect(await partial.text()).toContain('did not grant read access to Search Console');
    expect(await connection(t, owner.workspaceId)).toMatchObject({ property: null, refresh_token: null });
  });

  it('answers 502 and connects nothing when Google fails at the token endpoint', async () => {
    const owner = await t.signedInOwner();
    google.fail('token', { status: 503, body: { error: 'temporarily_unavailable', error_description: 'Try again later' } });
    const back = await connectSearchConsole(owner.visitor, owner.workspaceId);
    expect(back.status).toBe(502);
    expect(await back.text()).toContain('Google&#39;s token endpoint answered 503 during the authorization code exchange');
    expect(await connection(t, owner.workspaceId)).toMatchObject({ property: null, refresh_token: null });
  });

  it('lets only owners connect and disconnect', async () => {
    const owner = await t.signedInOwner();
    const member = new Visitor(t.baseUrl);
    await t.user(owner.workspaceId, `member-${owner.workspaceId}@acme.example`, 'member');
    await member.signIn(`member-${owner.workspaceId}@acme.example`, 'correct horse battery');
    const page = await member.request(`/w/${owner.workspaceId}/settings`);
    const html = await page.text();
    expect(html).toContain('An owner of this workspace can connect it.');
    expect(html).not.toContain('/search-console/connect');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self';");
    const refused = await member.request(`/w/${owner.workspaceId}/search-console/connect`, { method: 'POST', form: { _csrf: hiddenFields(html)._csrf! } });
    expect(refused.status).toBe(403);
    expect(await connection(t, owner.workspaceId)).toBeUndefined();

    await connectSearchConsole(owner.visitor, owner.workspaceId);
    const csrf = hiddenFields(html)._csrf!;
    expect((await member.request(`/w/${owner.workspaceId}/search-console/disconnect`, { method: 'POST', form: { _csrf: csrf } })).status).toBe(403);
    expect(await connection(t, owner.workspaceId)).toMatchObject({ property: 'sc-domain:acme.example' });
  });

  it('drops the rows of the old property when a reconnection reads another one', async () => {
    const owner = await t.signedInOwner();
    await connectSearchConsole(owner.visitor, owner.workspaceId);
    await t.db
      .insertInto('search_console_rows')
      .values(rowsOfBothPeriods(owner.workspaceId))
      .execute();
    await t.db.updateTable('search_console_connections').set({ last_sync_at: t.clock.now() }).where('workspace_id', '=', owner.workspaceId).execute();
    const rowsNow = () => t.db.selectFrom('search_console_rows').select('query').where('workspace_id', '=', owner.workspaceId).execute();

    await connectSearchConsole(owner.visitor, owner.workspaceId);
    expect(await rowsNow()).toHaveLength(2);
    google.sites = [{ siteUrl: 'https://acme.example/', permissionLevel: 'siteOwner' }];
    await connectSearchConsole(owner.visitor, owner.workspaceId);
    expect(await rowsNow()).toEqual([]);
    expect(await connection(t, owner.workspaceId)).toMatchObject({ property: 'https://acme.example/', last_sync_at: null });
  });

  it('disconnects: the connection and its rows are gone, and Connect is offered again', async () => {
    const owner = await t.signedInOwner();
    await connectSearchConsole(owner.visitor, owner.workspaceId);
    await t.db
      .insertInto('search_console_rows')
      .values(rowsOfBothPeriods(owner.workspaceId))
      .execute();
    const csrf = hiddenFields(await (await owner.visitor.request(`/w/${owner.workspaceId}/settings`)).text())._csrf!;
    const done = await owner.visitor.request(`/w/${owner.workspaceId}/search-console/disconnect`, { method: 'POST', form: { _csrf: csrf } });
    expect(done.status).toBe(303);
    expect(await connection(t, owner.workspaceId)).toBeUndefined();
    expect(await t.db.selectFrom('search_console_rows').selectAll().where('workspace_id', '=', owner.workspaceId).execute()).toEqual([]);
    expect(await (await owner.visitor.request(`/w/${owner.workspaceId}/settings`)).text()).toContain(`action="/w/${owner.workspaceId}/search-console/connect"`);
  });
});

describe('without GSC settings', () => {
  it('names the settings the operator must set and the redirect URI to register, and offers no Connect', async () => {
    const bare = await TestService.start({ writer: false });
    try {
      const owner = await bare.signedInOwner();
      const page = await owner.visitor.request(`/w/${owner.workspaceId}/settings`);
      const html = await page.text();
      expect(html).toContain('the operator must set <code>GSC_CLIENT_ID</code> and <code>GSC_CLIENT_SECRET</code>');
      expect(html).toContain(`<code>${bare.baseUrl}/dashboard/search-console/callback</code>`);
      expect(html).not.toContain('/search-console/connect');
      const refused = await owner.visitor.request(`/w/${owner.workspaceId}/search-console/connect`, { method: 'POST', form: { _csrf: hiddenFields(html)._csrf! } });
      expect(refused.status).toBe(404);
      expect(await bare.db.selectFrom('search_console_connections').selectAll().execute()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe('the property chosen for a website', () => {
  const site = (siteUrl: string, permissionLevel = 'siteOwner') => ({ siteUrl, permissionLevel });

  it('prefers the most specific domain property covering the host, subdomains and www. included', () => {
    expect(pickProperty('https://www.shop.acme.example', [site('https://www.shop.acme.example/'), site('sc-domain:acme.example'), site('sc-domain:shop.acme.example')])).toBe(
      'sc-domain:shop.acme.example',
    );
    expect(pickProperty('https://acme.example', [site('sc-domain:notacme.example'), site('sc-domain:acme.example.org')])).toBeUndefined();
  });

  it('else takes a URL-prefix property on the same protocol and host (or its www. twin), its own origin first', () => {
    expect(pickProperty('https://acme.example', [site('https://www.acme.example/'), site('https://acme.example/')])).toBe('https://acme.example/');
    expect(pickProperty('https://acme.example', [site('https://www.acme.example/'), site('https://acme.example/blog/')])).toBe('https://www.acme.example/');
    expect(pickProperty('https://acme.example', [site('http://acme.example/')])).toBeUndefined();
  });

  it('ignores properties the account has not verified', () => {
    expect(pickProperty('https://acme.example', [site('sc-domain:acme.example', 'siteUnverifiedUser'), site('https://acme.example/', 'siteRestrictedUser')])).toBe('https://acme.example/');
  });
});
