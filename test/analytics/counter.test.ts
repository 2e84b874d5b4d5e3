import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterTraffic } from '../../src/analytics/counter/figures.js';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { forgetOldVisitors } from '../../src/analytics/counter/visitors.js';
import { metricWindow } from '../../src/visibility/metrics/window.js';
import { TestService, START_TIME, type TestWorkspace } from '../support/harness.js';
import { collect } from './support.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('the own counter: loader, collect endpoint and figures', () => {
  let t: TestService;
  let ws: TestWorkspace;
  let site: string;

  beforeAll(async () => {
    t = await TestService.start({ env: { TRUST_PROXY: 'loopback', COUNTER_ADDRESS_EVENTS_PER_MINUTE: '20' } });
    ws = await t.workspace({ site: 'https://www.acme.example' });
    site = await siteIdOf(t.db, ws.workspaceId);
  });
  afterAll(() => t.close());

  const send = (body: unknown, options?: Parameters<typeof collect>[2]) => collect(t.baseUrl, body, options);
  const page = (path: string) => `https://acme.example${path}`;
  const flush = () => t.service.counterIngest.flush();

  it('serves the loader, gzipped when asked, well under 2 KB', async () => {
    const response = await fetch(`${t.baseUrl}/t.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const text = await response.text();
    expect(text).toContain('/api/site/collect');
    expect(gzipSync(text, { level: 9 }).length).toBeLessThan(2048);
    const plain = await fetch(`${t.baseUrl}/t.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(text);
  });

  it('counts the fixed data set exactly as the definitions say', async () => {
    t.clock.set(START_TIME);
    // Visitor A arrives from ChatGPT, reads two pages, stays 20 s on the first, and sends a form.
    expect((await send({ s: site, t: 'pageview', u: page('/blog/a/'), r: 'https://chatgpt.com/' }, { ip: '198.51.100.1' })).status).toBe(204);
    // Visitor B arrives tagged from Perplexity and leaves after 5 s: a bounce.
    await send({ s: site, t: 'pageview', u: page('/?utm_source=perplexity.ai&utm_medium=referral') }, { ip: '198.51.100.2', ua: FIREFOX });
    // A crawler running the script is dropped without a word.
    expect((await send({ s: site, t: 'pageview', u: page('/') }, { ip: '198.51.100.3', ua: GOOGLEBOT })).status).toBe(204);
    await flush();
    t.clock.advance(5000);
    await send({ s: site, t: 'engagement', u: page('/'), e: 5000, v: 1 }, { ip: '198.51.100.2', ua: FIREFOX });
    t.clock.advance(MINUTE);
    await send({ s: site, t: 'pageview', u: page('/pricing'), r: page('/blog/a/') }, { ip: '198.51.100.1' });
    await send({ s: site, t: 'engagement', u: page('/blog/a/'), e: 20_000, v: 1 }, { ip: '198.51.100.1' });
    await flush();
    t.clock.advance(MINUTE);
    const lead = await send(
      { s: site, t: 'lead', u: page('/pricing?email=x'), i: 'demo', f: { email: 'Ann@Example.com', name: 'Ann', password: 'hunter2', message: 'Call me' } },
      { ip: '198.51.100.1' },
    );
    expect(lead.status).toBe(204);
    expect(lead.headers.get('access-control-allow-origin')).toBe('https://acme.example');
    await flush();
    // An hour later A comes back from Google: a new session (30 minutes without activity end one).
    t.clock.advance(60 * MINUTE);
    await send({ s: site, t: 'pageview', u: page('/blog/a'), r: 'https://www.google.com/' }, { ip: '198.51.100.1' });
    await flush();
    // The next day B is a new visitor: the salt changed.
    t.clock.advance(DAY);
    await send({ s: site, t: 'pageview', u: page('/') }, { ip: '198.51.100.2', ua: FIREFOX });
    await flush();

    const traffic = await counterTraffic(t.db, ws.workspaceId, metricWindow('7', t.clock.now()));
    expect(traffic).toMatchObject({ pageViews: 5, uniqueVisitors: 3, sessions: 4, bounceRate: 0.75, averageTimeOnPageSeconds: 12.5 });
    expect(traffic.previousPeriod).toMatchObject({ pageViews: 0, uniqueVisitors: 0, sessions: 0, bounceRate: null, averageTimeOnPageSeconds: null });
    expect(traffic.sessionsBySource).toEqual([
      { source: 'ai', engine: 'chatgpt', sessions: 1 },
      { source: 'ai', engine: 'perplexity', sessions: 1 },
      { source: 'direct', engine: null, sessions: 1 },
      { source: 'search', engine: null, sessions: 1 },
    ]);
    expect(traffic.topPages).toEqual([
      { path: '/', pageViews: 2 },
      { path: '/blog/a', pageViews: 2 },
      { path: '/pricing', pageViews: 1 },
    ]);
    expect(traffic.daily.slice(-2)).toEqual([
      { date: '2026-11-21', pageViews: 4, visitors: 2, sessions: 3 },
      { date: '2026-11-22', pageViews: 1, visitors: 1, sessions: 1 },
    ]);
    expect(traffic.definitions.uniqueVisitors).toMatch(/^Sum of daily unique visitors/);

    const entries = await t.db.selectFrom('counter_page_days').select(['path', 'ai_entries']).where('workspace_id', '=', ws.workspaceId).where('ai_entries', '>', 0).orderBy('path').execute();
    expect(entries).toEqual([
      { path: '/', ai_entries: 1 },
      { path: '/blog/a', ai_entries: 1 },
    ]);
    const referrers = await t.db.selectFrom('counter_referrers').select(['host', 'sessions', 'first_seen_at']).where('workspace_id', '=', ws.workspaceId).orderBy('host').execute();
    expect(referrers.map((r) => [r.host, r.sessions, Number(r.first_seen_at)])).toEqual([
      ['chatgpt.com', 1, START_TIME],
      ['google.com', 1, START_TIME + 5000 + 2 * MINUTE + 60 * MINUTE],
    ]);
    const leads = await t.db.selectFrom('leads').selectAll().where('workspace_id', '=', ws.workspaceId).execute();
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ email: 'ann@example.com', name: 'Ann', form: 'demo', path: '/pricing', page_url: 'https://acme.example/pricing', source: 'ai', engine: 'chatgpt', referrer: 'chatgpt.com' });
    expect(JSON.parse(leads[0]!.fields)).toEqual({ message: 'Call me' });
    const seen = await t.db.selectFrom('analytics_sites').select('loader_seen_at').where('workspace_id', '=', ws.workspaceId).executeTakeFirstOrThrow();
    expect(Number(seen.loader_seen_at)).toBe(t.clock.now());
  });

  it('keeps no salt or visitor hash past the day after its own', async () => {
    await forgetOldVisitors(t.db, t.clock.now() + 2 * DAY);
    expect(await t.db.selectFrom('counter_salts').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('counter_visitors').selectAll().execute()).toEqual([]);
    // Sessions keep no visitor hash at all.
    const columns = Object.keys((await t.db.selectFrom('counter_sessions').selectAll().executeTakeFirstOrThrow()) as object);
    expect(columns).not.toContain('visitor');
  });

  it('refuses bad input, naming the field and the rule, and stores nothing', async () => {
    const before = await t.db.selectFrom('counter_days').selectAll().where('workspace_id', '=', ws.workspaceId).execute();
    const refusals: Array<[unknown, number, string, Parameters<typeof send>[1]?]> = [
      [{ s: site, t: 'click', u: page('/') }, 400, 't: must be one of'],
      [{ s: site, t: 'pageview', u: 'not a url' }, 400, 'u: must be an absolute http(s) URL'],
      [{ s: site, t: 'pageview', u: 'https://elsewhere.example/' }, 400, 'u: must be a page of acme.example'],
      [{ s: site, t: 'engagement', u: page('/'), e: -1, v: 1 }, 400, 'e: '],
      [{ s: site, t: 'pageview', u: page('/'), extra: 1 }, 400, 'extra: is not a field'],
      [{ s: 'site_unknown', t: 'pageview', u: page('/') }, 404, 's: no site has this id'],
      [{ s: site, t: 'pageview', u: page('/') }, 403, 'origin: only pages of acme.example', { origin: 'https://evil.example' }],
      [{ s: site, t: 'pageview', u: page('/') }, 403, 'origin:', { origin: null }],
    ];
    for (const [body, status, error, options] of refusals) {
      const answer = await send(body, { ip: '192.0.2.50', ...options });
      expect(answer.status, error).toBe(status);
      expect(JSON.parse(answer.body).error).toContain(error);
    }
    const notJson = await send(undefined, { ip: '192.0.2.51', raw: '{"s":' });
    expect([notJson.status, JSON.parse(notJson.body).error]).toEqual([400, 'body: is not valid JSON']);
    const large = await send(undefined, { ip: '192.0.2.51', raw: JSON.stringify({ s: site, t: 'pageview', u: page('/'), r: 'x'.repeat(9000) }) });
    expect(large.status).toBe(413);
    await flush();
    expect(await t.db.selectFrom('counter_days').selectAll().where('workspace_id', '=', ws.workspaceId).execute()).toEqual(before);
  });

  it('limits events per client address from the shared limiter store', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await send({ s: site, t: 'pageview', u: page('/limited') }, { ip: '192.0.2.99' })).status);
    expect(statuses.slice(0, 20).every((status) => status === 204)).toBe(true);
    expect(statuses[20]).toBe(429);
    await flush();
  });
});
