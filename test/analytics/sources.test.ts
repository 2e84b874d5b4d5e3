import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { recordCrawlerVisit } from '../../src/crawlers/visits.js';
import { TestService, START_TIME } from '../support/harness.js';
import { collect } from './support.js';

const CLAUDEBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';

describe('get_analytics_sources and set_analytics_source', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start({ env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => t.close());

  it('show each source with its install state, and switch the crawler source only to one the setup qualifies for', async () => {
    t.clock.set(START_TIME);
    const ws = await t.workspace();
    const siteId = await siteIdOf(t.db, ws.workspaceId);
    const sources = async () => (await t.rest(ws.key, 'GET', '/api/v1/analytics/sources')).body.data as Record<string, { selected: string; sources: Array<Record<string, unknown>> }>;

    const fresh = await sources();
    expect(fresh.humanTraffic!.selected).toBe('own_counter');
    expect(fresh.humanTraffic!.sources[0]).toEqual({
      source: 'own_counter',
      qualifies: true,
      siteId,
      tag: `<script defer src="${t.baseUrl}/t.js" data-site="${siteId}"></script>`,
      lastReportAt: null,
      reportedLast24h: false,
    });
    expect(fresh.aiCrawlers!.selected).toBe('site_hook');
    expect(fresh.aiCrawlers!.sources.map((s) => [s.source, s.qualifies])).toEqual([
      ['site_hook', false],
      ['cms_plugin', false],
      ['cdn', false],
    ]);

    const refused = await t.rest(ws.key, 'POST', '/api/v1/analytics/sources', { dataType: 'aiCrawlers', source: 'cms_plugin' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('source: cms_plugin is not available for this workspace: it needs the CMS plugin to have reported at least once (it sends x-sightline-plugin with its crawler reports)');
    const cdn = await t.mcpTool(ws.key, 'set_analytics_source', { dataType: 'aiCrawlers', source: 'cdn' });
    expect(cdn.isError).toBe(true);
    expect(cdn.text).toContain('get_cdn_connect_url, then select_cdn_zone');
    expect((await t.rest(ws.key, 'POST', '/api/v1/analytics/sources', { dataType: 'humanTraffic', source: 'cdn' })).body.error).toBe('dataType: must be one of aiCrawlers');
    expect((await sources()).aiCrawlers!.selected).toBe('site_hook');

    // The loader reports, the plugin reports: both show, and the plugin becomes a source to choose.
    await collect(t.baseUrl, { s: siteId, t: 'pageview', u: 'https://acme.example/' }, { ip: '198.51.100.60' });
    await t.service.counterIngest.flush();
    await recordCrawlerVisit(t.db, t.clock, ws.workspaceId, { userAgent: CLAUDEBOT, path: '/', plugin: 'wordpress/1.4.2' });
    const reported = await sources();
    expect(reported.humanTraffic!.sources[0]).toMatchObject({ lastReportAt: new Date(START_TIME).toISOString(), reportedLast24h: true });
    expect(reported.aiCrawlers!.sources[1]).toEqual({
      source: 'cms_plugin',
      qualifies: true,
      pluginVersion: 'wordpress/1.4.2',
      lastReportAt: new Date(START_TIME).toISOString(),
      reportedLast24h: true,
    });
    const switched = await t.rest(ws.key, 'POST', '/api/v1/analytics/sources', { dataType: 'aiCrawlers', source: 'cms_plugin' });
    expect(switched.body.data).toEqual({ dataType: 'aiCrawlers', source: 'cms_plugin', previous: 'site_hook', changed: true, backfillJobId: null });
    t.clock.advance(25 * 3_600_000);
    const later = await sources();
    expect(later.aiCrawlers!.selected).toBe('cms_plugin');
    expect(later.humanTraffic!.sources[0]).toMatchObject({ reportedLast24h: false });
    // Another workspace keeps its own settings.
    const other = await t.workspace();
    expect(((await t.rest(other.key, 'GET', '/api/v1/analytics/sources')).body.data as { aiCrawlers: { selected: string } }).aiCrawlers.selected).toBe('site_hook');
  });
});
