import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/apiKeys.js';
import { scopesOfRole } from '../src/auth/roles.js';
import { KEY_CACHE_TTL_MS } from '../src/auth/keyCache.js';
import { revokeKey } from '../src/operator.js';
import { TestService } from './support/harness.js';
import { twoInstancesOnOneDatabase } from './support/instances.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

/** The key works on both surfaces, so the service now holds it among the keys it authenticated moments ago. */
async function inUse(service: TestService, key: string): Promise<void> {
  expect((await service.rest(key, 'GET', '/api/v1/brand')).status).toBe(200);
  expect((await service.mcpTool(key, 'get_brand')).isError).toBe(false);
}

async function expectRefused(service: TestService, key: string): Promise<void> {
  expect((await service.rest(key, 'GET', '/api/v1/brand')).status).toBe(401);
  expect((await service.mcpRequest(key, 'tools/call', { name: 'get_brand', arguments: {} })).status).toBe(401);
}

const lastUsed = async (keyId: string) =>
  (await t.db.selectFrom('api_keys').select('last_used_at').where('id', '=', keyId).executeTakeFirstOrThrow()).last_used_at;

describe('API keys', () => {
  it('records the last use at most once a minute', async () => {
    const ws = await t.workspace();
    expect(await lastUsed(ws.keyId)).toBeNull();
    const first = t.clock.now();
    await t.rest(ws.key, 'GET', '/api/v1/brand');
    expect(await lastUsed(ws.keyId)).toBe(first);
    t.clock.advance(30_000);
    await t.mcpTool(ws.key, 'get_brand');
    expect(await lastUsed(ws.keyId)).toBe(first);
    t.clock.advance(30_000);
    await t.rest(ws.key, 'GET', '/api/v1/brand');
    expect(await lastUsed(ws.keyId)).toBe(first + 60_000);
  });

  it('stops working on both surfaces on the next request after revocation', async () => {
    const ws = await t.workspace();
    await inUse(t, ws.key);
    await revokeKey(t.db, t.clock, ws.keyId);
    await expectRefused(t, ws.key);
    expect((await t.mcpRequest(ws.key, 'tools/list')).status).toBe(401);
  });

  it('is bound to its workspace: the same call reads each key its own workspace', async () => {
    const a = await t.workspace({ name: 'A', site: 'https://a.example' });
    const b = await t.workspace({ name: 'B', site: 'https://b.example' });
    const brandOf = async (key: string) => ((await t.rest(key, 'GET', '/api/v1/brand')).body.data as { identity: { name: string } }).identity.name;
    expect(await brandOf(a.key)).toBe('A');
    expect(await brandOf(b.key)).toBe('B');
  });
});

describe('revocation of a key in use is refused on the next request, whichever way it is revoked', () => {
  it('through the API: removing a member revokes their key', async () => {
    const ws = await t.workspace();
    await t.user(ws.workspaceId, `owner-${ws.workspaceId}@acme.example`, 'owner');
    const memberId = await t.user(ws.workspaceId, `member-${ws.workspaceId}@acme.example`, 'member');
    const { key } = await createApiKey(t.db, t.clock, { workspaceId: ws.workspaceId, scopes: scopesOfRole('member'), name: 'laptop', userId: memberId });
    await inUse(t, key);
    expect((await t.rest(ws.key, 'POST', '/api/v1/team/remove', { userId: memberId, confirm: true })).status).toBe(200);
    await expectRefused(t, key);
  });

  it('through OAuth token revocation, as the CLI logs out', async () => {
    const ws = await t.workspace();
    await inUse(t, ws.key);
    const answer = await fetch(new URL('/oauth/revoke', t.baseUrl), { method: 'POST', body: new URLSearchParams({ token: ws.key }) });
    expect(answer.status).toBe(200);
    await expectRefused(t, ws.key);
  });

  it('in the dashboard', async () => {
    const ws = await t.signedInOwner();
    await inUse(t, ws.key);
    const csrf = await ws.visitor.csrf(`/w/${ws.workspaceId}/keys`);
    const answer = await ws.visitor.request(`/w/${ws.workspaceId}/keys/${ws.keyId}/revoke`, { method: 'POST', form: { _csrf: csrf } });
    expect(answer.status).toBe(303);
    await expectRefused(t, ws.key);
  });

  it('nowhere but through revokeApiKeys, which empties the caches of authenticated keys', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const sources = ['src', 'tools', 'adapters', 'db'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => join(root, dir, f)),
    );
    const revoking = sources.filter((file) => /updateTable\('api_keys'\)[^;]*revoked_at\s*:|update\s+"?api_keys"?\s+set[^;]*revoked_at/i.test(readFileSync(file, 'utf8')));
    expect(revoking.map((file) => relative(root, file))).toEqual(['src/auth/apiKeys.ts']);
  });
});

describe('two instances on one database', () => {
  const instances = twoInstancesOnOneDatabase();
  const { clock } = instances;

  it('refuse a key that one of them revoked on the next request', async () => {
    const ws = await instances.first.workspace();
    await inUse(instances.first, ws.key);
    await inUse(instances.second, ws.key);
    await revokeKey(instances.first.db, clock, ws.keyId);
    await expectRefused(instances.second, ws.key);
    await expectRefused(instances.first, ws.key);
  });

  it('refuse within a second a key revoked by another process', async () => {
    expect(KEY_CACHE_TTL_MS).toBeLessThan(1000);
    const ws = await instances.first.workspace();
    await inUse(instances.first, ws.key);
    await inUse(instances.second, ws.key);
    // What revokeApiKeys writes, from a process whose caches are not these (the operator's command, another instance).
    await instances.first.db.updateTable('api_keys').set({ revoked_at: clock.now() }).where('id', '=', ws.keyId).execute();
    clock.advance(KEY_CACHE_TTL_MS);
    await expectRefused(instances.first, ws.key);
    await expectRefused(instances.second, ws.key);
  });
});
