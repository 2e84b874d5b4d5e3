import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/web/html.js';
import { AREAS } from '../../src/web/areas.js';
import { pageUrl } from '../../src/web/paths.js';
import { requestApproval } from '../../src/approvals/approvals.js';
import { insertProspect, insertReceived } from '../outreach/support.js';
import { insertRepurposeDraft } from '../repurpose/support.js';
import { insertThread } from '../social/support.js';
import { seedGrant } from '../support/grants.js';
import { PASSWORD, TestService, type TestWorkspace } from '../support/harness.js';
import { Visitor } from '../support/visitor.js';

/** Text someone else wrote, as an attacker writes it: a script, an event handler, and both quotes to leave an attribute. */
const hostile = (label: string): string => `${label} <script>alert(1)</script><img src=x onerror=alert(1)>"'`;
/** What must never reach a page: the markup of `hostile`, unescaped. */
const RAW_MARKUP = ['<script', '<img src=x'];
/** An apostrophe is all an email address may carry of that markup. */
const INVITED = "o'brien@acme.example";

let t: TestService;
let ws: TestWorkspace;
let owner: Visitor;
/** Each page as a browser gets it: by its path under /w/:ws/ for the map's pages (the overview by that name), by name for the others. */
const pages = new Map<string, { html: string; policy: string | null }>();

async function ok(method: 'GET' | 'POST', path: string, input?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await t.rest(ws.key, method, path, input);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

async function keep(name: string, visitor: Visitor, path: string): Promise<void> {
  const answer = await visitor.request(path);
  expect(answer.status, path).toBe(200);
  pages.set(name, { html: await answer.text(), policy: answer.headers.get('content-security-policy') });
}

/** A client registered under a hostile name, and the consent page its authorization request opens. */
async function consentPage(): Promise<void> {
  const registered = await fetch(new URL('/oauth/register', t.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:47127/callback'], client_name: hostile('Client') }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: 'http://127.0.0.1:47127/callback', response_type: 'code', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', scope: 'read:content' });
  await keep('consent', owner, `/oauth/authorize?${query.toString()}`);
}

/** A device login started by a command line that calls itself by a hostile client_id, and the page that approves it. */
async function devicePage(): Promise<void> {
  const started = await fetch(new URL('/oauth/device_authorization', t.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: hostile('Device'), scope: 'read:content' }).toString(),
  });
  const { user_code: userCode } = (await started.json()) as { user_code: string };
  await keep('device', owner, `/device?user_code=${encodeURIComponent(userCode)}`);
}

beforeAll(async () => {
  t = await TestService.start();
  ws = await t.workspace({ name: hostile('Workspace') });
  const email = `owner-${ws.workspaceId}@acme.example`;
  const userId = await t.user(ws.workspaceId, email, 'owner');
  owner = new Visitor(t.baseUrl);
  await owner.signIn(email, PASSWORD);
  // What the workspace's own people and agents write, through the API.
  await ok('POST', '/api/v1/brand', { name: hostile('Brand'), productDescription: hostile('Product description'), brandAliases: [hostile('Alias')] });
  await ok('POST', '/api/v1/queries', { text: hostile('Query') });
  await ok('POST', '/api/v1/competitors', { name: hostile('Competitor'), websiteUrl: 'https://rival.example' });
  await ok('POST', '/api/v1/brand/guidelines', { type: 'tone', avoid: hostile('Avoid'), instead: hostile('Instead') });
  await ok('POST', '/api/v1/brand/product', { name: hostile('Product'), description: hostile('Product text'), url: 'https://acme.example/p', category: 'core_product' });
  const planned = await ok('POST', '/api/v1/content/plan/commit', { titles: [{ title: hostile('Article'), keyword: 'crm for dentists' }] });
  const contentId = (planned.planned as Array<{ contentId: string }>)[0]!.contentId;
  await ok('POST', '/api/v1/destinations', { name: hostile('Destination'), endpointUrl: 'https://hooks.acme.example/sightline' });
  await ok('POST', '/api/v1/backlinks/managed', { linkingUrl: 'https://review.example/crm', anchorText: hostile('Anchor') });
  await ok('POST', '/api/v1/outreach/prospects', { prospects: [{ domain: 'clinicblog.example', contactEmail: 'dana@clinicblog.example', contactName: hostile('Prospect'), note: hostile('Note') }] });
  const invited = await ok('POST', '/api/v1/team/invite', { email: INVITED, confirm: true });
  const keys = pageUrl(ws.workspaceId, 'keys');
  await owner.request(keys, { method: 'POST', form: { _csrf: await owner.csrf(keys), name: hostile('Key'), scope: 'read:content' } });
  const { approvalId } = await requestApproval(t.db, t.clock, {
    workspaceId: ws.workspaceId,
    operationId: 'update_brand_identity',
    input: { name: hostile('Approval input') },
    summary: hostile('Approval'),
    requestedBy: { apiKeyId: ws.keyId, userId: null },
  });
  // What people outside write: a thread found on a forum, a reply by email, an app's name.
  await insertThread(t.db, t.clock, ws.workspaceId, { title: hostile('Thread'), excerpt: hostile('Excerpt') });
  const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { stage: 'replied' });
  await insertReceived(t.db, t.clock, ws.workspaceId, prospectId, { subject: hostile('Reply subject'), body: hostile('Reply body') });
  await insertRepurposeDraft(t, ws.workspaceId, { posts: [hostile('Post')] });
  await seedGrant(t, { workspaceId: ws.workspaceId, userId, clientName: hostile('Connected app') });

  for (const page of AREAS.flatMap((area) => area.pages)) await keep(page.path === '' ? 'overview' : page.path, owner, pageUrl(ws.workspaceId, page.path));
  await keep('article', owner, pageUrl(ws.workspaceId, `content/articles/${contentId}`));
  await keep('approval', owner, pageUrl(ws.workspaceId, `approvals/${approvalId}`));
  await keep('thread', owner, pageUrl(ws.workspaceId, `growth/outreach/thread?prospect=${prospectId}`));
  await keep('invite', new Visitor(t.baseUrl), new URL(String(invited.acceptUrl)).pathname);
  await consentPage();
  await devicePage();
}, 60_000);
afterAll(() => t.close());

/** Where each text is shown: the page (see `pages`) that must carry it, escaped. */
const SHOWN_ON: Array<[label: string, page: string]> = [
  ['Workspace', 'overview'],
  ['Workspace', 'invite'],
  ['Brand', 'brand/identity'],
  ['Product description', 'brand/identity'],
  ['Alias', 'brand/identity'],
  ['Query', 'visibility/queries'],
  ['Competitor', 'visibility/competitors'],
  ['Avoid', 'brand/guidelines'],
  ['Instead', 'brand/guidelines'],
  ['Product', 'brand/products'],
  ['Product text', 'brand/products'],
  ['Article', 'content/titles'],
  ['Article', 'article'],
  ['Destination', 'publishing'],
  ['Anchor', 'growth'],
  ['Prospect', 'growth/outreach'],
  ['Note', 'growth/outreach'],
  ['Reply subject', 'thread'],
  ['Reply body', 'thread'],
  ['Thread', 'growth/social'],
  ['Excerpt', 'growth/social'],
  ['Post', 'growth/repurpose'],
  ['Key', 'keys'],
  ['Connected app', 'apps'],
  ['Approval', 'approvals'],
  ['Approval', 'approval'],
  ['Approval input', 'approval'],
  ['Client', 'consent'],
  ['Device', 'device'],
];

describe('text someone else wrote, on every dashboard page', () => {
  it('a script or an event handler in any of it never reaches a page as markup', () => {
    expect(pages.size).toBeGreaterThan(AREAS.flatMap((area) => area.pages).length);
    const found = [...pages].flatMap(([name, page]) => RAW_MARKUP.filter((raw) => page.html.includes(raw)).map((raw) => `${name}: ${raw}`));
    expect(found).toEqual([]);
  });

  it.each(SHOWN_ON)('%s is shown as text, escaped, on %s', (label, name) => {
    expect(pages.get(name)?.html).toContain(escapeHtml(hostile(label)));
  });

  it('an invitee\'s email address is shown with its apostrophe escaped, on the team page and the invite', () => {
    for (const name of ['team', 'invite']) expect(pages.get(name)?.html).toContain(escapeHtml(INVITED));
  });

  it('a script that got onto a page anyway would not run: every page\'s Content-Security-Policy allows none', () => {
    for (const [name, page] of pages) {
      const directives = new Map((page.policy ?? '').split(';').map((directive) => directive.trim().split(/\s+/)).map(([directive, ...sources]) => [directive!, sources]));
      expect(directives.get('default-src'), name).toEqual(["'none'"]);
      expect(directives.has('script-src') || directives.has('script-src-elem') || directives.has('script-src-attr'), name).toBe(false);
    }
  });
});
