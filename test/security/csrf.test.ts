import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import type { Visitor } from '../support/visitor.js';
import { changesState, concretePaths, dashboardRoutes, type DeclaredRoute } from './routes.js';

/** How many state-changing routes the dashboard has today: fewer found means the enumeration broke, not that routes went. */
const ROUTES_FLOOR = 31;

let t: TestService;
let owner: TestWorkspace & { visitor: Visitor };
let routes: DeclaredRoute[];

beforeAll(async () => {
  t = await TestService.start({ writer: false });
  owner = await t.signedInOwner();
  // RFC 8058's one-click unsubscribe is posted by mail clients without cookies: the secret token in its address is the
  // credential, and no session is read (test/changes/digest.test.ts covers it), so there is no form token to check.
  routes = dashboardRoutes(t.service.app)
    .filter(changesState)
    .filter((route) => route.path !== '/unsubscribe/:token');
});
afterAll(() => t.close());

// What the forged forms carry besides the token: enough that the same form with the right token would change something.
const FORMS: Record<string, Record<string, string>> = {
  '/w/:ws/keys': { name: 'planted key', scope: 'manage:org' },
  '/w/:ws/do/:operationId': { confirm: 'true', text: 'forged', name: 'forged', email: 'eve@evil.example', url: 'https://evil.example/' },
  '/w/:ws/outreach/mailbox': { fromName: 'Eve', fromAddress: 'eve@evil.example', smtpHost: 'smtp.evil.example', smtpPort: '587', smtpUser: 'eve', smtpPassword: 'x', dailyCap: '30', quietDays: '14' },
  '/signin': { email: 'eve@evil.example', password: 'the attacker’s own password' },
};

/** Everything a refused form must leave as it was; sessions aside, since reading one may record that it was used. */
const data = () => snapshot(t.db, ['sessions']);

describe('CSRF on every state-changing dashboard route', () => {
  it('the routes are read from the running router, so a route added later is covered', () => {
    expect(routes.length, routes.map((r) => `${r.method} ${r.path}`).join('\n')).toBeGreaterThanOrEqual(ROUTES_FLOOR);
    expect(routes).toContainEqual({ method: 'POST', path: '/w/:ws/do/:operationId' });
  });

  it('a signed-in owner’s browser posting a form from another site, without the token or with a wrong one, gets 403 “Form expired” and nothing changes', async () => {
    const before = await data();
    const operationIds = t.service.registry.tools.map((op) => op.operationId);
    const wrong = 'A'.repeat(43);
    const unrefused: string[] = [];
    for (const route of routes) {
      for (const path of concretePaths(route, { ws: owner.workspaceId, operationId: operationIds })) {
        const form = FORMS[route.path] ?? {};
        for (const [attempt, fields] of [['no token', form], ['a wrong token', { ...form, _csrf: wrong }]] as const) {
          const answer = await owner.visitor.request(path, { method: route.method, form: fields });
          const page = await answer.text();
          if (answer.status !== 403 || !page.includes('<h1>Form expired</h1>')) unrefused.push(`${route.method} ${path} with ${attempt}: ${answer.status}`);
        }
      }
    }
    expect(unrefused, 'forged forms that were not refused').toEqual([]);
    expect(await data()).toEqual(before);
    // The forged sign-out and sign-in changed nothing either: the owner is still signed in as the owner.
    const keysPage = `/w/${owner.workspaceId}/keys`;
    expect((await owner.visitor.request(keysPage)).status).toBe(200);
    // Only the token was missing: the same form sent with the page's token makes the key.
    const made = await owner.visitor.request(keysPage, { method: 'POST', form: { ...FORMS['/w/:ws/keys'], _csrf: await owner.visitor.csrf(keysPage) } });
    expect(made.status).toBe(200);
    expect(await made.text()).toContain('id="new-key"');
  });
});
