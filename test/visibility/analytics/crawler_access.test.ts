import type { Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AI_CRAWLERS } from '../../../src/crawlers/classify.js';
import type { crawlerAccessReport } from '../../../tools/analytics/outputs.js';
import { TestService, type TestWorkspace } from '../../support/harness.js';
import { closeServer, startHttpsServer } from '../../support/localServers.js';

type CrawlerAccessReport = z.output<typeof crawlerAccessReport>;

interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/** The customer's site over https (the test certificate): robots.txt as each test sets it, and a home page that turns some crawlers away. */
class Site {
  robots: Reply = { status: 404 };
  readonly seen: Array<{ path: string; userAgent: string }> = [];
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<Site> {
    let site: Site | undefined;
    const { server, port } = await startHttpsServer((req, res) => {
      const userAgent = req.headers['user-agent'] ?? '';
      site!.seen.push({ path: req.url ?? '', userAgent });
      const reply = site!.reply(req.url ?? '', userAgent);
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.body ?? '');
    });
    site = new Site(server, `https://localhost:${port}`);
    return site;
  }

  private reply(path: string, userAgent: string): Reply {
    if (path === '/robots.txt') return this.robots;
    if (path === '/robots-moved.txt') return { status: 200, body: 'User-agent: *\nDisallow: /\n' };
    // A firewall rule against one crawler; another is sent to a localised home page.
    if (/Bytespider/.test(userAgent)) return { status: 403, body: 'forbidden' };
    if (path === '/' && /PerplexityBot/.test(userAgent)) return { status: 301, headers: { location: '/en' } };
    if (path === '/' || path === '/en') return { status: 200, body: '<html>home</html>' };
    return { status: 404 };
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

describe('get_crawler_access', () => {
  let t: TestService;
  let site: Site;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await TestService.start({ outbound: { allowPrivateAddresses: true } });
    site = await Site.start();
    ws = await t.workspace();
    // The website is fixed at sign-up; the test points it at the local site.
    await t.db.updateTable('workspaces').set({ website_url: site.origin }).where('id', '=', ws.workspaceId).execute();
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  const probe = async () => {
    const answer = await t.rest(ws.key, 'GET', '/api/v1/crawler-access');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const data = answer.body.data as CrawlerAccessReport;
    return { ...data, crawler: (token: string) => data.crawlers.find((c) => c.token === token)! };
  };

  it('applies robots.txt per crawler by RFC 9309 (its own group, else *; longest match; allow on a tie) and fetches the home page as each crawler', async () => {
    site.robots = {
      status: 200,
      body: [
        'User-agent: GPTBot',
        'Disallow: /',
        '',
        '# The home page only: the longer Allow wins over Disallow: /',
        'User-agent: ClaudeBot',
        'Disallow: /',
        'Allow: /$',
        '',
        'User-agent: CCBot',
        'Allow: /',
        'Disallow: /',
        '',
        'User-agent: *',
        'Disallow: /admin',
      ].join('\n'),
    };
    site.seen.length = 0;
    const data = await probe();
    expect(data.robots).toEqual({ url: `${site.origin}/robots.txt`, status: 'found', httpStatus: 200, error: null });
    expect(data.crawler('GPTBot')).toEqual({
      token: 'GPTBot',
      operator: 'OpenAI',
      category: 'training',
      userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.0)',
      robotsAllowed: false,
      homeStatus: 200,
      homeError: null,
      reachable: true,
    });
    expect(data.crawler('ClaudeBot')).toMatchObject({ robotsAllowed: true, reachable: true });
    // Same length: allow wins.
    expect(data.crawler('CCBot').robotsAllowed).toBe(true);
    // No group of its own: the * group, which leaves the home page open.
    expect(data.crawler('OAI-SearchBot')).toMatchObject({ category: 'search_index', robotsAllowed: true });
    expect(data.crawler('Bytespider')).toMatchObject({ robotsAllowed: true, homeStatus: 403, reachable: false });
    // The redirect is followed, as crawlers do.
    expect(data.crawler('PerplexityBot')).toMatchObject({ homeStatus: 200, reachable: true });

    // One probe per token (ai.robots.txt lists a few twice in other case), each with its crawler's user agent.
    const tokens = new Set(AI_CRAWLERS.map((c) => c.crawler.toLowerCase()));
    expect(data.crawlers).toHaveLength(tokens.size);
    expect(data.summary).toMatchObject({ crawlers: tokens.size, robotsAllowed: tokens.size - 1, blockedByServer: 1, reachable: tokens.size - 1 });
    const homeFetches = site.seen.filter((s) => s.path === '/');
    expect(homeFetches).toHaveLength(tokens.size);
    expect(homeFetches.some((s) => s.userAgent === 'Mozilla/5.0 (compatible; ClaudeBot/1.0)')).toBe(true);
  });

  it('allows everything when robots.txt is missing (4xx) and disallows everything when it answers 5xx', async () => {
    site.robots = { status: 404 };
    const missing = await probe();
    expect(missing.robots).toMatchObject({ status: 'unavailable', httpStatus: 404 });
    expect(missing.crawlers.every((c) => c.robotsAllowed)).toBe(true);

    site.robots = { status: 503 };
    const down = await probe();
    expect(down.robots).toMatchObject({ status: 'unreachable', httpStatus: 503, error: 'answered 503' });
    expect(down.crawlers.some((c) => c.robotsAllowed)).toBe(false);
    // robots.txt aside, the pages still answer: the two are reported apart.
    expect(down.crawler('GPTBot').reachable).toBe(true);
  });

  it('follows a redirected robots.txt and applies it to the site it was asked for', async () => {
    site.robots = { status: 301, headers: { location: '/robots-moved.txt' } };
    const data = await probe();
    expect(data.robots).toMatchObject({ status: 'found', httpStatus: 200 });
    expect(data.crawlers.some((c) => c.robotsAllowed)).toBe(false);
  });

  it('reports a site that cannot be reached without failing the call', async () => {
    const other = await t.workspace();
    await t.db.updateTable('workspaces').set({ website_url: 'https://127.0.0.1:1' }).where('id', '=', other.workspaceId).execute();
    const answer = await t.rest(other.key, 'GET', '/api/v1/crawler-access');
    expect(answer.status).toBe(200);
    const data = answer.body.data as CrawlerAccessReport;
    expect(data.robots).toMatchObject({ status: 'unreachable', httpStatus: null, error: expect.any(String) });
    expect(data.crawlers[0]).toMatchObject({ robotsAllowed: false, homeStatus: null, homeError: expect.any(String), reachable: false });
  });
});

describe('get_crawler_access on the public internet rules', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('never requests a private address', async () => {
    const ws = await t.workspace();
    await t.db.updateTable('workspaces').set({ website_url: 'https://127.0.0.1:9' }).where('id', '=', ws.workspaceId).execute();
    const data = (await t.rest(ws.key, 'GET', '/api/v1/crawler-access')).body.data as { robots: { error: string }; crawlers: Array<{ homeError: string }> };
    expect(data.robots.error).toContain('is not a public address');
    expect(data.crawlers[0]!.homeError).toContain('is not a public address');
  });
});
