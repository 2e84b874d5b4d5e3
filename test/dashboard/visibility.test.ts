import type { Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../src/web/areas.js';
import { pageUrl } from '../../src/web/paths.js';
import { START_TIME, TestService, type TestWorkspace } from '../support/harness.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import { hiddenFields, Visitor } from '../support/visitor.js';
import { Seeder } from '../visibility/metrics/seed.js';

const PASSWORD = 'correct horse battery';
// More checks than one page of the citations list holds, so that paging shows.
const CHECKS = 27;

let t: TestService;
let ws: TestWorkspace;
let site: Server;
let owner: Visitor;
let member: Visitor;
let globex: string;

async function signedIn(role: 'owner' | 'member'): Promise<Visitor> {
  const email = `${role}@acme.example`;
  await t.user(ws.workspaceId, email, role);
  const visitor = new Visitor(t.baseUrl);
  await visitor.signIn(email, PASSWORD);
  return visitor;
}

beforeAll(async () => {
  t = await TestService.start({ outbound: { allowPrivateAddresses: true }, env: { ENGINE_CHATGPT_API_KEY: 'k', ENGINE_PERPLEXITY_API_KEY: 'k' } });
  const started = await startHttpsServer((req, res) => {
    if (req.url === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: GPTBot\nDisallow: /\n');
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<html>home</html>');
  });
  site = started.server;
  ws = await t.workspace({ site: `https://localhost:${started.port}` });
  const seed = new Seeder(t, ws);
  const q1 = await seed.query('best analytics tool');
  const q2 = await seed.query('analytics for startups');
  globex = await seed.competitor('Globex', 'https://globex.example');
  for (let i = 0; i < CHECKS; i++) {
    const at = new Date(Date.parse('2026-11-16T10:00:00Z') + i * 1000).toISOString();
    if (i % 3 === 0) await seed.answer(at, 'chatgpt', q1, 'Acme Analytics is the best. Globex is fine.', ['https://localhost/blog', 'https://wiki.org/a'], { brand: { label: 'positive', score: 80 } });
    else if (i % 3 === 1) await seed.answer(at, 'perplexity', q2, 'Globex leads the market.', ['https://globex.example/pricing']);
    else await seed.failure(at, 'chatgpt', q1);
  }
  await seed.rank('2026-11-16T11:00:00Z', q1, 'google', ['https://globex.example/a', `https://localhost:${started.port}/x`]);
  t.clock.set(START_TIME);
  owner = await signedIn('owner');
  member = await signedIn('member');
}, 60_000);
afterAll(async () => {
  await t.close();
  await closeServer(site);
});

const path = (rest: string) => pageUrl(ws.workspaceId, rest);

async function page(visitor: Visitor, at: string): Promise<string> {
  const answer = await visitor.request(at);
  const text = await answer.text();
  expect(answer.status, text).toBe(200);
  return text;
}

async function post(visitor: Visitor, operationId: string, form: Record<string, string>, from: string): Promise<Response> {
  const csrf = hiddenFields(await page(visitor, from))._csrf!;
  return visitor.request(`/w/${ws.workspaceId}/do/${operationId}`, { method: 'POST', form: { _csrf: csrf, back: from, ...form } });
}

const heading = (text: string) => /<h1>([^<]*)<\/h1>/.exec(text)?.[1];

describe('the overview and visibility pages', () => {
  it('render every page of the two areas for an owner and a member, each under its own title', async () => {
    const pages = AREAS.filter((area) => area.id === 'overview' || area.id === 'visibility').flatMap((area) => area.pages);
    for (const visitor of [owner, member]) {
      for (const entry of pages) {
        const text = await page(visitor, path(entry.path));
        expect(heading(text)).toBe(entry.path === '' ? 'Acme Analytics' : entry.title);
      }
    }
  });

  it('overview: the score with its interval, the trend, share of voice, the Google-versus-AI grid, the funnel and the agents', async () => {
    const text = await page(member, path(''));
    expect(text).toContain('you are a member of this workspace');
    expect(text).toMatch(/id="score"[\s\S]*range \d/);
    expect(text).toContain('id="score-trend"');
    expect(text).toContain('class="band"');
    expect(text).toMatch(/id="share-of-voice"[\s\S]*Globex/);
    expect(text).toContain('class="whisker"');
    expect(text).toContain('id="google-vs-ai-grid"');
    expect(text).toContain('id="funnel"');
    expect(text).toMatch(/id="agents"[\s\S]*writing/);
    expect(await page(owner, path(''))).toContain('you are an owner of this workspace');
  });

  it('overview of a workspace with nothing checked yet says so instead of showing numbers', async () => {
    const empty = await t.workspace({ name: 'Empty Co', site: 'https://empty.example' });
    await t.user(empty.workspaceId, 'owner@empty.example', 'owner');
    const visitor = new Visitor(t.baseUrl);
    await visitor.signIn('owner@empty.example', PASSWORD);
    const text = await page(visitor, pageUrl(empty.workspaceId, ''));
    expect(heading(text)).toBe('Empty Co');
    expect(text).toMatch(/id="score"><h3>Visibility score<\/h3><p class="figure">—<\/p><p class="muted">[^<]+<\/p>/);
    expect(text).toMatch(/id="score-trend"[\s\S]*No data yet/);
  });

  it('score: components with intervals, every engine, and a check run that asks first', async () => {
    const text = await page(owner, `${path('visibility')}?days=7`);
    expect(text).toMatch(/id="score"[\s\S]*range \d/);
    expect(text).toMatch(/Mention rate<\/h3><p>[\d.]+% \([\d.]+% – [\d.]+%\)/);
    expect(text).toMatch(/id="engines"[\s\S]*ChatGPT[\s\S]*Copilot/);
    const chatgpt = await page(owner, `${path('visibility')}?days=7&model=chatgpt`);
    expect(chatgpt).toContain('<option value="chatgpt" selected>');
    expect(chatgpt).not.toMatch(/<th scope="row">Perplexity/);
    const dryRun = await post(owner, 'run_visibility_check', {}, path('visibility'));
    expect(dryRun.status).toBe(200);
    expect(await dryRun.text()).toContain('id="dry-run"');
  });

  it('queries: add, hide, show again, and remove after the dry run', async () => {
    const from = path('visibility/queries');
    const added = await post(member, 'add_query', { text: 'crm for agencies' }, from);
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`${from}?done=add_query`);
    const listed = await page(member, `${from}?done=add_query`);
    expect(listed).toContain('id="done"');
    expect(listed).toContain('crm for agencies');
    const row = await t.db.selectFrom('queries').select(['id', 'hidden_at']).where('workspace_id', '=', ws.workspaceId).where('text', '=', 'crm for agencies').executeTakeFirstOrThrow();
    expect(row.hidden_at).toBeNull();
    const hiddenAt = async () => (await t.db.selectFrom('queries').select('hidden_at').where('id', '=', row.id).executeTakeFirstOrThrow()).hidden_at;
    expect((await post(member, 'update_query', { queryId: row.id, hidden: 'true' }, from)).status).toBe(303);
    expect(await hiddenAt()).not.toBeNull();
    expect(await page(member, from)).toContain('Show “crm for agencies” in ideas');
    expect((await post(member, 'update_query', { queryId: row.id, hidden: 'false' }, from)).status).toBe(303);
    expect(await hiddenAt()).toBeNull();
    const dryRun = await post(member, 'remove_query', { queryId: row.id }, from);
    const fields = hiddenFields(await dryRun.text());
    expect(fields).toMatchObject({ queryId: row.id, confirm: 'true' });
    expect((await member.request(`/w/${ws.workspaceId}/do/remove_query`, { method: 'POST', form: fields })).status).toBe(303);
    expect(await t.db.selectFrom('queries').select('id').where('id', '=', row.id).execute()).toEqual([]);
  });

  it('queries: a bad input shows the operation’s 400 and adds nothing', async () => {
    const answer = await post(owner, 'add_query', { text: 'x'.repeat(201) }, path('visibility/queries'));
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/id="problem"[^<]*text/);
  });

  it('competitors: add one, a missing website without a SERP provider is a 400 naming it, and a member’s removal waits for approval', async () => {
    const from = path('visibility/competitors');
    const text = await page(owner, from);
    expect(text).toMatch(/id="competitors"[\s\S]*Acme Analytics \(you\)[\s\S]*Globex/);
    expect((await post(owner, 'add_competitor', { name: 'Initech', websiteUrl: 'https://initech.example', aliases: 'Initech Cloud\nInitrode' }, from)).status).toBe(303);
    const added = await t.db.selectFrom('competitors').select('aliases').where('workspace_id', '=', ws.workspaceId).where('name', '=', 'Initech').executeTakeFirstOrThrow();
    expect(JSON.parse(added.aliases)).toEqual(['Initech Cloud', 'Initrode']);
    const refused = await post(owner, 'add_competitor', { name: 'Hooli' }, from);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('websiteUrl');
    const removal = await post(member, 'remove_competitor', { competitorId: globex }, from);
    expect(removal.status).toBe(303);
    expect(removal.headers.get('location')).toMatch(new RegExp(`^/w/${ws.workspaceId}/approvals/`));
    expect(await t.db.selectFrom('competitors').select('removed_at').where('id', '=', globex).executeTakeFirstOrThrow()).toEqual({ removed_at: null });
  });

  it('citations: filters by engine and pages back and forth without skipping a check', async () => {
    const first = await page(owner, path('visibility/citations'));
    const rows = (text: string) => [...text.matchAll(/<tr><td><time datetime="([^"]+)"/g)].map((match) => match[1]);
    expect(rows(first)).toHaveLength(25);
    const older = /<a href="([^"]+)" rel="next">/.exec(first)![1]!.replace(/&amp;/g, '&');
    const second = await page(owner, older);
    expect(rows(second)).toHaveLength(CHECKS - 25);
    expect(new Set([...rows(first), ...rows(second)]).size).toBe(CHECKS);
    expect(second).not.toContain('rel="next"');
    const newer = /<a href="([^"]+)" rel="prev">/.exec(second)![1]!.replace(/&amp;/g, '&');
    expect(rows(await page(owner, newer))).toEqual(rows(first));
    const perplexity = await page(owner, `${path('visibility/citations')}?model=perplexity`);
    expect(perplexity).toContain('Perplexity');
    expect(perplexity).not.toMatch(/<td>ChatGPT/);
    const bad = await owner.request(`${path('visibility/citations')}?before=yesterday`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('before');
  });

  it('sources, sentiment and rankings show the seeded numbers', async () => {
    expect(await page(owner, path('visibility/sources'))).toMatch(/id="sources"[\s\S]*globex\.example[\s\S]*competitor: Globex/);
    expect(await page(owner, path('visibility/sentiment'))).toMatch(/id="sentiment"[\s\S]*Acme Analytics \(you\)[\s\S]*Globex/);
    const rankings = await page(owner, `${path('visibility/rankings')}?scope=site`);
    expect(rankings).toMatch(/id="rankings"[\s\S]*best analytics tool/);
    expect(rankings).toMatch(/id="google-vs-ai"[\s\S]*analytics for startups/);
  });

  it('crawler access probes the site only when asked', async () => {
    const idle = await page(member, path('visibility/crawlers'));
    expect(idle).toContain('Probe the site now');
    expect(idle).not.toContain('id="crawlers"');
    const probed = await page(member, `${path('visibility/crawlers')}?probe=now`);
    expect(probed).toMatch(/<th scope="row">GPTBot<\/th><td>[^<]*<\/td><td>[^<]*<\/td><td>disallowed<\/td>/);
  });
});
