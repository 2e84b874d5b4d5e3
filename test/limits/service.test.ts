import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { Visitor } from '../support/visitor.js';
import { CLOSED_REDIS_URL } from './support.js';

const startDevice = (t: TestService, headers: Record<string, string> = {}) =>
  fetch(`${t.baseUrl}/api/v1/auth/device/start`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

const oauthDeviceStart = (t: TestService, headers: Record<string, string> = {}) =>
  fetch(`${t.baseUrl}/oauth/device_authorization`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: 'client_id=sightline-cli' });

describe('with the shared limiter store out of reach', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start({ env: { REDIS_URL: CLOSED_REDIS_URL } });
  });
  afterAll(() => t.close());

  it('answers 503 with the error envelope and Retry-After on REST, and the same error on MCP, running nothing', async () => {
    const { key, workspaceId } = await t.workspace();
    const rest = await t.rest(key, 'POST', '/api/v1/queries', { text: 'best crm for startups' });
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('5');
    expect(rest.body).toEqual({ error: expect.stringMatching(/^rate limits cannot be checked right now: Redis at REDIS_URL/), retryAfterMs: 5000 });
    const mcp = await t.mcpTool(key, 'add_query', { text: 'best crm for startups' });
    expect(mcp).toMatchObject({ isError: true, structuredContent: { status: 503, error: rest.body.error } });
    const stored = await t.db.selectFrom('queries').select('id').where('workspace_id', '=', workspaceId).execute();
    expect(stored).toEqual([]);
  });

  it('refuses public calls the same way', async () => {
    const response = await startDevice(t);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/Redis at REDIS_URL/);
  });
});

describe('client addresses', () => {
  let direct: TestService;
  let proxied: TestService;
  beforeAll(async () => {
    [direct, proxied] = await Promise.all([TestService.start(), TestService.start({ env: { TRUST_PROXY: '1' } })]);
  });
  afterAll(() => Promise.all([direct.close(), proxied.close()]));

  it('ignore X-Forwarded-For unless TRUST_PROXY is set: every device-login start counts against the socket address', async () => {
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await startDevice(direct, { 'x-forwarded-for': `203.0.113.${i}` })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('come from X-Forwarded-For behind a trusted proxy, so each client has its own allowance', async () => {
    for (let i = 0; i < 10; i++) expect((await startDevice(proxied, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
    const spent = await startDevice(proxied, { 'x-forwarded-for': '198.51.100.7' });
    expect(spent.status).toBe(429);
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await startDevice(proxied, { 'x-forwarded-for': '198.51.100.8' })).status).toBe(200);
  });

  it('share one allowance between the API and the standard OAuth device endpoint', async () => {
    const address = { 'x-forwarded-for': '198.51.100.9' };
    for (let i = 0; i < 5; i++) expect((await startDevice(proxied, address)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await oauthDeviceStart(proxied, address)).status).toBe(200);
    const spent = await oauthDeviceStart(proxied, address);
    expect(spent.status).toBe(429);
    expect(((await spent.json()) as { error: string }).error).toMatch(/cap of 10 calls per minute on post_auth_device_start/);
  });

  it('count sign-in attempts per address from X-Forwarded-For behind a trusted proxy', async () => {
    const visitor = new Visitor(proxied.baseUrl);
    const csrf = await visitor.csrf('/signin');
    const attempt = async (address: string, n: number) =>
      (await visitor.request('/signin', { method: 'POST', headers: { 'x-forwarded-for': address }, form: { _csrf: csrf, email: `nobody${n}@example.com`, password: 'wrong password', next: '/' } })).status;
    // Each refused password costs a hash; fifty at once keep the test short.
    const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) => attempt('192.0.2.50', i)));
    expect(statuses.every((s) => s === 401)).toBe(true);
    expect(await attempt('192.0.2.50', 50)).toBe(429);
    expect(await attempt('192.0.2.51', 99)).toBe(401);
    // Fifty password hashes take seconds on their own and far longer on a busy machine; the test is about counting.
  }, 90_000);
});
