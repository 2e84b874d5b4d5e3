import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { recordPlacedLink } from '../../src/backlinks/knownLinks.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { recordEngineAnswer } from '../../src/visibility/checks/record.js';
import { insertCheckRun } from '../../src/visibility/checks/runs.js';
import { normaliseCitations, type EngineName } from '../../src/visibility/engines/engine.js';
import { TestService, START_TIME, type TestWorkspace } from '../support/harness.js';
import { addQuery } from '../visibility/checks/support.js';
import { collect } from './support.js';

const DAY = 86_400_000;
/** "Today" in these tests: the 30-day window is TODAY-29 days to TODAY, the one before it the 30 days before. */
const TODAY = START_TIME + 60 * DAY;

describe('get_reports_summary and get_reports_wins', () => {
  let t: TestService;
  let ws: TestWorkspace;
  let answerInWindow: string;

  beforeAll(async () => {
    t = await TestService.start({ env: { TRUST_PROXY: 'loopback' } });
    ws = await t.workspace();
    const site = await siteIdOf(t.db, ws.workspaceId);
    let visitor = 0;
    const visit = async (at: number, path: string, referrer: string | undefined, lead?: string) => {
      t.clock.set(at);
      const ip = `198.51.100.${++visitor}`;
      await collect(t.baseUrl, { s: site, t: 'pageview', u: `https://acme.example${path}`, ...(referrer === undefined ? {} : { r: referrer }) }, { ip });
      await t.service.counterIngest.flush();
      if (lead !== undefined) {
        await collect(t.baseUrl, { s: site, t: 'lead', u: `https://acme.example${path}`, f: { email: lead } }, { ip });
        await t.service.counterIngest.flush();
      }
    };
    // Before the window: /a once from ChatGPT.
    await visit(TODAY - 40 * DAY, '/a', 'https://chatgpt.com/');
    // In the window: /a twice from ChatGPT (one leaves a lead), /b once from Perplexity, /c from Google with a lead.
    await visit(TODAY - 10 * DAY, '/a', 'https://chatgpt.com/', 'one@example.com');
    await visit(TODAY - 5 * DAY, '/a', 'https://chatgpt.com/');
    await visit(TODAY - 3 * DAY, '/b', 'https://www.perplexity.ai/search/x');
    await visit(TODAY - 2 * DAY, '/c', 'https://www.google.com/', 'two@example.com');

    // Articles: one published before the window, two in it.
    for (const [title, at] of [
      ['Before', TODAY - 35 * DAY],
      ['First', TODAY - 20 * DAY],
      ['Second', TODAY - 1 * DAY],
    ] as const) {
      t.clock.set(at);
      const id = await insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: title, title, scheduledAt: at, language: 'en' });
      await t.db.updateTable('articles').set({ status: 'published', published_at: at, url: `https://acme.example/${title.toLowerCase()}` }).where('id', '=', id).execute();
    }

    // Answers: "crm" is first cited by ChatGPT in the window; "erp" was cited before it too; Perplexity only mentions "crm".
    t.clock.set(TODAY - 50 * DAY);
    const crm = await addQuery(t, ws, 'crm');
    const erp = await addQuery(t, ws, 'erp');
    const answer = async (at: number, queryId: string, engine: EngineName, cited: boolean) => {
      t.clock.set(at);
      const runId = await insertCheckRun(t.db, t.clock, { workspaceId: ws.workspaceId, trigger: 'schedule', engines: [engine], runsPerQuery: 1, planned: 1 });
      const result = await recordEngineAnswer(t.db, t.clock, {
        workspaceId: ws.workspaceId,
        runId,
        queryId,
        engine,
        runIndex: 1,
        answer: cited
          ? { text: 'See Acme Analytics.', citations: normaliseCitations([{ url: 'https://acme.example/a' }]), model: 'm', latencyMs: 1 }
          : { text: 'Acme Analytics is one option.', citations: [], model: 'm', latencyMs: 1 },
        error: null,
      });
      return result.answerId;
    };
    await answer(TODAY - 45 * DAY, erp, 'chatgpt', true);
    await answer(TODAY - 44 * DAY, crm, 'chatgpt', false);
    answerInWindow = await answer(TODAY - 4 * DAY, crm, 'chatgpt', true);
    await answer(TODAY - 4 * DAY + 60_000, crm, 'chatgpt', true);
    await answer(TODAY - 3 * DAY, erp, 'chatgpt', true);
    await answer(TODAY - 3 * DAY, crm, 'perplexity', false);
    t.clock.set(TODAY);
  });
  afterAll(() => t.close());

  it('answer null on both surfaces until the Reports screen is activated', async () => {
    for (const path of ['/api/v1/reports/summary', '/api/v1/reports/wins']) {
      expect((await t.rest(ws.key, 'GET', path)).body).toEqual({ data: null });
    }
    expect((await t.mcpTool(ws.key, 'get_reports_wins', {})).text).toBe('null');
    // Activating Analytics does not open Reports.
    await t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'analytics' });
    expect((await t.rest(ws.key, 'GET', '/api/v1/reports/summary')).body).toEqual({ data: null });
    await t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'reports' });
  });

  it('summarise the period against the one before, with a narrative made of those figures only', async () => {
    const answer = await t.rest(ws.key, 'GET', '/api/v1/reports/summary?days=30');
    expect(answer.status).toBe(200);
    const data = answer.body.data as Record<string, Record<string, unknown>> & { narrative: string };
    expect(data.window).toMatchObject({ days: 30, to: new Date(TODAY).toISOString().slice(0, 10) });
    expect(data.articlesPublished).toEqual({ count: 2, previous: 1 });
    expect(data.aiTraffic).toMatchObject({ visits: 3, previous: 1, source: 'own_counter' });
    expect(data.leads).toEqual({ total: 2, fromAi: 1, previousTotal: 0, previousFromAi: 0 });
    expect(data.crawls).toMatchObject({ count: 0, previous: 0, source: 'site_hook' });
    expect(data.backlinksGained).toMatchObject({ count: null, previous: null });
    expect(String(data.backlinksGained!.reason)).toContain('BACKLINKS_*');
    expect(data.visibility!.score).not.toBeNull();
    expect(data.shareOfVoice).toMatchObject({ share: 1 });
    expect(data.narrative).toContain('2 articles published (+1).');
    expect(data.narrative).toContain('3 visits from AI answers (+2), 0 AI-crawler visits.');
    expect(data.narrative).toContain('2 leads, 1 from AI answers.');
    // Every number in the narrative is one of the figures.
    const figures = JSON.stringify({ ...data, narrative: undefined });
    for (const number of data.narrative.match(/\d+(\.\d+)?/g) ?? []) {
      const asShare = String(Number(number) / 100);
      expect(figures.includes(number) || figures.includes(asShare) || ['+1', '+2'].some((delta) => delta.endsWith(number)), number).toBe(true);
    }
  });

  it('count the backlinks first seen in the window and in the one before, in figures and words', async () => {
    const link = (n: number, daysAgo: number) => ({
      workspaceId: ws.workspaceId,
      linkingUrl: `https://links-${n}.example/post`,
      targetUrl: 'https://acme.example/',
      anchorText: 'Acme',
      dofollow: true,
      source: 'managed' as const,
      at: TODAY - daysAgo * DAY,
    });
    // Two in the window, one in the window before, one older than both.
    for (const { at, ...placed } of [link(1, 2), link(2, 20), link(3, 45), link(4, 80)]) {
      t.clock.set(at);
      await recordPlacedLink(t.db, t.clock, placed);
    }
    t.clock.set(TODAY);
    const data = (await t.rest(ws.key, 'GET', '/api/v1/reports/summary?days=30')).body.data as { backlinksGained: unknown; narrative: string };
    expect(data.backlinksGained).toEqual({ count: 2, previous: 1, reason: null });
    expect(data.narrative).toContain('2 backlinks gained (+1).');
    await t.db.deleteFrom('backlinks').where('workspace_id', '=', ws.workspaceId).execute();
  });

  it('list the wins with the rows behind them', async () => {
    const answer = await t.mcpTool(ws.key, 'get_reports_wins', { days: '30' });
    expect(answer.structuredContent).toMatchObject({
      newlyCited: [{ query: 'crm', engine: 'chatgpt', firstCitedAt: new Date(TODAY - 4 * DAY).toISOString(), answerId: answerInWindow }],
      aiTrafficGrowth: [
        { path: '/a', aiVisits: 2, previousAiVisits: 1, growth: 1 },
        { path: '/b', aiVisits: 1, previousAiVisits: 0, growth: 1 },
      ],
      newReferrers: [
        { host: 'google.com', sessions: 1 },
        { host: 'perplexity.ai', sessions: 1 },
      ],
    });
    // The citing answer is the one list_citations shows.
    const citations = await t.rest(ws.key, 'GET', '/api/v1/citations?limit=50');
    expect(JSON.stringify(citations.body.data)).toContain(answerInWindow);
    // Another workspace has no wins of these.
    const other = await t.workspace();
    await t.rest(other.key, 'POST', '/api/v1/analytics/activate', { screen: 'reports' });
    expect((await t.rest(other.key, 'GET', '/api/v1/reports/wins')).body.data).toMatchObject({ newlyCited: [], aiTrafficGrowth: [], newReferrers: [] });
  });
});
