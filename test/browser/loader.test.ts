import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loaderTag, siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { CHROME_UA } from '../analytics/support.js';
import { TestService } from '../support/harness.js';
import { hasChromium, launchChromium } from '../support/chromium.js';

/**
 * A second visitor on the same machine: the service tells visitors apart by address and user agent. Its page is hidden
 * rather than left, because beacons sent while a page unloads carry the browser's user agent (CHROME_UA, see beforeAll).
 */
const MAC_CHROME_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PIN = '4711-never-sent';
const HIDDEN_VALUE = 'hidden-campaign-never-sent';

/**
 * The customer's site: every page carries the one tag (its src on the tap in front of the service), a link, an in-page
 * anchor and two forms, one marked as a lead form; a form posts to /thanks. Each test has its own host under *.localhost
 * (Chromium resolves those to the loopback itself), its own workspace and so its own site id, while the service and the
 * tap listen on 127.0.0.1: another origin, so the beacons are cross-origin as on a real site.
 */
class CustomerSite {
  private readonly tags = new Map<string, string>();
  private readonly server = createServer((req, res) => this.answer(req, res));

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** A workspace whose website is `http://<name>.localhost:<port>`, its pages carrying its tag (with `attributes` added). */
  async site(name: string, attributes = ''): Promise<{ workspaceId: string; siteId: string; origin: string }> {
    const origin = `http://${name}.localhost:${(this.server.address() as AddressInfo).port}`;
    const { workspaceId } = await t.workspace({ site: origin });
    const siteId = await siteIdOf(t.db, workspaceId);
    this.tags.set(new URL(origin).host, loaderTag(tapUrl, siteId).replace('<script ', `<script ${attributes} `));
    return { workspaceId, siteId, origin };
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const tag = this.tags.get(req.headers.host ?? '');
    if (tag === undefined) {
      res.writeHead(404).end();
      return;
    }
    // The form's body is read and dropped: what matters is what the loader sent before the browser posted it.
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${req.url}</title>${tag}</head><body>
<h1>${req.method === 'POST' ? 'Thanks' : req.url}</h1>
<a href="/pricing">Pricing</a> <a href="#plans">Plans</a>
<form id="demo" data-sightline-lead method="post" action="/thanks">
  <label>Email <input type="email" name="email"></label>
  <label>Name <input name="name"></label>
  <label>Company <input name="company"></label>
  <label>PIN <input type="password" name="pin"></label>
  <input type="hidden" name="campaign" value="${HIDDEN_VALUE}">
  <button>Book a demo</button>
</form>
<form id="newsletter" method="post" action="/thanks">
  <label>Newsletter email <input type="email" name="email"></label>
  <button>Subscribe</button>
</form>
<div style="height: 3000px"></div><h2 id="plans">Plans</h2>
</body></html>`);
    });
  }
}

interface Beacon {
  s: string;
  t: 'pageview' | 'engagement' | 'lead';
  u: string;
  r?: string;
  e?: number;
  v?: 0 | 1;
  f?: Record<string, string>;
  i?: string;
}

/**
 * Stands between the pages and the service and keeps every collect body it passes on: the tags point here, so the
 * tests see exactly what the browser sent (Playwright's own request events miss beacons sent while a page unloads).
 */
class BeaconTap {
  private readonly beacons: Beacon[] = [];
  private readonly server = createServer((req, res) => this.forward(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /**
   * What one site's pages sent: type and path, and the referrer, first-report mark or form fields. Sorted, because two
   * beacons sent at once (pushState's engagement and page view) may arrive either way round; the referrers tell the order.
   */
  sent(siteId: string) {
    return this.beacons
      .filter((beacon) => beacon.s === siteId)
      .map(({ t: type, u, r, v, f, i }) => ({ t: type, path: new URL(u).pathname, ...(type === 'pageview' ? { r } : type === 'engagement' ? { v } : { f, i }) }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url === '/api/site/collect') this.beacons.push(JSON.parse(body.toString()) as Beacon);
      const upstream = request(new URL(req.url ?? '/', t.baseUrl), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.end(body);
    });
  }
}

let t: TestService;
let browser: Browser;
let tapUrl: string;
const customer = new CustomerSite();
const tap = new BeaconTap();

beforeAll(async () => {
  if (!hasChromium) return;
  t = await TestService.start({ writer: false });
  await customer.start();
  tapUrl = await tap.start();
  // A beacon sent while a page unloads leaves with the browser's own user agent, not the one a context sets (Playwright
  // overrides it per page), and isbot drops HeadlessChrome's: the browser itself must say it is a normal Chrome.
  browser = await launchChromium([`--user-agent=${CHROME_UA}`]);
});
afterAll(async () => {
  await browser?.close();
  await customer.close();
  await tap.close();
  await t?.close();
});

/** A browser profile of its own (no cookies or storage carried over) with a normal Chrome user agent. */
async function visitor(userAgent = CHROME_UA): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ userAgent });
  return { context, page: await context.newPage() };
}

/** Beacons arrive when the browser sends them: read until the stored sums are as expected, writing waiting events each time. */
async function storedEventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  await vi.waitFor(
    async () => {
      await t.service.counterIngest.flush();
      expect(await read()).toEqual(expected);
    },
    { timeout: 5000, interval: 100 },
  );
}

/** After the last beacon was awaited: a moment for any stray one to arrive, then everything is written. */
async function settled(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  await t.service.counterIngest.flush();
}

async function pages(workspaceId: string) {
  const rows = await t.db
    .selectFrom('counter_page_days')
    .select(['path', 'pageviews', 'engaged_views'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('path')
    .execute();
  return rows.map((row) => ({ path: row.path, pageViews: Number(row.pageviews), engagedViews: Number(row.engaged_views) }));
}

async function day(workspaceId: string) {
  const row = await t.db.selectFrom('counter_days').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row === undefined
    ? undefined
    : { pageViews: Number(row.pageviews), visitors: Number(row.visitors), sessions: Number(row.sessions), bounces: Number(row.bounces), engagedMs: Number(row.engaged_ms) };
}

async function sessions(workspaceId: string) {
  const rows = await t.db.selectFrom('counter_sessions').selectAll().where('workspace_id', '=', workspaceId).orderBy('engaged_ms').execute();
  return rows.map((row) => ({ ...row, engaged_ms: Number(row.engaged_ms), pageviews: Number(row.pageviews), bounced: Number(row.bounced) }));
}

async function leads(workspaceId: string) {
  return t.db.selectFrom('leads').selectAll().where('workspace_id', '=', workspaceId).execute();
}

describe.skipIf(!hasChromium)('the tracking loader in a real page', () => {
  it('reports a page view with its referrer on load, on a second page, and on history navigation', async () => {
    const { workspaceId, siteId, origin } = await customer.site('views');
    const { context, page } = await visitor();
    await page.goto(`${origin}/`, { referer: 'https://chatgpt.com/' });
    await page.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL(`${origin}/pricing`);
    // An in-page anchor is not a navigation: no page view.
    await page.getByRole('link', { name: 'Plans' }).click();
    await page.waitForURL(`${origin}/pricing#plans`);
    // Page code as strings: the tests compile without the DOM's types.
    await page.evaluate("history.pushState(null, '', '/docs/start')");
    await page.goBack();
    await page.waitForURL(`${origin}/pricing#plans`);
    await page.close({ runBeforeUnload: true });

    // Each page view's visible time is reported once it is left (by a link, pushState, going back, or closing the tab),
    // under the page it was spent on.
    await storedEventually(() => pages(workspaceId), [
      { path: '/', pageViews: 1, engagedViews: 1 },
      { path: '/docs/start', pageViews: 1, engagedViews: 1 },
      { path: '/pricing', pageViews: 2, engagedViews: 2 },
    ]);
    await context.close();
    await settled();
    expect(tap.sent(siteId)).toEqual([
      { t: 'engagement', path: '/', v: 1 },
      { t: 'engagement', path: '/docs/start', v: 1 },
      { t: 'engagement', path: '/pricing', v: 1 },
      { t: 'engagement', path: '/pricing', v: 1 },
      { t: 'pageview', path: '/', r: 'https://chatgpt.com/' },
      { t: 'pageview', path: '/docs/start', r: `${origin}/pricing` },
      { t: 'pageview', path: '/pricing', r: `${origin}/` },
      { t: 'pageview', path: '/pricing', r: `${origin}/docs/start` },
    ]);
    expect(await day(workspaceId)).toMatchObject({ pageViews: 4, visitors: 1, sessions: 1, bounces: 0 });
    expect(await sessions(workspaceId)).toEqual([
      expect.objectContaining({ pageviews: 4, entry_path: '/', referrer_host: 'chatgpt.com', source: 'ai', engine: 'chatgpt' }),
    ]);
  });

  it('reports the visible time when the page is hidden; enough of it makes a one-page session no bounce', async () => {
    const { workspaceId, siteId, origin } = await customer.site('engagement');

    const brief = await visitor();
    const arrived = Date.now();
    await brief.page.goto(`${origin}/article`);
    await brief.page.waitForTimeout(1500);
    await brief.page.close({ runBeforeUnload: true });
    const left = Date.now();

    // The second visitor reads for 12 s: the page's clock is moved on rather than the test waiting for it.
    const reader = await visitor(MAC_CHROME_UA);
    await reader.page.clock.install();
    await reader.page.goto(`${origin}/article`);
    await reader.page.clock.fastForward(12_000);
    // Then switches to another tab. A headless page stays visible whatever else is open, so the page is told it is hidden.
    await reader.page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'))`);

    await storedEventually(async () => (await sessions(workspaceId)).map((session) => session.bounced), [1, 0]);
    await brief.context.close();
    await reader.context.close();
    await settled();
    // Closing the tab fires pagehide and then visibilitychange: still one report per page view.
    expect(tap.sent(siteId)).toEqual([
      { t: 'engagement', path: '/article', v: 1 },
      { t: 'engagement', path: '/article', v: 1 },
      { t: 'pageview', path: '/article', r: '' },
      { t: 'pageview', path: '/article', r: '' },
    ]);
    const [short, long] = await sessions(workspaceId);
    expect(short!.engaged_ms).toBeGreaterThanOrEqual(1500);
    expect(short!.engaged_ms).toBeLessThanOrEqual(left - arrived);
    expect(long!.engaged_ms).toBeGreaterThanOrEqual(12_000);
    expect(long!.engaged_ms).toBeLessThan(12_000 + 5000);
    expect(await day(workspaceId)).toEqual({ pageViews: 2, visitors: 2, sessions: 2, bounces: 1, engagedMs: short!.engaged_ms + long!.engaged_ms });
    expect(await pages(workspaceId)).toEqual([{ path: '/article', pageViews: 2, engagedViews: 2 }]);
  });

  it('reports a marked form as a lead without its password or hidden fields, and no unmarked form', async () => {
    const { workspaceId, siteId, origin } = await customer.site('leads');
    const { context, page } = await visitor();
    await page.goto(`${origin}/contact`, { referer: 'https://www.perplexity.ai/' });
    await page.getByLabel('Newsletter email').fill('news@example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(`${origin}/thanks`);

    await page.goto(`${origin}/contact`);
    await page.getByLabel('Email', { exact: true }).fill('Ann@Example.com');
    await page.getByLabel('Name').fill('Ann Lee');
    await page.getByLabel('Company').fill('Lee & Co');
    await page.getByLabel('PIN').fill(PIN);
    await page.getByRole('button', { name: 'Book a demo' }).click();
    await page.waitForURL(`${origin}/thanks`);

    await storedEventually(async () => (await leads(workspaceId)).length, 1);
    await context.close();
    await settled();
    // What left the browser: the marked form's fields, without the password and the hidden field; nothing for the other form.
    expect(tap.sent(siteId).filter((beacon) => beacon.t === 'lead')).toEqual([
      { t: 'lead', path: '/contact', f: { email: 'Ann@Example.com', name: 'Ann Lee', company: 'Lee & Co' }, i: 'demo' },
    ]);
    const stored = await leads(workspaceId);
    expect(stored).toEqual([
      expect.objectContaining({ form: 'demo', email: 'ann@example.com', name: 'Ann Lee', path: '/contact', source: 'ai', engine: 'perplexity' }),
    ]);
    expect(JSON.parse(stored[0]!.fields)).toEqual({ company: 'Lee & Co' });
    expect(JSON.stringify(stored)).not.toContain(PIN);
    expect(JSON.stringify(stored)).not.toContain(HIDDEN_VALUE);
  });

  it('with data-leads="email" on the tag, reports any form with an email field', async () => {
    const { workspaceId, siteId, origin } = await customer.site('emailforms', 'data-leads="email"');
    const { context, page } = await visitor();
    await page.goto(`${origin}/blog/post`);
    await page.getByLabel('Newsletter email').fill('News@Example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(`${origin}/thanks`);
    await storedEventually(async () => (await leads(workspaceId)).map((lead) => [lead.form, lead.email, lead.path]), [['newsletter', 'news@example.com', '/blog/post']]);
    await context.close();
    expect(tap.sent(siteId).filter((beacon) => beacon.t === 'lead')).toEqual([{ t: 'lead', path: '/blog/post', f: { email: 'News@Example.com' }, i: 'newsletter' }]);
  });

  it('leaves no cookie and nothing in local or session storage, on the site or the service', async () => {
    const { workspaceId, origin } = await customer.site('storage');
    const { context, page } = await visitor();
    await page.goto(`${origin}/`);
    await page.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL(`${origin}/pricing`);
    await page.getByLabel('Email', { exact: true }).fill('ann@example.com');
    await page.getByRole('button', { name: 'Book a demo' }).click();
    await page.waitForURL(`${origin}/thanks`);
    await storedEventually(async () => ({ views: (await day(workspaceId))?.pageViews, leads: (await leads(workspaceId)).length }), { views: 3, leads: 1 });

    const storage = () => page.evaluate<unknown>('({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length })');
    expect(await storage()).toEqual({ cookie: '', local: 0, session: 0 });
    // The origin the tag and the beacons came from.
    await page.goto(`${tapUrl}/t.js`);
    expect(await storage()).toEqual({ cookie: '', local: 0, session: 0 });
    // Every origin the profile knows: no cookie, no local storage, no IndexedDB.
    expect(await context.storageState({ indexedDB: true })).toEqual({ cookies: [], origins: [] });
    await context.close();
  });
});
