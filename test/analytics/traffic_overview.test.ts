import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { connectSiteAnalytics } from '../../src/analytics/providers/connections.js';
import { recordCrawlerVisit } from '../../src/crawlers/visits.js';
import { START_TIME } from '../support/harness.js';
import { json } from '../integrations/fakes/analyticsServer.js';
import { SiteAnalyticsSetup } from './siteAnalyticsSupport.js';
import { CHROME_UA, collect } from './support.js';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDEBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';

describe('get_traffic_overview', () => {
  let s: SiteAnalyticsSetup;
  beforeAll(async () => {
    s = await SiteAnalyticsSetup.start();
  });
  afterAll(() => s.close());
  beforeEach(() => {
    s.reset();
    s.t.clock.set(START_TIME);
  });

  it('answers null on both surfaces until the Analytics screen is activated', async () => {
    const ws = await s.t.workspace();
    const rest = await s.t.rest(ws.key, 'GET', '/api/v1/analytics/traffic?days=7');
    expect([rest.status, rest.body]).toEqual([200, { data: null }]);
    const mcp = await s.t.mcpTool(ws.key, 'get_traffic_overview', { days: '7' });
    expect([mcp.isError, mcp.text]).toEqual([false, 'null']);
    // Bad input is still refused while the screen is off.
    expect((await s.t.rest(ws.key, 'GET', '/api/v1/analytics/traffic?days=14')).body.error).toBe('days: must be one of 7, 30, 90');
    await s.t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'analytics' });
    expect((await s.t.rest(ws.key, 'GET', '/api/v1/analytics/traffic?days=7')).body.data).toMatchObject({ scope: 'ours', site: null, ours: { pageViews: 0 } });
  });

  it('scope=ours: the own counter, and the AI crawlers from the selected source only', async () => {
    const ws = await s.t.workspace();
    await s.t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'analytics' });
    const site = await siteIdOf(s.t.db, ws.workspaceId);
    await collect(s.t.baseUrl, { s: site, t: 'pageview', u: 'https://acme.example/blog/a', r: 'https://www.perplexity.ai/' }, { ip: '198.51.100.40' });
    await s.t.service.counterIngest.flush();
    for (const [userAgent, path] of [
      [GPTBOT, '/blog/a'],
      [GPTBOT, '/blog/a'],
      [CLAUDEBOT, '/pricing'],
    ] as const) {
      await recordCrawlerVisit(s.t.db, s.t.clock, ws.workspaceId, { userAgent, path });
    }
    await recordCrawlerVisit(s.t.db, s.t.clock, ws.workspaceId, { userAgent: CLAUDEBOT, path: '/plugin-only', plugin: 'wordpress/1.4.2' });
    // Older than the window: not counted.
    s.t.clock.set(START_TIME - 8 * 86_400_000);
    await recordCrawlerVisit(s.t.db, s.t.clock, ws.workspaceId, { userAgent: GPTBOT, path: '/old' });
    s.t.clock.set(START_TIME);

    const answer = await s.t.mcpTool(ws.key, 'get_traffic_overview', { days: '7' });
    expect(answer.structuredContent).toMatchObject({
      window: { days: 7, from: '2026-11-15', to: '2026-11-21' },
      ours: { pageViews: 1, uniqueVisitors: 1, sessions: 1, bounceRate: 1, sessionsBySource: [{ source: 'ai', engine: 'perplexity', sessions: 1 }] },
      aiCrawlers: {
        source: 'site_hook',
        total: 3,
        byCrawler: [
          { crawler: 'GPTBot', operator: 'OpenAI', visits: 2 },
          { crawler: 'ClaudeBot', operator: 'Anthropic', visits: 1 },
        ],
        byPage: [
          { path: '/blog/a', visits: 2 },
          { path: '/pricing', visits: 1 },
        ],
      },
    });
    await s.t.db.updateTable('analytics_sites').set({ crawler_source: 'cms_plugin' }).where('workspace_id', '=', ws.workspaceId).execute();
    const plugin = await s.t.rest(ws.key, 'GET', '/api/v1/analytics/traffic?days=7');
    expect((plugin.body.data as { aiCrawlers: unknown }).aiCrawlers).toMatchObject({ source: 'cms_plugin', total: 1, byPage: [{ path: '/plugin-only', visits: 1 }] });
  });

  it('scope=site: the connected provider, against the same number of days before; errors name what to do', async () => {
    const ws = await s.t.workspace();
    await s.t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'analytics' });
    const missing = await s.t.rest(ws.key, 'GET', '/api/v1/analytics/traffic?scope=site&days=7');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('scope: site: ');
    expect(missing.body.error).toContain('connect Plausible, Umami or Google Analytics on the Settings page');

    await connectSiteAnalytics(s.t.db, s.t.clock, s.services, ws.workspaceId, { provider: 'plausible', baseUrl: s.plausible.origin, siteId: s.plausible.siteId, apiKey: s.plausible.apiKey });
    const answer = await s.t.rest(ws.key, 'GET', '/api/v1/analytics/traffic?scope=site&days=7');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      scope: 'site',
      ours: null,
      site: {
        provider: 'plausible',
        visits: 16,
        previousVisits: 0,
        visitsFromSearch: 3,
        visitsFromAi: 7,
        visitsFromAiByEngine: [
          { engine: 'chatgpt', visits: 2 },
          { engine: 'claude', visits: 1 },
          { engine: 'copilot', visits: 1 },
          { engine: 'deepseek', visits: 1 },
          { engine: 'gemini', visits: 1 },
          { engine: 'perplexity', visits: 1 },
        ],
      },
    });
    expect((answer.body.data as { site: { daily: unknown[] } }).site.daily).toHaveLength(7);

    // Plausible's quota answer becomes a 429 with its wait; the failure is kept on the connection until a read succeeds.
    s.plausible.fail(json(429, { error: 'Too many API requests' }), json(429, { error: 'Too many API requests' }));
    const limited = await s.t.rest(ws.key, 'GET', '/api/v1/analytics/traffic?scope=site&days=30');
    expect(limited.status).toBe(429);
    expect((await s.connectionRow(ws.workspaceId))!.last_error).not.toBeNull();
    expect((await s.t.rest(ws.key, 'GET', '/api/v1/analytics/traffic?scope=site&days=30')).status).toBe(200);
    expect((await s.connectionRow(ws.workspaceId))!.last_error).toBeNull();
  });

  it('get_funnel: crawls, AI-referred visits and AI-first-touch leads, from the counter or else the connected provider', async () => {
    const ws = await s.t.workspace();
    const site = await siteIdOf(s.t.db, ws.workspaceId);
    // This service does not trust X-Forwarded-For: visitors differ by their user agent here.
    const send = (body: Record<string, unknown>, visitor: string) => collect(s.t.baseUrl, { s: site, ...body }, { ua: `${CHROME_UA} visitor/${visitor}` });
    await send({ t: 'pageview', u: 'https://acme.example/a', r: 'https://chatgpt.com/' }, '198.51.100.70');
    await send({ t: 'pageview', u: 'https://acme.example/b', r: 'https://www.google.com/' }, '198.51.100.71');
    await send({ t: 'pageview', u: 'https://acme.example/c?utm_source=perplexity.ai' }, '198.51.100.72');
    await s.t.service.counterIngest.flush();
    await send({ t: 'lead', u: 'https://acme.example/a', f: { email: 'ai@example.com' } }, '198.51.100.70');
    await send({ t: 'lead', u: 'https://acme.example/b', f: { email: 'search@example.com' } }, '198.51.100.71');
    await s.t.service.counterIngest.flush();
    await recordCrawlerVisit(s.t.db, s.t.clock, ws.workspaceId, { userAgent: GPTBOT, path: '/a' });
    await recordCrawlerVisit(s.t.db, s.t.clock, ws.workspaceId, { userAgent: CLAUDEBOT, path: '/b' });

    const funnel = await s.t.rest(ws.key, 'GET', '/api/v1/overview/funnel?days=7');
    expect(funnel.status).toBe(200);
    expect(funnel.body.data).toMatchObject({
      crawls: { count: 2, source: 'site_hook' },
      aiVisits: { count: 2, source: 'own_counter', byEngine: [{ engine: 'chatgpt', visits: 1 }, { engine: 'perplexity', visits: 1 }] },
      aiLeads: { count: 1, byEngine: [{ engine: 'chatgpt', leads: 1 }] },
      leadsPerAiVisit: 0.5,
    });

    // No tracking tag on the site but Plausible connected: AI visits come from Plausible.
    const other = await s.t.workspace();
    await connectSiteAnalytics(s.t.db, s.t.clock, s.services, other.workspaceId, { provider: 'plausible', baseUrl: s.plausible.origin, siteId: s.plausible.siteId, apiKey: s.plausible.apiKey });
    const fromProvider = await s.t.mcpTool(other.key, 'get_funnel', { days: '7' });
    expect(fromProvider.structuredContent).toMatchObject({ crawls: { count: 0 }, aiVisits: { count: 7, source: 'analytics_provider' }, aiLeads: { count: 0 }, leadsPerAiVisit: 0 });
  });
});
