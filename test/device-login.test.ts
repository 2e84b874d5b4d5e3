import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../tools/index.js';
import { outputProblems } from './support/answerSchemas.js';
import { TestService, type TestWorkspace } from './support/harness.js';
import { decideDevice } from './support/device.js';
import type { Visitor } from './support/visitor.js';

const insecure = { [oauth.allowInsecureRequests]: true };
const client: oauth.Client = { client_id: 'sightline-cli', token_endpoint_auth_method: 'none' };

let t: TestService;
let as: oauth.AuthorizationServer;
beforeAll(async () => {
  t = await TestService.start();
  const issuer = new URL(t.baseUrl);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
});
afterAll(() => t.close());

async function signedInOwner(): Promise<{ ws: TestWorkspace; visitor: Visitor }> {
  const ws = await t.signedInOwner();
  return { ws, visitor: ws.visitor };
}

const poll = async (deviceCode: string) => oauth.processDeviceCodeResponse(as, client, await oauth.deviceCodeGrantRequest(as, client, oauth.None(), deviceCode, insecure));

describe('device login (RFC 8628) driven by oauth4webapi', () => {
  it('goes pending, slow_down, approval, one success with a working API key, then invalid_grant', async () => {
    const { ws, visitor } = await signedInOwner();
    const started = await oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope: 'read:content manage:org' }, insecure));
    expect(started.user_code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    expect(started.verification_uri).toBe(`${t.baseUrl}/device`);
    expect(started.interval).toBe(5);

    await expect(poll(started.device_code)).rejects.toMatchObject({ error: 'authorization_pending' });
    await expect(poll(started.device_code)).rejects.toMatchObject({ error: 'slow_down' });
    await decideDevice(visitor, ws, started.user_code, 'approve', ['read:content']);
    t.clock.advance(10_000);
    const tokens = await poll(started.device_code);
    expect(tokens.access_token).toMatch(/^slk_/);
    expect(tokens.scope).toBe('read:content');
    expect((await t.rest(tokens.access_token, 'GET', '/api/v1/brand')).status).toBe(200);
    expect((await t.rest(tokens.access_token, 'GET', '/api/v1/team')).status).toBe(403);
    expect(await t.mcpToolNames(tokens.access_token)).toContain('get_brand');
    t.clock.advance(10_000);
    await expect(poll(started.device_code)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('answers access_denied after a denial and expired_token after ten minutes', async () => {
    const { ws, visitor } = await signedInOwner();
    const denied = await oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), {}, insecure));
    await decideDevice(visitor, ws, denied.user_code, 'deny');
    await expect(poll(denied.device_code)).rejects.toMatchObject({ error: 'access_denied' });
    const late = await oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), {}, insecure));
    t.clock.advance(601_000);
    await expect(poll(late.device_code)).rejects.toMatchObject({ error: 'expired_token' });
  });

  it('runs the same flow through POST /api/v1/auth/device/start and /poll in the { data } envelope', async () => {
    const { ws, visitor } = await signedInOwner();
    const start = await t.rest(undefined, 'POST', '/api/v1/auth/device/start', { client_id: 'my-script' });
    expect(start.status).toBe(200);
    expect(outputProblems(registry.get('post_auth_device_start')!, start.body.data), JSON.stringify(start.body.data)).toEqual([]);
    const { device_code: deviceCode, user_code: userCode } = start.body.data as { device_code: string; user_code: string };
    const pending = await t.rest(undefined, 'POST', '/api/v1/auth/device/poll', { device_code: deviceCode });
    expect(pending).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    await decideDevice(visitor, ws, userCode, 'approve', ['read:content', 'write:content']);
    t.clock.advance(10_000);
    const done = await t.rest(undefined, 'POST', '/api/v1/auth/device/poll', { device_code: deviceCode });
    expect(done.status).toBe(200);
    expect(outputProblems(registry.get('post_auth_device_poll')!, done.body.data), JSON.stringify(done.body.data)).toEqual([]);
    expect(done.body.data).toMatchObject({ token_type: 'Bearer', scope: 'read:content write:content', workspace_id: ws.workspaceId, key_id: expect.stringMatching(/^key_/) });
    const key = await t.db.selectFrom('api_keys').select(['name', 'user_id']).where('id', '=', (done.body.data as { key_id: string }).key_id).executeTakeFirstOrThrow();
    expect(key.name).toBe('device login (my-script)');
    expect(key.user_id).not.toBeNull();
  });

  it('refuses unknown codes on the verification page, and limits guessing', async () => {
    const { visitor } = await signedInOwner();
    for (let i = 0; i < 10; i++) expect((await visitor.request('/device?user_code=BBBB-BBBB')).status).toBe(400);
    expect((await visitor.request('/device?user_code=BBBB-BBBB')).status).toBe(429);
  });
});
