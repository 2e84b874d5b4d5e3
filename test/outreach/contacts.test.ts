import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import type { MxResolver } from '../../src/outreach/contacts/finder.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { startSite, type SitePage } from '../links/support.js';
import { FakeHunter, HUNTER_TEST_KEY } from '../integrations/fakes/hunter.js';

let hunter: FakeHunter;
/** With HUNTER_* pointing at the local Hunter. */
let t: TestService;
/** Without Hunter: only the site reader. */
let free: TestService;
let site: Awaited<ReturnType<typeof startSite>>;
const pages: Record<string, SitePage> = {};
/** MX records by domain, in place of DNS. */
const mx = new Map<string, Array<{ exchange: string; priority: number }>>();
const mxResolver: MxResolver = async (domain) => {
  const records = mx.get(domain);
  if (records === undefined) throw Object.assign(new Error(`queryMx ENOTFOUND ${domain}`), { code: 'ENOTFOUND' });
  return records;
};

const html = (body: string): SitePage => ({ type: 'text/html; charset=utf-8', body: `<!doctype html><html><head><title>x</title></head><body>${body}</body></html>` });

beforeAll(async () => {
  hunter = await FakeHunter.start();
  site = await startSite(pages);
  t = await TestService.start({ outbound: { allowPrivateAddresses: true }, env: hunter.env, mxResolver });
  free = await TestService.start({ outbound: { allowPrivateAddresses: true }, mxResolver });
});

beforeEach(() => {
  for (const path of Object.keys(pages)) delete pages[path];
});

afterAll(async () => {
  await t?.close();
  await free?.close();
  await hunter?.close();
  await site?.close();
});

interface Answer {
  found: boolean;
  hunterConfigured: boolean;
  tried: Array<{ source: string; found: boolean; note: string | null }>;
  prospect: { prospectId: string; contact: { email: string; name: string | null; confidence: number | null; source: string | null; foundAt: string | null } | null };
}

async function prospect(service: TestService, ws: TestWorkspace, domain: string, pageUrl: string | null = null, contact: { email: string; name: string } | null = null): Promise<string> {
  const id = newId('pros');
  await service.db
    .insertInto('outreach_prospects')
    .values({
      id,
      workspace_id: ws.workspaceId,
      domain,
      page_url: pageUrl,
      title: null,
      origin: 'ranking_page',
      reason: 'Ranks #3 on Google for "crm for dentists"',
      target_url: null,
      stage: 'identified',
      stage_changed_at: service.clock.now(),
      contact_email: contact?.email ?? null,
      contact_name: contact?.name ?? null,
      contact_confidence: null,
      contact_source: contact === null ? null : 'import',
      contact_found_at: contact === null ? null : service.clock.now(),
      created_at: service.clock.now(),
    })
    .execute();
  return id;
}

const find = (service: TestService, ws: TestWorkspace, body: Record<string, unknown>) => service.rest(ws.key, 'POST', '/api/v1/outreach/find-contact', body);

async function found(service: TestService, ws: TestWorkspace, body: Record<string, unknown>): Promise<Answer> {
  const answer = await find(service, ws, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Answer;
}

describe('Hunter', () => {
  it("takes the domain search's best verified address: a person before a role address, skipping what the verifier rejects", async () => {
    const ws = await t.workspace();
    hunter.people.set('dentalblog.example', [
      { value: 'info@dentalblog.example', type: 'generic', confidence: 94, first_name: null, last_name: null },
      { value: 'anna@dentalblog.example', type: 'personal', confidence: 91, first_name: 'Anna', last_name: 'Berg' },
      { value: 'ben@dentalblog.example', type: 'personal', confidence: 77, first_name: 'Ben', last_name: 'Ng', position: 'Editor' },
    ]);
    hunter.verdicts.set('anna@dentalblog.example', 'invalid');
    const prospectId = await prospect(t, ws, 'dentalblog.example');
    const before = hunter.requests.length;
    const answer = await found(t, ws, { prospectId });
    expect(answer).toMatchObject({ found: true, hunterConfigured: true, tried: [{ source: 'hunter', found: true, note: null }] });
    expect(answer.prospect.contact).toEqual({ email: 'ben@dentalblog.example', name: 'Ben Ng', confidence: 77, source: 'hunter', foundAt: new Date(t.clock.now()).toISOString() });
    const calls = hunter.requests.slice(before);
    expect(calls.map((url) => `${url.pathname} ${url.searchParams.get('domain') ?? url.searchParams.get('email')}`)).toEqual([
      '/v2/domain-search dentalblog.example',
      '/v2/email-verifier anna@dentalblog.example',
      '/v2/email-verifier ben@dentalblog.example',
    ]);
    expect(calls.every((url) => url.searchParams.get('api_key') === HUNTER_TEST_KEY)).toBe(true);
    expect(calls[0]!.searchParams.get('limit')).toBe('10');
    const row = await t.db.selectFrom('outreach_prospects').selectAll().where('id', '=', prospectId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ contact_email: 'ben@dentalblog.example', contact_confidence: 77, contact_source: 'hunter' });
  });

  it("asks the email finder for a named person, with Hunter's score as the confidence", async () => {
    const ws = await t.workspace();
    hunter.people.set('crmweekly.example', [{ value: 'dana.li@crmweekly.example', type: 'personal', confidence: 88, first_name: 'Dana', last_name: 'Li' }]);
    const prospectId = await prospect(t, ws, 'crmweekly.example');
    const before = hunter.requests.length;
    const answer = await found(t, ws, { prospectId, firstName: 'Dana', lastName: 'Li' });
    expect(answer.prospect.contact).toMatchObject({ email: 'dana.li@crmweekly.example', name: 'Dana Li', confidence: 88, source: 'hunter' });
    const finder = hunter.requests.slice(before)[0]!;
    expect(finder.pathname).toBe('/v2/email-finder');
    expect(Object.fromEntries(finder.searchParams)).toEqual({ domain: 'crmweekly.example', first_name: 'Dana', last_name: 'Li', api_key: HUNTER_TEST_KEY });
  });

  it('answers 429 when Hunter says requests came too fast (403) and 503 naming the exhausted usage (429), storing nothing', async () => {
    const ws = await t.workspace();
    const prospectId = await prospect(t, ws, 'busy.example', null, { email: 'owner@busy.example', name: 'Owner' });
    try {
      hunter.failWith = 403;
      const limited = await find(t, ws, { prospectId });
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatch(/Hunter is refusing requests for going too fast \(403\).*try again in a minute/);
      expect(limited.body.retryAfterMs).toBe(60_000);
      hunter.failWith = 429;
      const spent = await find(t, ws, { prospectId });
      expect(spent.status).toBe(503);
      expect(spent.body.error).toMatch(/Hunter's usage for this plan is exhausted \(429\): You have reached the limit of your plan/);
    } finally {
      hunter.failWith = undefined;
    }
    const row = await t.db.selectFrom('outreach_prospects').selectAll().where('id', '=', prospectId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ contact_email: 'owner@busy.example', contact_source: 'import' });
  });

  it('answers 503 naming HUNTER_API_KEY when Hunter refuses the key (401), storing nothing', async () => {
    const ws = await t.workspace();
    const prospectId = await prospect(t, ws, 'keyless.example');
    try {
      hunter.failWith = 401;
      const refused = await find(t, ws, { prospectId });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatch(/Hunter refused HUNTER_API_KEY \(401\): No user found for the API key supplied/);
    } finally {
      hunter.failWith = undefined;
    }
    const row = await t.db.selectFrom('outreach_prospects').selectAll().where('id', '=', prospectId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ contact_email: null, contact_source: null });
  });

  it("takes no address for a person who asked Hunter not to be processed (451): the domain search's role address instead", async () => {
    const ws = await t.workspace();
    hunter.people.set('privateblog.example', [
      { value: 'sam.roe@privateblog.example', type: 'personal', confidence: 95, first_name: 'Sam', last_name: 'Roe' },
      { value: 'editor@privateblog.example', type: 'generic', confidence: 80, first_name: null, last_name: null },
    ]);
    hunter.claimed.add('sam roe@privateblog.example');
    const prospectId = await prospect(t, ws, 'privateblog.example');
    const before = hunter.requests.length;
    const answer = await found(t, ws, { prospectId, firstName: 'Sam', lastName: 'Roe' });
    expect(answer.prospect.contact).toMatchObject({ email: 'editor@privateblog.example', name: null, confidence: 80, source: 'hunter' });
    expect(hunter.requests.slice(before).map((url) => url.pathname)).toEqual(['/v2/email-finder', '/v2/domain-search', '/v2/email-verifier']);
  });

  it("falls back to the prospect's pages when Hunter knows nobody there", async () => {
    const ws = await t.workspace();
    pages['/contact'] = html('<p>Write to <a href="mailto:editor@localhost?subject=Hello">our editor</a></p>');
    mx.set('localhost', [{ exchange: 'mx.localhost', priority: 10 }]);
    const prospectId = await prospect(t, ws, 'localhost', `${site.origin}/blog/crm-guide`);
    const answer = await found(t, ws, { prospectId });
    expect(answer.tried).toEqual([
      { source: 'hunter', found: false, note: 'Hunter knows no address at localhost' },
      { source: 'site', found: true, note: null },
    ]);
    expect(answer.prospect.contact).toMatchObject({ email: 'editor@localhost', name: null, confidence: 70, source: 'site' });
  });
});

describe('the site reader (no Hunter configured)', () => {
  it('reads /contact, /contact-us and /about for addresses on the domain, ranking mailto on a contact page first', async () => {
    const ws = await free.workspace();
    pages['/contact-us'] = html('<p>Sales: sales@localhost. Or <a href="mailto:someone@gmail.com">me</a>, <a href="mailto:noreply@localhost">bot</a></p>');
    pages['/about'] = html('<p><a href="MAILTO:press%40localhost">Press</a></p><script>var x = "hidden@localhost";</script>');
    mx.set('localhost', [{ exchange: 'mx.localhost', priority: 10 }]);
    const prospectId = await prospect(free, ws, 'localhost', `${site.origin}/post`);
    const before = site.requests.length;
    const answer = await found(free, ws, { prospectId });
    expect(answer).toMatchObject({ found: true, hunterConfigured: false, tried: [{ source: 'site', found: true, note: null }] });
    expect(answer.prospect.contact).toMatchObject({ email: 'press@localhost', confidence: 60, source: 'site' });
    expect(site.requests.slice(before)).toEqual(['/contact', '/contact-us', '/about']);

    // Written only in the text: 50.
    delete pages['/about'];
    const next = await free.workspace();
    const second = await prospect(free, next, 'localhost', `${site.origin}/other`);
    expect((await found(free, next, { prospectId: second })).prospect.contact).toMatchObject({ email: 'sales@localhost', confidence: 50 });
  });

  it('keeps nothing (and the contact it had) when the domain takes no mail or the pages name no address', async () => {
    const ws = await free.workspace();
    pages['/contact'] = html('<a href="mailto:editor@localhost">Editor</a>');
    mx.set('localhost', [{ exchange: '.', priority: 0 }]);
    const prospectId = await prospect(free, ws, 'localhost', `${site.origin}/post`, { email: 'known@localhost', name: 'Known' });
    const noMail = await found(free, ws, { prospectId });
    expect(noMail).toMatchObject({ found: false, tried: [{ source: 'site', found: false, note: expect.stringContaining('without mail exchangers (MX)') }] });
    expect(noMail.prospect.contact).toMatchObject({ email: 'known@localhost', source: 'import' });

    pages['/contact'] = html('<p>Use the form below.</p>');
    const none = await found(free, ws, { prospectId });
    expect(none.tried[0]!.note).toBe('no address on localhost on /contact');

    const unreachable = await prospect(free, ws, 'nowhere.invalid');
    const answer = await found(free, ws, { prospectId: unreachable });
    expect(answer).toMatchObject({ found: false, prospect: { contact: null } });
    expect(answer.tried[0]!.note).toBe('none of /contact, /contact-us, /about could be read on https://nowhere.invalid');
  });
});

describe('find_outreach_contact input', () => {
  it('refuses bad input with 400 naming the field; another workspace\'s prospect is 404', async () => {
    const ws = await free.workspace();
    const prospectId = await prospect(free, ws, 'nowhere.invalid');
    // Each case on a key of its own: the route allows 5 calls a minute per key.
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^prospectId: is required/],
      [{ prospectId: '' }, /^prospectId: must not be empty/],
      [{ prospectId, firstName: '' }, /^firstName: must not be empty/],
      [{ prospectId, firstName: 'Dana' }, /^lastName: give firstName and lastName together, or neither/],
      [{ prospectId, lastName: 'x'.repeat(101) }, /^lastName: must have at most 100 characters/],
      [{ prospectId, domain: 'other.example' }, /^domain: is not a field/],
    ];
    for (const [body, message] of cases) {
      const answer = await free.rest(await free.key(ws.workspaceId, ['write:content']), 'POST', '/api/v1/outreach/find-contact', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(String(answer.body.error)).toMatch(message);
    }
    const other = await free.workspace();
    const foreign = await find(free, other, { prospectId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(`prospect ${prospectId} not found in this workspace`);
  });
});
