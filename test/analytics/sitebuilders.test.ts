import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { saveWebflowConnection } from '../../src/analytics/builders/connection.js';
import { readSiteBuilderInstalls } from '../../src/analytics/builders/installs.js';
import { LOADER_DISPLAY_NAME, loaderScriptVersion } from '../../src/analytics/builders/webflowInstall.js';
import { WIX_SCRIPT_TEMPLATE } from '../../src/analytics/builders/wixInstall.js';
import { loaderBootstrap, siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields } from '../support/visitor.js';
import { siteBuilderEnv } from '../integrations/fakes/siteBuilders.js';
import { FakeWebflow, type FakeWebflowSite } from '../integrations/fakes/webflow.js';
import { FakeWix } from '../integrations/fakes/wix.js';

const EMBED = '/api/v1/integrations/sitebuilder-a/install-embed';
const CUSTOM_CODE = '/api/v1/integrations/sitebuilder-b/custom-code';

let webflow: FakeWebflow;
let wix: FakeWix;
let t: TestService;
beforeAll(async () => {
  [webflow, wix] = await Promise.all([FakeWebflow.start(), FakeWix.start()]);
  t = await TestService.start({ writer: false, env: { ...siteBuilderEnv(webflow, wix), SECRETS_KEY: randomBytes(32).toString('hex') } });
});
afterAll(async () => {
  await t.close();
  await Promise.all([webflow.close(), wix.close()]);
});
beforeEach(() => {
  webflow.calls.length = 0;
  wix.calls.length = 0;
  wix.templateKeys = ['serviceUrl', 'siteId'];
});

const installs = (workspaceId: string) => t.db.selectFrom('sitebuilder_installs').selectAll().where('workspace_id', '=', workspaceId).orderBy('started_at').execute();
/** Calls that change a site: everything but reads. */
const writes = (fake: FakeWebflow | FakeWix) => fake.calls.filter((call) => call.method !== 'GET' && !call.path.includes('token'));

/** A workspace whose Webflow connection authorizes one fresh site; the site may already carry another script of the app. */
async function connected(options: { otherScript?: boolean } = {}): Promise<{ ws: TestWorkspace; site: FakeWebflowSite; token: string }> {
  const ws = await t.workspace();
  const { site, token } = webflow.addSite({ customDomains: [{ id: 'dom1', url: 'www.acme.example' }] });
  if (options.otherScript === true) {
    site.registered.push({ id: 'chatwidget', displayName: 'Chat widget', version: '2.1.0', sourceCode: 'void 0', createdOn: new Date().toISOString() });
    site.applied.push({ id: 'chatwidget', location: 'footer', version: '2.1.0', attributes: { async: true } });
  }
  await saveWebflowConnection(t.db, t.clock, t.service.services.credentials, { workspaceId: ws.workspaceId, userId: null, accessToken: token });
  return { ws, site, token };
}

describe('install_sitebuilder_embed (Webflow)', () => {
  it('dry run: lists the registration, the script list kept, the publish targets and the staged edits it ships, and sends nothing', async () => {
    const { ws, site } = await connected({ otherScript: true });
    webflow.edit(site.id);
    const answer = await t.rest(ws.key, 'POST', EMBED, { siteId: site.id });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const data = answer.body.data as { note: string };
    expect(data.note).toContain('register the tracking loader');
    expect(data.note).toContain('keeping the 1 other script(s) this app applied (chatwidget@2.1.0)');
    expect(data.note).toContain("Confirming publishes the customer's site");
    expect(data.note).toContain('publishing ships them too');
    expect(data).toMatchObject({ dryRun: true, siteId: site.id, registerScript: true, applyScript: true, publish: true, keptScripts: ['chatwidget@2.1.0'], publishTo: ['www.acme.example', 'webflow.io'], unpublishedEdits: true });
    expect(writes(webflow)).toEqual([]);
    expect(await installs(ws.workspaceId)).toEqual([]);
  });

  it('confirmed: registers the loader, applies it beside the other scripts, publishes, and records the attempt', async () => {
    const { ws, site } = await connected({ otherScript: true });
    const answer = await t.rest(ws.key, 'POST', EMBED, { siteId: site.id, confirm: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const source = loaderBootstrap(t.baseUrl, await siteIdOf(t.db, ws.workspaceId));
    const version = loaderScriptVersion(source);
    expect(answer.body.data).toMatchObject({ status: 'installed', siteId: site.id, scriptId: 'sightlineloader', scriptVersion: version, registered: true, applied: true, published: true, publishedAt: new Date(t.clock.now()).toISOString(), retryPublishAt: null });

    expect(site.registered.find((script) => script.id === 'sightlineloader')).toMatchObject({ displayName: LOADER_DISPLAY_NAME, version, sourceCode: source });
    expect(site.applied).toEqual([
      { id: 'chatwidget', location: 'footer', version: '2.1.0', attributes: { async: true } },
      { id: 'sightlineloader', location: 'header', version },
    ]);
    expect(site.publishes).toEqual([{ at: expect.any(Number), customDomains: ['dom1'], publishToWebflowSubdomain: true }]);
    expect(await installs(ws.workspaceId)).toEqual([
      expect.objectContaining({ builder: 'webflow', target: site.id, status: 'installed', script_id: 'sightlineloader', script_version: version, published_at: t.clock.now(), error: null, finished_at: t.clock.now() }),
    ]);
    const state = await readSiteBuilderInstalls(t.db, ws.workspaceId);
    expect(state.webflow).toMatchObject({ latest: { status: 'installed', target: site.id, scriptVersion: version }, installedAt: new Date(t.clock.now()).toISOString() });
    expect(state.wix).toEqual({ latest: null, installedAt: null });
  });

  it('run again once live: changes nothing on Webflow, says so, and records an unchanged attempt', async () => {
    const { ws, site } = await connected();
    expect((await t.rest(ws.key, 'POST', EMBED, { siteId: site.id, confirm: true })).status).toBe(200);
    webflow.calls.length = 0;
    t.clock.advance(1000);
    const dryRun = await t.rest(ws.key, 'POST', EMBED, { siteId: site.id });
    expect((dryRun.body.data as { note: string }).note).toContain('already live');
    const again = await t.rest(ws.key, 'POST', EMBED, { siteId: site.id, confirm: true });
    expect(again.body.data).toMatchObject({ status: 'unchanged', registered: false, applied: false, published: false });
    expect(writes(webflow)).toEqual([]);
    expect(site.registered.filter((script) => script.id === 'sightlineloader')).toHaveLength(1);
    expect((await installs(ws.workspaceId)).map((row) => row.status)).toEqual(['installed', 'unchanged']);
  });

  it('finds its registered version among many registered scripts, listed in one call without paging parameters', async () => {
    const { ws, site } = await connected();
    webflow.seedScripts(site.id, 150);
    expect((await t.rest(ws.key, 'POST', EMBED, { siteId: site.id, confirm: true })).body.data).toMatchObject({ status: 'installed' });
    webflow.calls.length = 0;
    expect((await t.rest(ws.key, 'POST', EMBED, { siteId: site.id, confirm: true })).body.data).toMatchObject({ status: 'unchanged' });
    // Webflow's OpenAPI description gives GET /v2/sites/{site_id}/registered_scripts no query parameter.
    const lists = webflow.calls.filter((call) => call.path.endsWith('/registered_scripts')).map((call) => call.query.toString());
    expect(lists).toEqual(['']);
  });

  it('a publish refused for the one-a-minute limit is reported with when to retry; running it again then publishes only', async () => {
    const { ws, site } = await connected();
    // Someone published the site ten seconds ago.
    site.publishes.push({ at: webflow.now() - 10_000, customDomains: ['dom1'], publishToWebflowSubdomain: true });
    const refused = await t.rest(ws.key, 'POST', EMBED, { siteId: site.id, confirm: true });
    expect(refused.status).toBe(200);
    expect(refused.body.data).toMatchObject({ status: 'awaiting_publish', applied: true, published: false, publishedAt: null, retryPublishAt: new Date(t.clock.now() + 50_000).toISOString() });
    expect((refused.body.data as { message: string }).message).toContain('run this again with confirm: true after');
    expect(await installs(ws.workspaceId)).toEqual([
      expect.objectContaining({ status: 'awaiting_publish', retry_publish_at: t.clock.now() + 50_000, error: expect.stringContaining('429'), published_at: null }),
    ]);
    expect((await readSiteBuilderInstalls(t.db, ws.workspaceId)).webflow).toMatchObject({ latest: { status: 'awaiting_publish' }, installedAt: null });

    webflow.advance(60_000);
    t.clock.advance(60_000);
    webflow.calls.length = 0;
    const done = await t.rest(ws.key, 'POST', EMBED, { siteId: site.id, confirm: true });
    expect(done.body.data).toMatchObject({ status: 'installed', registered: false, applied: false, published: true });
    expect(writes(webflow).map((call) => `${call.method} ${call.path.replace(site.id, 'SITE')}`)).toEqual(['POST /v2/sites/SITE/publish']);
  });

  it('a token Webflow refuses (401) is a 400 saying to connect again; a failure after the record finishes it as failed', async () => {
    const ws = await t.workspace();
    await saveWebflowConnection(t.db, t.clock, t.service.services.credentials, { workspaceId: ws.workspaceId, userId: null, accessToken: 'wf_tok_revoked' });
    const refused = await t.rest(ws.key, 'POST', EMBED, { confirm: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Webflow answered 401 listing the sites: not_authorized: Request not authorized: an owner connects Webflow again/);

    const { ws: other, site } = await connected();
    webflow.failNext((call) => call.path.endsWith('/registered_scripts/inline'), { status: 401, body: { code: 'not_authorized', message: 'Request not authorized' } });
    const failed = await t.rest(other.key, 'POST', EMBED, { siteId: site.id, confirm: true });
    expect(failed.status).toBe(400);
    expect(await installs(other.workspaceId)).toEqual([expect.objectContaining({ status: 'failed', error: expect.stringContaining('401'), finished_at: t.clock.now() })]);
    expect(site.publishes).toEqual([]);
  });

  it("Webflow's API limit (429 with Retry-After) is a 429 with its wait; a 5xx is a 503", async () => {
    const { ws, site } = await connected();
    webflow.failNext((call) => call.path === `/v2/sites/${site.id}`, { status: 429, body: { code: 'too_many_requests', message: 'Too many requests' }, headers: { 'retry-after': '7' } });
    const limited = await t.rest(ws.key, 'POST', EMBED, { siteId: site.id });
    expect(limited.status).toBe(429);
    expect(limited.body.retryAfterMs).toBe(7000);
    webflow.failNext((call) => call.method === 'PUT', { status: 500, body: { code: 'internal_error', message: 'An Internal Error occurred' } });
    const down = await t.rest(ws.key, 'POST', EMBED, { siteId: site.id, confirm: true });
    expect(down.status).toBe(503);
    expect(down.body.error).toContain('Webflow answered 500 applying the scripts');
    expect((await installs(ws.workspaceId)).map((row) => row.status)).toEqual(['failed']);
  });

  it('needs siteId when the connection authorizes several sites, and a connection at all', async () => {
    const { ws, token } = await connected();
    webflow.addSite({ token, displayName: 'Second' });
    const several = await t.rest(ws.key, 'POST', EMBED, {});
    expect(several.status).toBe(400);
    expect(several.body.error).toMatch(/^siteId: required: the Webflow connection authorizes 2 sites: /);

    const lone = await t.workspace();
    const none = await t.rest(lone.key, 'POST', EMBED, {});
    expect(none.status).toBe(400);
    expect(none.body.error).toContain('Webflow is not connected to this workspace: an owner connects it on the Settings page of the dashboard');
  });

  it('an owner connects Webflow in the dashboard: the app, the scopes and a one-time state; the token is stored sealed', async () => {
    const owner = await t.signedInOwner();
    const page = await owner.visitor.request(`/w/${owner.workspaceId}/settings`);
    const body = await page.text();
    expect(body).toContain(`action="/w/${owner.workspaceId}/webflow/connect"`);
    const started = await owner.visitor.request(`/w/${owner.workspaceId}/webflow/connect`, { method: 'POST', form: { _csrf: hiddenFields(body)._csrf! } });
    expect(started.status).toBe(303);
    const location = new URL(started.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(`${webflow.origin}/oauth/authorize`);
    const state = location.searchParams.get('state')!;
    expect(Object.fromEntries(location.searchParams)).toEqual({
      response_type: 'code',
      client_id: webflow.clientId,
      redirect_uri: `${t.baseUrl}/dashboard/webflow/callback`,
      scope: 'sites:read sites:write custom_code:read custom_code:write cms:read cms:write',
      state,
    });
    const { site, token } = webflow.addSite();
    const callback = `/dashboard/webflow/callback?code=${webflow.issueCode(token)}&state=${state}`;
    const back = await owner.visitor.request(callback);
    expect(back.status).toBe(303);
    const row = await t.db.selectFrom('webflow_connections').selectAll().where('workspace_id', '=', owner.workspaceId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state_hash: null, connected_at: t.clock.now(), access_token: expect.stringMatching(/^sealed:v1:/) });
    expect(t.service.services.credentials.open(row.access_token!)).toBe(token);
    expect(await (await owner.visitor.request(`/w/${owner.workspaceId}/settings`)).text()).toContain('Connected');
    // The state is used up.
    expect((await owner.visitor.request(callback)).status).toBe(400);
    expect((await t.rest(owner.key, 'POST', EMBED, {})).body.data).toMatchObject({ dryRun: true, siteId: site.id });
  });
});

describe('install_sitebuilder_custom_code (Wix)', () => {
  const wixSite = async () => {
    const ws = await t.workspace();
    return { ws, instance: wix.addInstance('https://www.acme.example/') };
  };

  it('the Embedded Script code the operator adds is the loader tag with Wix dynamic parameters', () => {
    expect(WIX_SCRIPT_TEMPLATE).toBe('<script defer src="{{serviceUrl}}/t.js" data-site="{{siteId}}"></script>');
  });

  it('dry run, then confirmed: a token for the instance, the parameters, a record; again changes nothing', async () => {
    const { ws, instance } = await wixSite();
    const siteId = await siteIdOf(t.db, ws.workspaceId);
    const dryRun = await t.rest(ws.key, 'POST', CUSTOM_CODE, { instanceId: instance.instanceId });
    expect(dryRun.status, JSON.stringify(dryRun.body)).toBe(200);
    expect(dryRun.body.data).toMatchObject({ dryRun: true, embedded: false, embed: true, parameters: { serviceUrl: t.baseUrl, siteId } });
    expect(writes(wix)).toEqual([]);
    expect(await installs(ws.workspaceId)).toEqual([]);

    const done = await t.rest(ws.key, 'POST', CUSTOM_CODE, { instanceId: instance.instanceId, confirm: true });
    expect(done.body.data).toMatchObject({ status: 'installed', siteUrl: 'https://www.acme.example/', parameters: { serviceUrl: t.baseUrl, siteId } });
    expect(instance.script).toEqual({ parameters: { serviceUrl: t.baseUrl, siteId }, disabled: false });
    const tokenCall = wix.calls.find((call) => call.path === '/oauth2/token')!;
    expect(tokenCall.body).toEqual({ grant_type: 'client_credentials', client_id: wix.appId, client_secret: wix.appSecret, instance_id: instance.instanceId });
    expect(wix.calls.find((call) => call.method === 'POST' && call.path === '/apps/v1/scripts')!.headers.authorization).toMatch(/^OauthNG\.JWS\./);
    expect(await installs(ws.workspaceId)).toEqual([expect.objectContaining({ builder: 'wix', target: instance.instanceId, status: 'installed' })]);

    wix.calls.length = 0;
    t.clock.advance(1000);
    expect((await t.rest(ws.key, 'POST', CUSTOM_CODE, { instanceId: instance.instanceId, confirm: true })).body.data).toMatchObject({ status: 'unchanged' });
    expect(writes(wix)).toEqual([]);
    expect((await readSiteBuilderInstalls(t.db, ws.workspaceId)).wix).toMatchObject({ latest: { status: 'unchanged' }, installedAt: expect.any(String) });
  });

  it("refuses an instance on another site than the workspace's website, an unknown one, and one another workspace installed through", async () => {
    const ws = await t.workspace();
    const elsewhere = wix.addInstance('https://someone-else.example');
    const mismatch = await t.rest(ws.key, 'POST', CUSTOM_CODE, { instanceId: elsewhere.instanceId });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe(`instanceId: belongs to the Wix site https://someone-else.example, not to this workspace's website https://acme.example`);
    const unknown = await t.rest(ws.key, 'POST', CUSTOM_CODE, { instanceId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);

    const { ws: first, instance } = await wixSite();
    expect((await t.rest(first.key, 'POST', CUSTOM_CODE, { instanceId: instance.instanceId, confirm: true })).status).toBe(200);
    const taken = await t.rest(ws.key, 'POST', CUSTOM_CODE, { instanceId: instance.instanceId, confirm: true });
    expect(taken.status).toBe(404);
    expect(taken.body.error).toBe(`Wix app instance ${instance.instanceId} not found in this workspace`);
  });

  it("Wix's refusals: parameters that do not match the app's script (recorded as failed), and app credentials it rejects", async () => {
    const { ws, instance } = await wixSite();
    wix.templateKeys = ['siteId'];
    const refused = await t.rest(ws.key, 'POST', CUSTOM_CODE, { instanceId: instance.instanceId, confirm: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('Parameters map sent to embedded script is not the same as discovered in the script code');
    expect(await installs(ws.workspaceId)).toEqual([expect.objectContaining({ status: 'failed', error: expect.stringContaining('Parameters map') })]);

    wix.failNext((call) => call.path === '/oauth2/token', { status: 401, body: { message: 'Invalid app credentials' } });
    const badApp = await t.rest(ws.key, 'POST', CUSTOM_CODE, { instanceId: instance.instanceId });
    expect(badApp.status).toBe(400);
    expect(badApp.body.error).toContain('the operator checks WIX_APP_ID and WIX_APP_SECRET');
  });
});

describe('not configured', () => {
  it('each operation names the settings the operator must set', async () => {
    const bare = await TestService.start({ writer: false });
    try {
      const ws = await bare.workspace();
      const webflowAnswer = await bare.rest(ws.key, 'POST', EMBED, {});
      expect(webflowAnswer.status).toBe(400);
      expect(webflowAnswer.body.error).toContain('WEBFLOW_CLIENT_ID and WEBFLOW_CLIENT_SECRET');
      const wixAnswer = await bare.rest(ws.key, 'POST', CUSTOM_CODE, { instanceId: '00000000-0000-4000-8000-000000000000', confirm: true });
      expect(wixAnswer.status).toBe(400);
      expect(wixAnswer.body.error).toContain('WIX_APP_ID and WIX_APP_SECRET');
      const owner = await bare.signedInOwner();
      expect(await (await owner.visitor.request(`/w/${owner.workspaceId}/settings`)).text()).toContain('the operator must set <code>WEBFLOW_CLIENT_ID</code> and <code>WEBFLOW_CLIENT_SECRET</code>');
    } finally {
      await bare.close();
    }
  });
});
