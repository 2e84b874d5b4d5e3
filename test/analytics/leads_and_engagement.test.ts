import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { systemClock } from '../../src/clock.js';
import { insertCheckRun } from '../../src/visibility/checks/runs.js';
import { recordEngineAnswer } from '../../src/visibility/checks/record.js';
import { normaliseCitations } from '../../src/visibility/engines/engine.js';
import { TestService, START_TIME, type TestWorkspace } from '../support/harness.js';
import { runEntry } from '../support/processes.js';
import { addQuery } from '../visibility/checks/support.js';
import { collect } from './support.js';

const DAY = 86_400_000;

describe('list_leads and get_page_engagement', () => {
  let t: TestService;
  let ws: TestWorkspace;
  let site: string;
  const page = (path: string) => `https://acme.example${path}`;

  beforeAll(async () => {
    t = await TestService.start({ env: { TRUST_PROXY: 'loopback' } });
    ws = await t.workspace();
    site = await siteIdOf(t.db, ws.workspaceId);
  });
  afterAll(() => t.close());

  it('lists leads newest first with their first touch, a page at a time, on both surfaces', async () => {
    t.clock.set(START_TIME);
    await collect(t.baseUrl, { s: site, t: 'pageview', u: page('/?utm_source=chatgpt.com&utm_campaign=launch') }, { ip: '198.51.100.7' });
    await t.service.counterIngest.flush();
    for (const [i, email] of ['first@example.com', 'second@example.com', 'third@example.com'].entries()) {
      t.clock.advance(60_000);
      const ip = i === 2 ? '198.51.100.8' : '198.51.100.7';
      expect((await collect(t.baseUrl, { s: site, t: 'lead', u: page('/contact'), f: { email, company: `Co ${i}` } }, { ip })).status).toBe(204);
      await t.service.counterIngest.flush();
    }
    const first = await t.rest(ws.key, 'GET', '/api/v1/leads?limit=2');
    expect(first.status).toBe(200);
    const data = first.body.data as { total: number; nextPage: number | null; leads: Array<Record<string, unknown>> };
    expect([data.total, data.nextPage]).toEqual([3, 2]);
    // The third came from a visitor with no session of the day: direct, nothing referred it.
    expect(data.leads.map((lead) => lead.email)).toEqual(['third@example.com', 'second@example.com']);
    expect(data.leads[0]).toMatchObject({ firstTouch: { source: 'direct', engine: null }, aiEngine: null, utm: { source: null, medium: null, campaign: null } });
    expect(data.leads[1]).toMatchObject({
      fields: { company: 'Co 1' },
      page: { path: '/contact', url: 'https://acme.example/contact' },
      utm: { source: 'chatgpt.com', medium: null, campaign: 'launch' },
      firstTouch: { source: 'ai', engine: 'chatgpt' },
      aiEngine: 'chatgpt',
    });
    const second = await t.mcpTool(ws.key, 'list_leads', { page: 2, limit: 2 });
    expect(second.structuredContent).toMatchObject({ page: 2, nextPage: null, leads: [{ email: 'first@example.com' }] });
    // Another workspace sees none of them; a key without read:leads is refused.
    const other = await t.workspace();
    expect((await t.rest(other.key, 'GET', '/api/v1/leads')).body.data).toMatchObject({ total: 0, leads: [] });
    const narrow = await t.workspace({ scopes: ['read:analytics'] });
    expect((await t.rest(narrow.key, 'GET', '/api/v1/leads')).status).toBe(403);
  });

  it('shows each published article with its views, AI citations and a 30-day sparkline', async () => {
    const owner = await t.workspace();
    const ownSite = await siteIdOf(t.db, owner.workspaceId);
    t.clock.set(START_TIME);
    const publish = async (title: string, url: string) => {
      const id = await insertPlannedArticle(t.db, t.clock, { workspaceId: owner.workspaceId, keyword: title, title, scheduledAt: t.clock.now(), language: 'en' });
      await t.db.updateTable('articles').set({ status: 'published', published_at: t.clock.now(), url }).where('id', '=', id).execute();
      return id;
    };
    const guide = await publish('The guide', 'https://www.acme.example/blog/guide/');
    const quiet = await publish('A quiet post', 'https://acme.example/blog/quiet');
    await insertPlannedArticle(t.db, t.clock, { workspaceId: owner.workspaceId, keyword: 'draft', title: 'A draft', scheduledAt: t.clock.now(), language: 'en' });

    // Views: two today, one two days ago, one 31 days ago (outside the window).
    const view = async (at: number, ip: string) => {
      t.clock.set(at);
      await collect(t.baseUrl, { s: ownSite, t: 'pageview', u: page('/blog/guide?ref=x') }, { ip });
      await t.service.counterIngest.flush();
    };
    const today = START_TIME + 40 * DAY;
    await view(today - 31 * DAY, '198.51.100.20');
    await view(today - 2 * DAY, '198.51.100.21');
    await view(today, '198.51.100.22');
    await view(today, '198.51.100.23');

    // Citations: an answer citing the guide twice (two spellings) counts once; one citing another site not at all.
    const queryId = await addQuery(t, owner, 'best analytics');
    const runId = await insertCheckRun(t.db, t.clock, { workspaceId: owner.workspaceId, trigger: 'schedule', engines: ['chatgpt', 'perplexity'], runsPerQuery: 1, planned: 2 });
    const answer = (urls: string[]) => ({ text: 'Acme Analytics.', citations: normaliseCitations(urls.map((url) => ({ url }))), model: 'm', latencyMs: 1 });
    for (const [engine, urls] of [
      ['chatgpt', ['https://acme.example/blog/guide', 'https://acme.example/blog/guide/']],
      ['perplexity', ['https://acme.example/blog/guide#faq']],
    ] as const) {
      await recordEngineAnswer(t.db, t.clock, { workspaceId: owner.workspaceId, runId, queryId, engine, runIndex: 1, answer: answer([...urls]), error: null });
    }
    await recordEngineAnswer(t.db, t.clock, { workspaceId: owner.workspaceId, runId, queryId, engine: 'chatgpt', runIndex: 2, answer: answer(['https://other.example/blog/guide']), error: null });

    const answerOf = await t.rest(owner.key, 'GET', '/api/v1/analytics/engagement');
    expect(answerOf.status).toBe(200);
    const data = answerOf.body.data as { window: { from: string; to: string }; pages: Array<{ articleId: string; views: number; aiCitations: number; sparkline: number[]; path: string }> };
    expect(data.window.to).toBe(new Date(today).toISOString().slice(0, 10));
    expect(data.pages.map((p) => [p.articleId, p.path, p.views, p.aiCitations])).toEqual([
      [guide, '/blog/guide', 3, 2],
      [quiet, '/blog/quiet', 0, 0],
    ]);
    const sparkline = data.pages[0]!.sparkline;
    expect(sparkline).toHaveLength(30);
    expect([sparkline[27], sparkline[29], sparkline.reduce((a, b) => a + b, 0)]).toEqual([1, 2, 3]);
    // Another workspace's articles are not its pages.
    expect((await t.rest(ws.key, 'GET', '/api/v1/analytics/engagement')).body.data).toMatchObject({ pages: [] });
  });
});

describe('admin leads export and remove', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-leads-'));
  const file = `file:${join(dir, 'leads.db')}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const admin = (...args: string[]) => runEntry('src/cli/main.ts', ['admin', 'leads', ...args], { DATABASE_URL: file });

  // Four CLI processes, each compiling the CLI with tsx: about 10 s alone, more beside a full suite.
  it('exports every lead of a workspace and removes them by id or email', { timeout: 60_000 }, async () => {
    const handle = openDatabase(file);
    const { migrateToLatest } = await import('../../db/migrate.js');
    await migrateToLatest(handle);
    const workspaceId = await createWorkspace(handle.db, systemClock, { name: 'Acme', websiteUrl: 'https://acme.example' });
    const lead = (id: string, email: string) => ({
      id,
      workspace_id: workspaceId,
      created_at: Date.now(),
      session_id: null,
      path: '/contact',
      page_url: 'https://acme.example/contact',
      form: null,
      email,
      name: null,
      fields: '{}',
      referrer: null,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      source: 'direct' as const,
      engine: null,
    });
    await handle.db.insertInto('leads').values([lead('lead_a', 'ann@example.com'), lead('lead_b', 'ann@example.com'), lead('lead_c', 'bo@example.com')]).execute();
    await handle.close();

    const exported = await admin('export', '--workspace', workspaceId);
    expect(exported.code, exported.stderr).toBe(0);
    expect((JSON.parse(exported.stdout) as { leads: Array<{ leadId: string }> }).leads.map((l) => l.leadId)).toEqual(['lead_a', 'lead_b', 'lead_c']);
    const byEmail = await admin('remove', '--workspace', workspaceId, '--email', 'Ann@Example.com', '--json');
    expect(JSON.parse(byEmail.stdout)).toEqual({ removed: 2 });
    const byId = await admin('remove', '--workspace', workspaceId, '--lead', 'lead_c');
    expect(byId.stdout.trim()).toBe('removed 1 lead');
    const neither = await admin('remove', '--workspace', workspaceId);
    expect(neither.code).not.toBe(0);
    expect(neither.stderr).toContain('give exactly one of --lead and --email');
    expect(JSON.parse((await admin('export', '--workspace', workspaceId)).stdout)).toEqual({ workspaceId, leads: [] });
  });
});
