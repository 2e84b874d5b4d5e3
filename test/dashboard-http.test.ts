import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService } from './support/harness.js';
import { Visitor } from './support/visitor.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

describe('dashboard sessions over HTTP', () => {
  it('signs in and lands on its only workspace', async () => {
    const ws = await t.workspace();
    await t.user(ws.workspaceId, 'ann@acme.example', 'owner');
    const visitor = new Visitor(t.baseUrl);
    expect((await visitor.request(`/w/${ws.workspaceId}/settings`)).status).toBe(303);
    expect((await visitor.signIn('ann@acme.example', 'correct horse battery')).status).toBe(303);
    const home = await visitor.request('/');
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe(`/w/${ws.workspaceId}`);
    expect((await visitor.request(`/w/${ws.workspaceId}/keys`)).status).toBe(200);
  });

  it('issues one pre-session cookie per page before sign-in, and a form token derived from it rather than a copy of it', async () => {
    const page = await fetch(`${t.baseUrl}/signin`);
    const cookies = page.headers.getSetCookie().filter((c) => c.startsWith('sl_csrf='));
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/HttpOnly/i);
    expect(cookies[0]).toMatch(/SameSite=Strict/i);
    const cookieValue = cookies[0]!.split(';')[0]!.slice('sl_csrf='.length);
    const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toBe(cookieValue);
  });

  it('limits sign-in attempts per account', async () => {
    const ws = await t.workspace();
    await t.user(ws.workspaceId, 'cy@acme.example', 'owner');
    const visitor = new Visitor(t.baseUrl);
    for (let i = 0; i < 10; i++) expect((await visitor.signIn('cy@acme.example', 'wrong password')).status).toBe(401);
    expect((await visitor.signIn('cy@acme.example', 'correct horse battery')).status).toBe(429);
  });

  // A member's key with manage:org is refused: test/security/roleGrants.test.ts.
  it('lets a member create a key with the scopes their role holds', async () => {
    const ws = await t.workspace();
    await t.user(ws.workspaceId, 'dee@acme.example', 'member');
    const visitor = new Visitor(t.baseUrl);
    await visitor.signIn('dee@acme.example', 'correct horse battery');
    const csrf = await visitor.csrf(`/w/${ws.workspaceId}/keys`);
    const made = await visitor.request(`/w/${ws.workspaceId}/keys`, { method: 'POST', form: { _csrf: csrf, name: 'reader', scope: 'read:content' } });
    expect(made.status).toBe(200);
    const key = /id="new-key">(slk_[0-9A-Za-z]+)</.exec(await made.text())![1]!;
    expect((await t.rest(key, 'GET', '/api/v1/brand')).status).toBe(200);
  });
});
