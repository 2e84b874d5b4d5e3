import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/apiKeys.js';
import { createUser } from '../../src/operator.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { authorizationCodeTokens } from '../support/oauthFlow.js';
import { PASSWORD, TestService, type TestWorkspace } from '../support/harness.js';
import { twoInstancesOnOneDatabase } from '../support/instances.js';
import { hiddenFields, Visitor } from '../support/visitor.js';

// Attacks on the one rule of src/auth/roles.ts: a member never obtains manage:org, and a person's credentials stop
// carrying it the moment their role no longer holds it.

const REDIRECT_URI = 'http://127.0.0.1:47123/callback';

async function member(t: TestService, ws: TestWorkspace, name = 'mallory'): Promise<{ userId: string; email: string; visitor: Visitor }> {
  const email = `${name}-${ws.workspaceId}@acme.example`;
  const userId = await t.user(ws.workspaceId, email, 'member');
  const visitor = new Visitor(t.baseUrl);
  expect((await visitor.signIn(email, PASSWORD)).status).toBe(303);
  return { userId, email, visitor };
}

/** A registered client's authorize URL asking for `scope`, as a malicious MCP client would send its user. */
async function authorizePath(t: TestService, scope: string): Promise<string> {
  const registered = await fetch(`${t.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT_URI], client_name: 'Greedy client', token_endpoint_auth_method: 'none' }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    code_challenge_method: 'S256',
    state: 'st',
    scope,
  });
  return `/oauth/authorize?${query.toString()}`;
}

describe('a member cannot obtain manage:org', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('the consent page shows manage:org as refused, offers no Allow when nothing else was asked, and a forged allow mints no code', async () => {
    const ws = await t.workspace();
    const mallory = await member(t, ws);
    const page = await mallory.visitor.request(await authorizePath(t, 'manage:org'));
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toMatch(/<input type="checkbox" name="grant" value="manage:org" disabled>.*refused: only an owner can grant it/);
    expect(text).not.toContain('value="allow"');
    const form = new URLSearchParams({ ...hiddenFields(text), decision: 'allow', workspace: ws.workspaceId, grant: 'manage:org' });
    const forged = await mallory.visitor.request('/oauth/authorize', { method: 'POST', form });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('as a member of this workspace you cannot grant manage:org; only an owner can');
    expect(await t.db.selectFrom('oauth_codes').select('code_hash').where('user_id', '=', mallory.userId).execute()).toEqual([]);
  });

  it('a client asking for manage:org and read:content gets a token that reads but is refused get_team', async () => {
    const ws = await t.workspace();
    const mallory = await member(t, ws);
    const page = await (await mallory.visitor.request(await authorizePath(t, 'manage:org read:content'))).text();
    expect(page).toContain('value="allow"');
    expect(page).toMatch(/value="read:content" checked/);
    // The whole flow, choosing only what the page lets a member choose; the token is then tried on get_team.
    const tokens = await authorizationCodeTokens(t.baseUrl, mallory.visitor, ws.workspaceId, ['read:content']);
    expect(tokens.scope).toBe('read:content');
    expect((await t.rest(tokens.access_token, 'GET', '/api/v1/team')).status).toBe(403);
    expect((await t.rest(tokens.access_token, 'GET', '/api/v1/brand')).status).toBe(200);
  });

  it('the device page refuses manage:org, and the command line never receives a key that answers GET /api/v1/team', async () => {
    const ws = await t.workspace();
    const mallory = await member(t, ws);
    const started = await t.rest(undefined, 'POST', '/api/v1/auth/device/start', { client_id: 'sightline-cli', scope: 'manage:org read:content' });
    const { device_code: deviceCode, user_code: userCode } = started.body.data as { device_code: string; user_code: string };
    const page = await mallory.visitor.request(`/device?user_code=${userCode}`);
    const text = await page.text();
    expect(text).toMatch(/value="manage:org" disabled>.*refused: only an owner can grant it/);
    const form = new URLSearchParams({ ...hiddenFields(text), decision: 'approve', workspace: ws.workspaceId });
    form.append('grant', 'manage:org');
    form.append('grant', 'read:content');
    const forged = await mallory.visitor.request('/device', { method: 'POST', form });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('you cannot grant manage:org');
    const pending = await t.rest(undefined, 'POST', '/api/v1/auth/device/poll', { device_code: deviceCode });
    expect(pending.body).toMatchObject({ error: 'authorization_pending' });

    form.delete('grant');
    form.append('grant', 'read:content');
    expect((await mallory.visitor.request('/device', { method: 'POST', form })).status).toBe(200);
    t.clock.advance(10_000);
    const minted = await t.rest(undefined, 'POST', '/api/v1/auth/device/poll', { device_code: deviceCode });
    const key = (minted.body.data as { access_token: string }).access_token;
    expect((await t.rest(key, 'GET', '/api/v1/team')).status).toBe(403);
  });

  it('the keys page does not offer manage:org to a member and refuses a forged one', async () => {
    const ws = await t.workspace();
    const mallory = await member(t, ws);
    const page = await (await mallory.visitor.request(`/w/${ws.workspaceId}/keys`)).text();
    expect(page).not.toContain('value="manage:org"');
    const refused = await mallory.visitor.request(`/w/${ws.workspaceId}/keys`, { method: 'POST', form: { _csrf: hiddenFields(page)._csrf!, name: 'admin', scope: 'manage:org' } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('You cannot create this key: as a member of this workspace you cannot grant manage:org; only an owner can.');
    expect(await t.db.selectFrom('api_keys').select('id').where('user_id', '=', mallory.userId).execute()).toEqual([]);
  });

  it('a member\u2019s key with manage:org cannot be minted at all, whoever calls the code that mints keys', async () => {
    const ws = await t.workspace();
    const mallory = await member(t, ws);
    await expect(createApiKey(t.db, t.clock, { workspaceId: ws.workspaceId, userId: mallory.userId, scopes: ALL_SCOPES, name: 'x' })).rejects.toThrow(
      /cannot grant manage:org/,
    );
  });
});

describe('a demoted or removed owner loses manage:org at once, on every instance', () => {
  // One public URL for both, as behind a balancer: a token names the issuer it was minted by.
  const instances = twoInstancesOnOneDatabase({ secondEnv: () => ({ PUBLIC_URL: instances.first.baseUrl }) });

  it('the key and the token of an owner made a member stop answering get_team at once; their other scopes keep working', async () => {
    const { first, second } = instances;
    const ws = await first.workspace();
    const email = `olivia-${ws.workspaceId}@acme.example`;
    const userId = await first.user(ws.workspaceId, email, 'owner');
    const { key } = await createApiKey(first.db, first.clock, { workspaceId: ws.workspaceId, userId, scopes: ALL_SCOPES, name: 'laptop' });
    const visitor = new Visitor(first.baseUrl);
    await visitor.signIn(email, PASSWORD);
    const tokens = await authorizationCodeTokens(first.baseUrl, visitor, ws.workspaceId, ['manage:org', 'read:content']);
    // The second instance has just authenticated the key (its cache holds it) and answered the token.
    expect((await second.rest(key, 'GET', '/api/v1/team')).status).toBe(200);
    expect((await second.mcpTool(tokens.access_token, 'get_team')).isError).toBe(false);

    await createUser(first.db, first.clock, { email, password: PASSWORD, workspaceId: ws.workspaceId, role: 'member' });

    for (const instance of [first, second]) {
      expect((await instance.rest(key, 'GET', '/api/v1/team')).status).toBe(403);
      expect((await instance.mcpTool(key, 'get_team')).isError).toBe(true);
      expect((await instance.rest(tokens.access_token, 'GET', '/api/v1/team')).status).toBe(403);
      expect(await instance.mcpToolNames(tokens.access_token)).not.toContain('get_team');
      expect((await instance.rest(key, 'GET', '/api/v1/brand')).status).toBe(200);
      expect((await instance.rest(tokens.access_token, 'GET', '/api/v1/brand')).status).toBe(200);
    }
    // Made an owner again, the same credentials carry manage:org again: the check is at use, nothing was revoked.
    await createUser(first.db, first.clock, { email, password: PASSWORD, workspaceId: ws.workspaceId, role: 'owner' });
    expect((await second.rest(key, 'GET', '/api/v1/team')).status).toBe(200);
  });

  it('a removed person\u2019s token is refused on every instance', async () => {
    const { first, second } = instances;
    const ws = await first.workspace();
    const email = `rita-${ws.workspaceId}@acme.example`;
    const userId = await first.user(ws.workspaceId, email, 'member');
    const visitor = new Visitor(first.baseUrl);
    await visitor.signIn(email, PASSWORD);
    const tokens = await authorizationCodeTokens(first.baseUrl, visitor, ws.workspaceId, ['read:content']);
    expect((await second.rest(tokens.access_token, 'GET', '/api/v1/brand')).status).toBe(200);
    expect((await first.rest(ws.key, 'POST', '/api/v1/team/remove', { userId, confirm: true })).status).toBe(200);
    for (const instance of [first, second]) expect((await instance.rest(tokens.access_token, 'GET', '/api/v1/brand')).status).toBe(401);
  });
});
