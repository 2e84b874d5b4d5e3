import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlerReports } from '../../packages/site/src/express.js';
import { reportCrawlerVisit, withCrawlerReports } from '../../packages/site/src/index.js';
import { ok, publish, writtenArticle } from '../publishing/support.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { closeServer } from '../support/localServers.js';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDEBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Calls of the reporting fetch, to tell "not reported" from "not arrived yet". */
function countingFetch() {
  const calls: string[] = [];
  const counted: typeof fetch = (input, init) => {
    calls.push(String(input));
    return fetch(input, init);
  };
  return { calls, fetch: counted };
}

let t: TestService;
let ws: TestWorkspace;
let secret: string;
let contentId: string;
beforeAll(async () => {
  t = await TestService.start({ outbound: { allowPrivateAddresses: true } });
  ws = await t.workspace();
  const data = await ok(t, ws.key, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: 'https://blog.acme.example/sightline', siteUrl: 'https://blog.acme.example' });
  secret = String(data.signingSecret);
  contentId = await writtenArticle(t, ws);
  await publish(t, ws, contentId);
});
afterAll(() => t.close());

const visits = () => t.db.selectFrom('crawler_visits').select(['path', 'crawler', 'reporter', 'article_id', 'user_agent']).where('workspace_id', '=', ws.workspaceId).orderBy('visited_at').execute();

/** Waits for the fire-and-forget reports to land: they are never awaited on the page's path. */
async function visitsReaching(count: number) {
  for (let tries = 0; tries < 100; tries++) {
    const rows = await visits();
    if (rows.length >= count) return rows;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return visits();
}

describe('crawlerReports (express)', () => {
  let page: Server;
  let origin: string;
  const counted = countingFetch();
  beforeAll(async () => {
    const app = express();
    app.use(crawlerReports({ sightlineUrl: t.baseUrl, secret, fetch: counted.fetch }));
    app.get('/blog/:slug', (req, res) => void res.send(`<h1>${req.params.slug}</h1>`));
    page = createServer(app);
    origin = await listen(page);
  });
  afterAll(() => closeServer(page));

  it('reports a GPTBot request to the running service, which counts it as the site\'s own report, matched to the article', async () => {
    const before = (await visits()).length;
    const response = await fetch(`${origin}/blog/how-to-pick-a-crm-for-dentists?utm_source=x`, { headers: { 'user-agent': GPTBOT } });
    expect(response.status).toBe(200);
    expect(counted.calls.at(-1)).toBe(new URL('/api/site/crawl', t.baseUrl).href);
    const rows = await visitsReaching(before + 1);
    expect(rows.at(-1)).toEqual({ path: '/blog/how-to-pick-a-crm-for-dentists', crawler: 'GPTBot', reporter: 'site_hook', article_id: contentId, user_agent: GPTBOT });
    const funnel = await ok(t, ws.key, 'GET', '/api/v1/overview/funnel', { days: '7' });
    expect(funnel.crawls).toMatchObject({ count: rows.length, source: 'site_hook' });
  });

  it('never reports a person\'s browser', async () => {
    const calls = counted.calls.length;
    const before = (await visits()).length;
    expect((await fetch(`${origin}/blog/how-to-pick-a-crm-for-dentists`, { headers: { 'user-agent': CHROME } })).status).toBe(200);
    expect((await fetch(`${origin}/blog/how-to-pick-a-crm-for-dentists`)).status).toBe(200);
    expect(counted.calls).toHaveLength(calls);
    expect(await visits()).toHaveLength(before);
  });
});

describe('reportCrawlerVisit', () => {
  it('sends the report the specification describes, as the site\'s own code (no x-sightline-plugin), under a path prefix too', async () => {
    const sent: Array<{ url: string; init: RequestInit | undefined }> = [];
    const fake: typeof fetch = async (input, init) => {
      sent.push({ url: String(input), init });
      return new Response('{"ok":true}');
    };
    await reportCrawlerVisit({ sightlineUrl: 'https://tools.acme.example/sightline/', secret: 'whsec_x', fetch: fake }, { userAgent: GPTBOT, path: '/blog/x' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('https://tools.acme.example/sightline/api/site/crawl');
    expect(sent[0]!.init).toMatchObject({ method: 'POST', headers: { 'x-service-key': 'whsec_x', 'content-type': 'application/json' } });
    expect(Object.keys(sent[0]!.init!.headers as Record<string, string>)).not.toContain('x-sightline-plugin');
    expect(JSON.parse(String(sent[0]!.init!.body))).toEqual({ user_agent: GPTBOT, path: '/blog/x' });
    expect(reportCrawlerVisit({ sightlineUrl: 'https://tools.acme.example', secret: 'whsec_x', fetch: fake }, { userAgent: CHROME, path: '/' })).toBeUndefined();
    expect(sent).toHaveLength(1);
  });
});

describe('a slow or failing Sightline', () => {
  let slow: Server;
  let slowUrl: string;
  let reportsTaken = 0;
  beforeAll(async () => {
    // Takes each report and answers it two seconds later.
    slow = createServer((_req, res) => {
      reportsTaken++;
      setTimeout(() => res.writeHead(200).end('{}'), 2000);
    });
    slowUrl = await listen(slow);
  });
  afterAll(() => closeServer(slow));

  /** A page behind crawlerReports pointed at the slow Sightline: the time its answer took, in ms. */
  async function pageTime(options: { timeoutMs: number; onError: (error: unknown) => void }): Promise<number> {
    const app = express();
    app.use(crawlerReports({ sightlineUrl: slowUrl, secret, ...options }));
    app.get('/', (_req, res) => void res.send('<h1>Home</h1>'));
    const page = createServer(app);
    const origin = await listen(page);
    try {
      const started = performance.now();
      await (await fetch(origin, { headers: { 'user-agent': GPTBOT } })).text();
      return performance.now() - started;
    } finally {
      await closeServer(page);
    }
  }

  it('does not delay the page: it answers while the report waits two seconds for Sightline', async () => {
    const errors: unknown[] = [];
    const taken = reportsTaken;
    expect(await pageTime({ timeoutMs: 5000, onError: (error) => errors.push(error) })).toBeLessThan(1000);
    await expect.poll(() => reportsTaken).toBe(taken + 1);
    expect(errors).toEqual([]);
  });

  it('abandons a report after timeoutMs and passes it to onError', async () => {
    const errors: unknown[] = [];
    expect(await pageTime({ timeoutMs: 300, onError: (error) => errors.push(error) })).toBeLessThan(1000);
    await expect.poll(() => errors.length, { timeout: 3000 }).toBe(1);
    expect((errors[0] as Error).name).toBe('TimeoutError');
  });

  it('passes a refused report (a wrong key) to onError and never fails the page', async () => {
    const errors: unknown[] = [];
    const handler = withCrawlerReports(() => new Response('<h1>Home</h1>'), { sightlineUrl: t.baseUrl, secret: 'whsec_wrong', onError: (error) => errors.push(error) });
    expect((await handler(new Request('https://blog.acme.example/', { headers: { 'user-agent': GPTBOT } }))).status).toBe(200);
    await expect.poll(() => errors.length).toBe(1);
    expect(String(errors[0])).toContain('Sightline answered 401');
  });
});

describe('withCrawlerReports (web-standard handlers)', () => {
  it('reports a ClaudeBot request to the service while the handler answers, and hands the report to waitUntil', async () => {
    const before = (await visits()).length;
    const pending: Array<Promise<void>> = [];
    const handler = withCrawlerReports((request: Request, _env: unknown) => new Response(`<h1>${new URL(request.url).pathname}</h1>`), {
      sightlineUrl: t.baseUrl,
      secret,
      waitUntil: (report) => pending.push(report),
    });
    const response = await handler(new Request('https://blog.acme.example/blog/how-to-pick-a-crm-for-dentists/', { headers: { 'user-agent': CLAUDEBOT } }), {});
    expect(response.status).toBe(200);
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    expect((await visits()).slice(before)).toEqual([{ path: '/blog/how-to-pick-a-crm-for-dentists/', crawler: 'ClaudeBot', reporter: 'site_hook', article_id: contentId, user_agent: CLAUDEBOT }]);

    await handler(new Request('https://blog.acme.example/', { headers: { 'user-agent': CHROME } }), {});
    expect(pending).toHaveLength(1);
  });
});
