import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../src/operator.js';
import { TestService } from './support/harness.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

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
    expect((await t.rest(ws.key, 'GET', '/api/v1/brand')).status).toBe(200);
    await revokeKey(t.db, t.clock, ws.keyId);
    expect((await t.rest(ws.key, 'GET', '/api/v1/brand')).status).toBe(401);
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
