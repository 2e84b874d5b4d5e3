import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { FakeSmtp } from './fakes/mailServers.js';
import { configureMailbox, insertDraft, insertProspect } from './support.js';

let t: TestService;
let smtp: FakeSmtp;
let ws: TestWorkspace;

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  t = await TestService.start({ env: { MAIL_ALLOW_INSECURE: '1', ALLOW_PRIVATE_TARGETS: '1' } });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

beforeEach(async () => {
  smtp.received.length = 0;
  ws = await t.workspace();
});

const set = (body: Record<string, unknown>, key = ws.key) => t.rest(key, 'POST', '/api/v1/outreach/suppressions', body);
const list = (query: Record<string, unknown> = {}, key = ws.key) => t.rest(key, 'GET', '/api/v1/outreach/suppressions', query);
const rows = (workspaceId = ws.workspaceId) => t.db.selectFrom('outreach_suppressions').selectAll().where('workspace_id', '=', workspaceId).orderBy('email').execute();
const message = (id: string) => t.db.selectFrom('outreach_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const mailbox = () => configureMailbox(t.db, t.clock, t.service.services.credentials, ws.workspaceId, { smtpHost: '127.0.0.1', smtpPort: String(smtp.port) });

async function draftTo(contactEmail: string): Promise<string> {
  const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { contactEmail });
  return insertDraft(t.db, t.clock, ws.workspaceId, prospectId);
}

describe('the outreach suppression list', () => {
  it('adds (lower-cased, manual), lists newest first with paging, and removes; an existing row keeps its reason', async () => {
    const added = await set({ address: 'Dana@Blog.Example', suppressed: true });
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({
      address: 'dana@blog.example',
      suppressed: true,
      changed: true,
      suppression: { address: 'dana@blog.example', reason: 'manual', domainWide: false, createdAt: new Date(t.clock.now()).toISOString() },
      removed: null,
    });
    t.clock.advance(1000);
    await t.db.insertInto('outreach_suppressions').values({ workspace_id: ws.workspaceId, email: 'gone@mx.example', reason: 'bounce', created_at: t.clock.now() }).execute();
    t.clock.advance(1000);
    expect((await set({ address: '*@spam.example', suppressed: true })).body.data).toMatchObject({ suppression: { address: '*@spam.example', domainWide: true } });
    const again = await set({ address: 'gone@mx.example', suppressed: true });
    expect(again.body.data).toMatchObject({ suppressed: true, changed: false, suppression: { reason: 'bounce' } });

    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ page: 1, limit: 50, total: 3, nextPage: null });
    expect((all.body.data as { suppressions: { address: string }[] }).suppressions.map((s) => s.address)).toEqual(['*@spam.example', 'gone@mx.example', 'dana@blog.example']);
    const paged = await list({ limit: 2, page: 2 });
    expect(paged.body.data).toMatchObject({ page: 2, limit: 2, total: 3, nextPage: null, suppressions: [{ address: 'dana@blog.example', reason: 'manual' }] });
    expect((await list({ limit: 2 })).body.data).toMatchObject({ nextPage: 2 });

    // Taking a bounce off is allowed (it will bounce again); taking off what is not there changes nothing.
    const removed = await set({ address: 'GONE@mx.example', suppressed: false });
    expect(removed.body.data).toMatchObject({ address: 'gone@mx.example', suppressed: false, changed: true, suppression: null, removed: { reason: 'bounce' } });
    expect((await set({ address: 'gone@mx.example', suppressed: false })).body.data).toMatchObject({ suppressed: false, changed: false, removed: null });
    expect((await rows()).map((r) => r.email)).toEqual(['*@spam.example', 'dana@blog.example']);
    const mcp = await t.mcpTool(ws.key, 'list_outreach_suppressions', {});
    expect(mcp.isError).toBeFalsy();
    expect(mcp.text).toContain('dana@blog.example');
  });

  it('no email goes to a suppressed address or domain: refused at queue time, and failed in the job when suppressed after queueing', async () => {
    await mailbox();
    const person = await draftTo('Editor@Blocked.example');
    await set({ address: 'editor@blocked.example', suppressed: true });
    const refused = await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: person, confirm: true });
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toBe('messageId: editor@blocked.example is on the suppression list (manual): no email goes to that address');
    expect((await message(person)).state).toBe('draft');

    const domain = await draftTo('someone@whole-domain.example');
    await set({ address: '*@whole-domain.example', suppressed: true });
    const byDomain = await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: domain });
    expect(String(byDomain.body.error)).toBe('messageId: someone@whole-domain.example is on the suppression list (manual, all of *@whole-domain.example): no email goes to that address');

    const late = await draftTo('late@later.example');
    expect((await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: late, confirm: true })).status).toBe(200);
    await set({ address: '*@later.example', suppressed: true });
    await t.jobs.drain();
    expect(smtp.received).toEqual([]);
    expect(await message(late)).toMatchObject({ state: 'failed', error: expect.stringMatching(/^late@later\.example was added to the suppression list \(manual, all of \*@later\.example\)/) });

    // Taken off, the address can be written to again.
    await set({ address: 'editor@blocked.example', suppressed: false });
    expect((await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: person, confirm: true })).status).toBe(200);
    await t.jobs.drain();
    expect(smtp.received.map((m) => m.to)).toEqual([['editor@blocked.example']]);
  });

  it('refuses bad input with 400 naming the field and changes nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ address: 'not-an-address', suppressed: true }, /^address: must be an email address or \*@domain/],
      [{ address: '*@localhost', suppressed: true }, /^address: must be an email address or \*@domain/],
      [{ address: '*@*.example', suppressed: true }, /^address: must be an email address or \*@domain/],
      [{ address: '', suppressed: true }, /^address: /],
      [{ address: `${'a'.repeat(250)}@b.example`, suppressed: true }, /^address: /],
      [{ suppressed: true }, /^address: /],
      [{ address: 'a@b.example' }, /^suppressed: /],
      [{ address: 'a@b.example', suppressed: 'yes' }, /^suppressed: /],
      [{ address: 'a@b.example', suppressed: true, reason: 'bounce' }, /^reason: is not a field/],
    ];
    for (const [body, rule] of cases) {
      const answer = await set(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(String(answer.body.error), JSON.stringify(body)).toMatch(rule);
    }
    expect((await list({ limit: 0 })).status).toBe(400);
    expect(String((await list({ limit: 101 })).body.error)).toMatch(/^limit: /);
    expect(String((await list({ page: 0 })).body.error)).toMatch(/^page: /);
    expect(await rows()).toEqual([]);
  });

  it('keeps workspaces apart: one workspace cannot list or lift another\'s entries, and its suppressions do not hold the other\'s sends', async () => {
    await set({ address: 'shared@person.example', suppressed: true });
    const a = ws;
    ws = await t.workspace();
    expect((await list()).body.data).toMatchObject({ total: 0, suppressions: [] });
    // Removing it in B answers B's state and leaves A's row.
    expect((await set({ address: 'shared@person.example', suppressed: false })).body.data).toMatchObject({ suppressed: false, changed: false });
    expect((await rows(a.workspaceId)).map((r) => r.email)).toEqual(['shared@person.example']);
    await mailbox();
    const draft = await draftTo('shared@person.example');
    expect((await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId: draft, confirm: true })).status).toBe(200);
    await t.jobs.drain();
    expect(smtp.received.map((m) => m.to)).toEqual([['shared@person.example']]);
    expect((await list({}, a.key)).body.data).toMatchObject({ total: 1 });
  });

  it('needs read:content to list and write:backlinks to change', async () => {
    const reader = await t.workspace({ scopes: ['read:content'] });
    expect((await list({}, reader.key)).status).toBe(200);
    expect((await set({ address: 'a@b.example', suppressed: true }, reader.key)).status).toBe(403);
  });
});
