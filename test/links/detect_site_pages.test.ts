import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DETECTED_PAGES, MAX_SITEMAPS } from '../../src/links/detect.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { sitemapIndex, startSite, urlset, type SitePage } from './support.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start({ outbound: { allowPrivateAddresses: true } });
});
afterAll(() => t.close());

const sites: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const site of sites) await site.close();
});

/** A local site and a workspace whose website it is. */
async function siteWorkspace(pages: (origin: string) => Record<string, SitePage>, service = t) {
  const routes: Record<string, SitePage> = {};
  const site = await startSite(routes);
  sites.push(site);
  Object.assign(routes, pages(site.origin));
  const ws = await service.workspace({ site: site.origin });
  return { ws, site };
}

const detect = (key: string, input: Record<string, unknown> = {}, service = t) => service.rest(key, 'POST', '/api/v1/links/detect', input);

async function storedPages(workspaceId: string) {
  return t.db.selectFrom('site_pages').select(['url', 'title', 'keywords', 'source']).where('workspace_id', '=', workspaceId).orderBy('url').execute();
}

describe('detect_site_pages: sitemaps', () => {
  it("reads the website's /sitemap.xml by default and keeps new pages with a keyword from their slug", async () => {
    const { ws, site } = await siteWorkspace((origin) => ({
      '/sitemap.xml': { body: urlset([`${origin}/blog/crm-for-startups`, `${origin}/pricing`, `${origin}/blog/crm-for-startups#top`, 'https://elsewhere.example/x', `${origin}/logo.png`, `${origin}/2024`]) },
    }));
    const answer = await detect(ws.key);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual({
      url: `${site.origin}/sitemap.xml`,
      source: 'sitemap',
      sitemapsRead: 1,
      found: 3,
      added: 3,
      alreadyKnown: 0,
      overLimit: 0,
      offSite: 1,
      failures: [],
    });
    expect(await storedPages(ws.workspaceId)).toEqual([
      { url: `${site.origin}/2024`, title: null, keywords: '[]', source: 'sitemap' },
      { url: `${site.origin}/blog/crm-for-startups`, title: null, keywords: '["crm for startups"]', source: 'sitemap' },
      { url: `${site.origin}/pricing`, title: null, keywords: '["pricing"]', source: 'sitemap' },
    ]);
    const again = await detect(ws.key, { url: `${site.origin}/sitemap.xml` });
    expect(again.body.data).toMatchObject({ found: 3, added: 0, alreadyKnown: 3 });
  });

  it('follows a sitemap index to its sitemaps, skipping broken and off-site ones', async () => {
    const { ws, site } = await siteWorkspace((origin) => ({
      '/sitemap_index.xml': { body: sitemapIndex([`${origin}/posts.xml`, `${origin}/pages.xml`, `${origin}/missing.xml`, 'https://cdn.elsewhere.example/s.xml']) },
      '/posts.xml': { body: urlset([`${origin}/blog/a`, `${origin}/blog/b`]) },
      '/pages.xml': { body: urlset([`${origin}/about`, `${origin}/blog/a`]), type: 'text/xml; charset=utf-8' },
    }));
    const answer = await detect(ws.key, { url: `${site.origin}/sitemap_index.xml` });
    expect(answer.body.data).toEqual({
      url: `${site.origin}/sitemap_index.xml`,
      source: 'sitemap',
      sitemapsRead: 3,
      found: 3,
      added: 3,
      alreadyKnown: 0,
      overLimit: 0,
      offSite: 0,
      failures: [
        { url: 'https://cdn.elsewhere.example/s.xml', reason: 'not on the workspace site: not read' },
        { url: `${site.origin}/missing.xml`, reason: `${site.origin}/missing.xml answered 404 (not found)` },
      ],
    });
    expect((await storedPages(ws.workspaceId)).map((page) => page.url)).toEqual([`${site.origin}/about`, `${site.origin}/blog/a`, `${site.origin}/blog/b`]);
  });

  it(`reads at most ${MAX_SITEMAPS} sitemaps and takes at most ${MAX_DETECTED_PAGES} pages`, async () => {
    const nested = Array.from({ length: MAX_SITEMAPS + 2 }, (_, i) => `/s${i}.xml`);
    const { ws, site } = await siteWorkspace((origin) => ({
      '/index.xml': { body: sitemapIndex(nested.map((path) => origin + path)) },
      ...Object.fromEntries(nested.map((path, i) => [path, { body: urlset(Array.from({ length: 60 }, (_, j) => `${origin}/p/${i}-${j}`)) }])),
    }));
    const answer = await detect(ws.key, { url: `${site.origin}/index.xml` });
    const data = answer.body.data as { sitemapsRead: number; found: number; failures: Array<{ url: string; reason: string }> };
    // The index and nine of its sitemaps: 9 x 60 = 540 entries, cut at 500.
    expect(data.sitemapsRead).toBe(MAX_SITEMAPS);
    expect(data.found).toBe(MAX_DETECTED_PAGES);
    expect(data.failures.map((failure) => failure.url)).toEqual(nested.slice(MAX_SITEMAPS - 1).map((path) => site.origin + path));
    expect(data.failures[0]!.reason).toBe(`not read: at most ${MAX_SITEMAPS} sitemaps per scan`);
    expect(site.requests).toHaveLength(MAX_SITEMAPS);
  });
});

describe('detect_site_pages: blog root', () => {
  it('takes the same-site links of an HTML page, with their text as title', async () => {
    const { ws, site } = await siteWorkspace((origin) => ({
      '/blog': {
        type: 'text/html; charset=utf-8',
        body: `<!doctype html><html><body>
          <a href="/blog">Blog</a>
          <a href="/blog/first-post">  First   <b>post</b> </a>
          <a href="${origin}/blog/second-post#comments">Second post</a>
          <a href="blog/third-post?ref=home">Third</a>
          <a href="https://twitter.example/acme">Twitter</a>
          <a href="/files/guide.pdf">Guide</a>
          <a href="mailto:hi@acme.example">Mail</a>
          <a>No href</a>
        </body></html>`,
      },
    }));
    const answer = await detect(ws.key, { url: `${site.origin}/blog` });
    expect(answer.body.data).toMatchObject({ source: 'blog', sitemapsRead: 0, found: 3, added: 3, offSite: 1 });
    expect(await storedPages(ws.workspaceId)).toEqual([
      { url: `${site.origin}/blog/first-post`, title: 'First post', keywords: '["first post"]', source: 'blog' },
      { url: `${site.origin}/blog/second-post`, title: 'Second post', keywords: '["second post"]', source: 'blog' },
      { url: `${site.origin}/blog/third-post?ref=home`, title: 'Third', keywords: '["third post"]', source: 'blog' },
    ]);
  });
});

describe('detect_site_pages: refusals', () => {
  it('refuses an http:// URL', async () => {
    const ws = await t.workspace();
    const answer = await detect(ws.key, { url: 'http://acme.example/sitemap.xml' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('url: must be an absolute https URL such as https://example.com/sitemap.xml');
  });

  it("refuses a URL off the workspace's site before requesting it", async () => {
    const { ws, site } = await siteWorkspace(() => ({ '/sitemap.xml': { body: urlset([]) } }));
    const answer = await detect(ws.key, { url: 'https://127.0.0.1/sitemap.xml' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("url: must be on the workspace's site (localhost); 127.0.0.1 is not");
    expect(site.requests).toEqual([]);
  });

  it('answers 400 naming url and the reason, and stores nothing, when the page cannot be read', async () => {
    const { ws, site } = await siteWorkspace((origin) => ({
      '/feed.json': { type: 'application/json', body: '{}' },
      '/rss.xml': { body: '<?xml version="1.0"?><rss><channel></channel></rss>' },
      '/broken.xml': { body: '<urlset><url><loc>x</loc></urlset>' },
      '/moved.xml': { status: 301, body: '', headers: { location: `${origin}/sitemap_index.xml` } },
    }));
    const cases: Array<[string, string]> = [
      ['/sitemap.xml', `url: ${site.origin}/sitemap.xml answered 404 (not found)`],
      ['/feed.json', `url: ${site.origin}/feed.json is neither a sitemap nor an HTML page (content-type application/json)`],
      ['/rss.xml', `url: ${site.origin}/rss.xml is not a sitemap: no urlset or sitemapindex`],
      ['/moved.xml', `url: ${site.origin}/moved.xml answered 301 (a redirect, not followed: scan ${site.origin}/sitemap_index.xml instead)`],
    ];
    for (const [path, error] of cases) {
      // A key per call: the route allows 3 calls a minute per key.
      const key = await t.key(ws.workspaceId, ALL_SCOPES);
      const before = await snapshot(t.db);
      const answer = await detect(key, { url: site.origin + path });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(error);
      expect(await snapshot(t.db)).toEqual(before);
    }
    const broken = await detect(await t.key(ws.workspaceId, ALL_SCOPES), { url: `${site.origin}/broken.xml` });
    expect(broken.body.error).toMatch(new RegExp(`^url: ${site.origin}/broken.xml is not a sitemap: invalid XML`));
  });

  it('refuses a private address unless the deployment allows private targets', async () => {
    const guarded = await TestService.start();
    try {
      const { ws, site } = await siteWorkspace(() => ({ '/sitemap.xml': { body: urlset([]) } }), guarded);
      const answer = await detect(ws.key, {}, guarded);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('url: localhost resolves to an address that is not public (private, loopback, link-local and reserved ranges and IPv4 embedded in IPv6 are refused; ALLOW_PRIVATE_TARGETS allows them)');
      expect(site.requests).toEqual([]);
    } finally {
      await guarded.close();
    }
  });
});
