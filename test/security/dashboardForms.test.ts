import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields, Visitor } from '../support/visitor.js';

// Attacks on the dashboard's forms: a planted CSRF cookie, a token taken from another session, a form posted from
// another site (including a sibling subdomain), and a form too large to read.

const logLines: Array<{ level: number; msg: string }> = [];
let t: TestService;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter((l) => l !== '')) logLines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  t = await TestService.start({ logger: pino({ level: 'info' }, sink) });
});
afterAll(() => t.close());

type Owner = TestWorkspace & { email: string; visitor: Visitor };

const queriesOf = async (workspaceId: string) =>
  (await t.db.selectFrom('queries').select('text').where('workspace_id', '=', workspaceId).execute()).map((row) => row.text);

/** The add-query form of the queries page, posted with `fields` replacing what the page gave. */
async function addQuery(owner: Owner, text: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Response> {
  const page = await (await owner.visitor.request(`/w/${owner.workspaceId}/visibility/queries`)).text();
  const form = { ...hiddenFields(page), text, ...fields };
  return owner.visitor.request(`/w/${owner.workspaceId}/do/add_query`, { method: 'POST', form, headers });
}

describe('CSRF tokens are bound to the session', () => {
  it('a planted sl_csrf cookie with the same value in a cross-site form changes nothing', async () => {
    const victim = await t.signedInOwner();
    const planted = 'A'.repeat(43);
    victim.visitor.plant('sl_csrf', planted);
    const sameValue = await victim.visitor.request(`/w/${victim.workspaceId}/do/add_query`, { method: 'POST', form: { _csrf: planted, text: 'planted query' } });
    expect(sameValue.status).toBe(403);
    // Knowing how tokens are made does not help either: a signed-in form's token is keyed by the session.
    const derived = createHmac('sha256', planted).update('sightline dashboard form').digest('base64url');
    const derivedAnswer = await victim.visitor.request(`/w/${victim.workspaceId}/do/add_query`, { method: 'POST', form: { _csrf: derived, text: 'planted query' } });
    expect(derivedAnswer.status).toBe(403);
    expect(await queriesOf(victim.workspaceId)).not.toContain('planted query');
  });

  it('a token from the attacker\u2019s own session does not pass in the victim\u2019s', async () => {
    const victim = await t.signedInOwner();
    const attacker = await t.signedInOwner();
    const attackersToken = hiddenFields(await (await attacker.visitor.request(`/w/${attacker.workspaceId}/visibility/queries`)).text())._csrf!;
    expect((await addQuery(victim, 'their token', { _csrf: attackersToken })).status).toBe(403);
    expect(await queriesOf(victim.workspaceId)).not.toContain('their token');
  });

  it('the token before sign-in, or of a session that ended, does not pass after', async () => {
    const ws = await t.workspace();
    const email = `ann-${ws.workspaceId}@acme.example`;
    await t.user(ws.workspaceId, email, 'owner');
    const visitor = new Visitor(t.baseUrl);
    const before = await visitor.csrf('/signin');
    await visitor.signIn(email, PASSWORD);
    const owner = { ...ws, email, visitor };
    expect((await addQuery(owner, 'pre-session token', { _csrf: before })).status).toBe(403);
    const during = hiddenFields(await (await visitor.request(`/w/${ws.workspaceId}/visibility/queries`)).text())._csrf!;
    await visitor.request('/signout', { method: 'POST', form: { _csrf: during } });
    await visitor.signIn(email, PASSWORD);
    expect((await addQuery(owner, 'old session token', { _csrf: during })).status).toBe(403);
    expect((await addQuery(owner, 'fresh token')).status).toBe(303);
    expect(await queriesOf(ws.workspaceId)).toEqual(['fresh token']);
  });
});

describe('forms posted from another site are refused', () => {
  it('refuses a cross-site Origin, and same-site or cross-site Fetch Metadata, even with the right token', async () => {
    const owner = await t.signedInOwner();
    const refusals: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: t.baseUrl.replace('127.0.0.1', 'localhost') },
      { 'sec-fetch-site': 'cross-site' },
      // A sibling subdomain is same-site, not same-origin: the cookie-planting attacker's own position.
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of refusals) {
      const answer = await addQuery(owner, 'from elsewhere', {}, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(await answer.text()).toContain('This form was sent from another site, so nothing was changed.');
    }
    expect(await queriesOf(owner.workspaceId)).toEqual([]);
    expect((await addQuery(owner, 'from the page', {}, { origin: t.baseUrl, 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    expect(await queriesOf(owner.workspaceId)).toEqual(['from the page']);
  });

  it('refuses a sign-in form posted from another site (login CSRF), which has no session to bind to', async () => {
    const ws = await t.workspace();
    const email = `lou-${ws.workspaceId}@acme.example`;
    await t.user(ws.workspaceId, email, 'owner');
    const visitor = new Visitor(t.baseUrl);
    const csrf = await visitor.csrf('/signin');
    const answer = await visitor.request('/signin', { method: 'POST', form: { _csrf: csrf, email, password: PASSWORD }, headers: { origin: 'https://evil.example' } });
    expect(answer.status).toBe(403);
    expect(answer.headers.getSetCookie().some((c) => c.startsWith('sl_session='))).toBe(false);
  });
});

describe('an oversized form', () => {
  it('answers 413 with a page, on the anonymous sign-in form and on a signed-in action, logged as a warning only', async () => {
    const owner = await t.signedInOwner();
    logLines.length = 0;
    const signIn = await new Visitor(t.baseUrl).request('/signin', { method: 'POST', form: { email: 'x@example.com', password: 'p'.repeat(40_000) } });
    expect(signIn.status).toBe(413);
    expect(signIn.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await signIn.text()).toContain('<h1>Form too large</h1>');
    const action = await addQuery(owner, 'q'.repeat(40_000));
    expect(action.status).toBe(413);
    expect(await queriesOf(owner.workspaceId)).toEqual([]);
    const many = new URLSearchParams();
    for (let i = 0; i < 1200; i++) many.append(`f${i}`, '1');
    expect((await owner.visitor.request('/signin', { method: 'POST', form: many })).status).toBe(413);
    expect(logLines.filter((line) => line.level >= 50)).toEqual([]);
    expect(logLines.filter((line) => line.msg === 'dashboard form refused').map((line) => line.level)).toEqual([40, 40, 40]);
  });
});
