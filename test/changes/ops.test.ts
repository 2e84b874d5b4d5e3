import type { Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueCrawlerReach } from '../../src/changes/crawlerReach.js';
import { crawlerVisitsDetector, visitsFallPValue } from '../../src/changes/detectors/crawlerVisits.js';
import { recordChanges } from '../../src/changes/record.js';
import { loadRules } from '../../src/changes/rules.js';
import { insertQuery } from '../../src/content/queries.js';
import { newId } from '../../src/ids.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import type { TestService, TestWorkspace } from '../support/harness.js';
import type { Receiver } from '../publishing/receiver.js';
import { destinationAt, publish, startWithReceiver, stopWithReceiver, writtenArticle } from '../publishing/support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The customer's site over https: robots.txt as each test sets it; the home page answers every crawler but one the firewall turns away. */
class Site {
  robots = 'User-agent: *\nAllow: /\n';
  firewalled: RegExp | null = null;
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<Site> {
    let site: Site | undefined;
    const { server, port } = await startHttpsServer((req, res) => {
      const userAgent = req.headers['user-agent'] ?? '';
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(site!.robots);
      if (site!.firewalled?.test(userAgent) === true) return void res.writeHead(403).end('forbidden');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>home</html>');
    });
    site = new Site(server, `https://localhost:${port}`);
    return site;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

describe('changes recorded where they happen: crawlers, operations and growth', () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    ({ t, receiver } = await startWithReceiver());
  });
  afterAll(() => stopWithReceiver({ t, receiver }));

  const changes = (ws: TestWorkspace, kind: string) =>
    t.db.selectFrom('changes').selectAll().where('workspace_id', '=', ws.workspaceId).where('kind', '=', kind).orderBy('detected_at').orderBy('id').execute();
  const details = (row: { details: string }) => JSON.parse(row.details) as Record<string, unknown>;

  let paths = 0;
  async function site(ws: TestWorkspace): Promise<{ path: string; destinationId: string }> {
    const path = `/changes-${++paths}`;
    return { path, destinationId: await destinationAt(t, ws, receiver, path, { siteUrl: receiver.origin, name: `Blog ${paths}` }) };
  }

  describe('delivery.failed', () => {
    it('is recorded once when a delivery ends failed (a 4xx is final), with the destination, the article and the error', async () => {
      const ws = await t.workspace();
      const { path, destinationId } = await site(ws);
      receiver.reply(path, { status: 422, json: { error: 'bad slug' } });
      const contentId = await writtenArticle(t, ws, 'Dental CRM pricing');
      await publish(t, ws, contentId);
      await t.jobs.drain();
      t.clock.advance(DAY);
      await t.jobs.drain();
      const [change, ...more] = await changes(ws, 'delivery.failed');
      expect(more).toEqual([]);
      expect(change).toMatchObject({ severity: 'critical', title: `Delivery of "Dental CRM pricing" to Blog ${paths} failed after 1 attempt: the endpoint answered 422` });
      const delivery = await t.db.selectFrom('deliveries').select('id').where('destination_id', '=', destinationId).executeTakeFirstOrThrow();
      expect(details(change!)).toMatchObject({ deliveryId: delivery.id, articleId: contentId, destinationId, statusCode: 422, attempts: 1, endpointUrl: receiver.url(path), error: 'Failed: the endpoint answered 422' });
    });

    it('is recorded once after the last of 5 attempts, not for the attempts before', async () => {
      const ws = await t.workspace();
      const { path } = await site(ws);
      receiver.reply(path, ...Array.from({ length: 5 }, () => ({ status: 502 })));
      await publish(t, ws, await writtenArticle(t, ws));
      for (let i = 0; i < 4; i++) {
        await t.jobs.drain();
        expect(await changes(ws, 'delivery.failed')).toEqual([]);
        t.clock.advance(2 * HOUR);
      }
      for (let i = 0; i < 3; i++) {
        await t.jobs.drain();
        t.clock.advance(2 * HOUR);
      }
      expect((await changes(ws, 'delivery.failed')).map((c) => c.title)).toEqual([`Delivery of "How to pick a CRM for dentists" to Blog ${paths} failed after 5 attempts: the endpoint answered 502`]);
    });

    it('is not recorded for a delivery that succeeds after a retry, nor for a destination test', async () => {
      const ws = await t.workspace();
      const { path, destinationId } = await site(ws);
      receiver.reply(path, { status: 503 }, { json: { ok: true } });
      await publish(t, ws, await writtenArticle(t, ws));
      await t.jobs.drain();
      t.clock.advance(HOUR);
      await t.jobs.drain();
      receiver.reply(path, { status: 401 });
      const test = await t.rest(ws.key, 'POST', '/api/v1/destinations/test', { destinationId });
      expect(test.status, JSON.stringify(test.body)).toBe(200);
      await t.jobs.drain();
      const deliveries = await t.db.selectFrom('deliveries').select(['event', 'state']).where('destination_id', '=', destinationId).orderBy('created_at').execute();
      expect(deliveries).toEqual([
        { event: 'article.published', state: 'delivered' },
        { event: 'test', state: 'failed' },
      ]);
      expect(await changes(ws, 'delivery.failed')).toEqual([]);
    });
  });

  describe('article.not_rendered', () => {
    it('is recorded once when the last render check still finds no article, naming the URL and the reason', async () => {
      const ws = await t.workspace();
      const { path } = await site(ws);
      const contentId = await writtenArticle(t, ws, 'Never rendered');
      receiver.reply(path, { json: { ok: true, url: receiver.url('/blog/never-rendered') } });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      for (let i = 0; i < 2; i++) {
        t.clock.advance(120_000 + i * HOUR);
        await t.jobs.drain();
        expect(await changes(ws, 'article.not_rendered')).toEqual([]);
      }
      for (let i = 0; i < 3; i++) {
        t.clock.advance(2 * HOUR);
        await t.jobs.drain();
      }
      const found = await changes(ws, 'article.not_rendered');
      expect(found).toHaveLength(1);
      expect(found[0]!.title).toBe(`"Never rendered" did not render at ${receiver.url('/blog/never-rendered')} after 3 checks: the page answered 404`);
      expect(details(found[0]!)).toMatchObject({ articleId: contentId, url: receiver.url('/blog/never-rendered'), reason: 'the page answered 404' });
    });

    it('is not recorded when a later check finds the article', async () => {
      const ws = await t.workspace();
      const { path } = await site(ws);
      const contentId = await writtenArticle(t, ws, 'Late but there');
      receiver.reply(path, { json: { ok: true, url: receiver.url('/blog/late-but-there') } });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      t.clock.advance(120_000);
      await t.jobs.drain();
      receiver.page('/blog/late-but-there', '<h1>Late but there</h1>');
      for (let i = 0; i < 3; i++) {
        t.clock.advance(2 * HOUR);
        await t.jobs.drain();
      }
      expect((await t.db.selectFrom('articles').select('live_confirmed_at').where('id', '=', contentId).executeTakeFirstOrThrow()).live_confirmed_at).not.toBeNull();
      expect(await changes(ws, 'article.not_rendered')).toEqual([]);
    });
  });

  describe('crawler.blocked and crawler.allowed', () => {
    let siteServer: Site;
    let ws: TestWorkspace;
    beforeAll(async () => {
      siteServer = await Site.start();
      ws = await t.workspace();
      await t.db.updateTable('workspaces').set({ website_url: siteServer.origin }).where('id', '=', ws.workspaceId).execute();
    });
    afterAll(() => siteServer.close());

    const probe = async () => {
      await queueCrawlerReach(t.db, t.clock, ws.workspaceId);
      await t.jobs.drain();
    };

    it('records nothing on the first observation, then one change per flip and direction, once', async () => {
      await probe();
      expect(await t.db.selectFrom('crawler_reach').select('token').where('workspace_id', '=', ws.workspaceId).execute()).not.toEqual([]);
      expect(await changes(ws, 'crawler.blocked')).toEqual([]);

      siteServer.robots = 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n';
      siteServer.firewalled = /ClaudeBot/;
      await probe();
      await probe();
      const blocked = await changes(ws, 'crawler.blocked');
      expect(blocked).toHaveLength(1);
      expect(blocked[0]!.severity).toBe('critical');
      const crawlers = details(blocked[0]!).crawlers as Array<{ token: string; reason: string }>;
      expect(crawlers.map((c) => [c.token, c.reason]).sort()).toEqual([
        ['ClaudeBot', 'the home page answered 403 to its user agent'],
        ['GPTBot', 'robots.txt disallows it'],
      ]);
      expect(blocked[0]!.title).toMatch(/^(ClaudeBot, GPTBot|GPTBot, ClaudeBot) can no longer reach localhost:\d+: robots.txt or the server turns them away$/);
      expect(await changes(ws, 'crawler.allowed')).toEqual([]);

      siteServer.robots = 'User-agent: *\nAllow: /\n';
      await probe();
      const allowed = await changes(ws, 'crawler.allowed');
      expect(allowed.map((c) => c.title)).toEqual([expect.stringMatching(/^GPTBot can reach localhost:\d+ again$/)]);
      expect(await changes(ws, 'crawler.blocked')).toHaveLength(1);

      // Blocked again later: a new flip, a new change.
      siteServer.robots = 'User-agent: GPTBot\nDisallow: /\n';
      t.clock.advance(DAY);
      await probe();
      expect((await changes(ws, 'crawler.blocked')).map((c) => c.title).at(-1)).toMatch(/^GPTBot can no longer reach localhost:\d+: robots.txt disallows it$/);
      expect(await changes(ws, 'crawler.blocked')).toHaveLength(2);
    });

    it('keeps the last known state when the site does not answer at all', async () => {
      const other = await t.workspace();
      await t.db.updateTable('workspaces').set({ website_url: siteServer.origin }).where('id', '=', other.workspaceId).execute();
      siteServer.robots = 'User-agent: *\nAllow: /\n';
      await queueCrawlerReach(t.db, t.clock, other.workspaceId);
      await t.jobs.drain();
      // The site moves away: nothing listens at its address any more.
      await t.db.updateTable('workspaces').set({ website_url: 'https://localhost:1' }).where('id', '=', other.workspaceId).execute();
      await queueCrawlerReach(t.db, t.clock, other.workspaceId);
      await t.jobs.drain();
      expect(await changes(other, 'crawler.blocked')).toEqual([]);
    });
  });

  describe('crawler.visits_fell', () => {
    it('computes the one-sided test of a fall exactly', () => {
      // P(X <= 0 | n = 10, 1/2) = 2^-10; P(X <= 4 | n = 14, 1/2) = 1471 / 16384.
      expect(visitsFallPValue(10, 0)).toBeCloseTo(1 / 1024, 12);
      expect(visitsFallPValue(10, 4)).toBeCloseTo(1471 / 16384, 12);
      expect(visitsFallPValue(0, 0)).toBe(1);
    });

    async function visits(ws: TestWorkspace, count: number, from: number, to: number): Promise<void> {
      const rows = Array.from({ length: count }, (_, i) => ({
        id: newId('cvs'),
        workspace_id: ws.workspaceId,
        path: '/pricing',
        article_id: null,
        user_agent: 'GPTBot/1.0',
        crawler: 'GPTBot',
        category: 'training',
        operator: 'OpenAI',
        visited_at: from + Math.floor(((to - from) * i) / count),
      }));
      if (rows.length > 0) await t.db.insertInto('crawler_visits').values(rows).execute();
    }

    async function detect(ws: TestWorkspace): Promise<number> {
      const rules = await loadRules(t.db, ws.workspaceId);
      const found = await crawlerVisitsDetector.detect({ db: t.db, clock: t.clock, services: t.service.services, workspaceId: ws.workspaceId, runId: 'run', previousRunId: null, rules });
      return (await recordChanges(t.db, t.clock, ws.workspaceId, found, rules)).length;
    }

    it('is recorded once a week when visits fell by more than half from at least 50', async () => {
      const ws = await t.workspace();
      const today = Math.floor(t.clock.now() / DAY) * DAY;
      await visits(ws, 60, today - 14 * DAY, today - 7 * DAY);
      await visits(ws, 20, today - 7 * DAY, today);
      expect(await detect(ws)).toBe(1);
      expect(await detect(ws)).toBe(0);
      const [change] = await changes(ws, 'crawler.visits_fell');
      expect(change!.title).toBe('AI-crawler visits fell 67 % week over week: 20 in the last 7 days, 60 in the 7 before');
      expect(details(change!)).toMatchObject({ source: 'site_hook', fellPercent: 67, byCrawler: [{ crawler: 'GPTBot', earlier: 60, recent: 20 }] });
    });

    it('is not recorded for a fall of half or less, nor below the threshold, nor for a fall chance explains', async () => {
      const today = Math.floor(t.clock.now() / DAY) * DAY;
      const half = await t.workspace();
      await visits(half, 60, today - 14 * DAY, today - 7 * DAY);
      await visits(half, 30, today - 7 * DAY, today);
      expect(await detect(half)).toBe(0);
      const few = await t.workspace();
      await visits(few, 40, today - 14 * DAY, today - 7 * DAY);
      expect(await detect(few)).toBe(0);
      // With the threshold lowered to 10, 10 then 4 is less than half, but chance alone gives that 9 % of the time.
      const noisy = await t.workspace();
      await t.db.insertInto('alert_rules').values({ workspace_id: noisy.workspaceId, kind: 'crawler.visits_fell', enabled: 1, threshold: 10, engines: null, query_ids: null, updated_at: t.clock.now() }).execute();
      await visits(noisy, 10, today - 14 * DAY, today - 7 * DAY);
      await visits(noisy, 4, today - 7 * DAY, today);
      expect(await detect(noisy)).toBe(0);
      expect([...(await changes(half, 'crawler.visits_fell')), ...(await changes(few, 'crawler.visits_fell')), ...(await changes(noisy, 'crawler.visits_fell'))]).toEqual([]);
    });
  });

  describe('plan.limit_near', () => {
    it('is recorded once when tracked queries reach 90 % of the plan, not before and not again', async () => {
      const ws = await t.workspace({ plan: 'trial' });
      const add = async (n: number) => {
        const answer = await t.rest(ws.key, 'POST', '/api/v1/queries', { text: `crm for dentists ${n}` });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      };
      // add_query has a cap of 10 calls a minute: the first 20 go in directly, as the pool's other inserts do.
      for (let n = 0; n < 20; n++) await insertQuery(t.db, t.clock, ws.workspaceId, { text: `crm for dentists ${n}`, source: 'user' });
      for (let n = 20; n < 22; n++) await add(n);
      expect(await changes(ws, 'plan.limit_near')).toEqual([]);
      await add(22);
      await add(23);
      const found = await changes(ws, 'plan.limit_near');
      expect(found.map((c) => c.title)).toEqual(['23 of 25 tracked queries used (92 %) on the trial plan']);
      expect(details(found[0]!)).toMatchObject({ limit: 'trackedQueries', used: 23, planLimit: 25, sharePercent: 92, plan: 'trial' });
    });
  });
});
