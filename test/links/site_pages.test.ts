import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SITE_PAGES } from '../../src/links/sitePages.js';
import { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

const add = (key: string, pages: unknown[]) => t.rest(key, 'POST', '/api/v1/links/pages', { pages });
const list = async (key: string) => (await t.rest(key, 'GET', '/api/v1/links/pages')).body.data as { pages: Array<Record<string, unknown>>; total: number; limit: number };

describe('add_site_pages and list_site_pages', () => {
  it('adds pages on the workspace site, subdomains included, and reports duplicates', async () => {
    const ws = await t.workspace({ site: 'https://www.acme.example' });
    const first = await add(ws.key, [
      { url: 'https://acme.example/pricing', title: 'Pricing', keywords: ['pricing plans', ' plan comparison '] },
      { url: 'https://docs.acme.example/start#install' },
      { url: 'http://www.acme.example/about' },
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const data = first.body.data as { added: Array<{ pageId: string; url: string }>; duplicates: string[] };
    expect(data.added.map((page) => page.url)).toEqual(['https://acme.example/pricing', 'https://docs.acme.example/start', 'http://www.acme.example/about']);
    expect(data.duplicates).toEqual([]);

    const second = await add(ws.key, [{ url: 'https://acme.example/pricing' }, { url: 'https://acme.example/new' }, { url: 'https://acme.example/new#again' }]);
    expect(second.body.data).toEqual({ added: [{ pageId: expect.any(String), url: 'https://acme.example/new' }], duplicates: ['https://acme.example/pricing', 'https://acme.example/new'] });

    const listed = await list(ws.key);
    expect(listed.total).toBe(4);
    expect(listed.limit).toBe(MAX_SITE_PAGES);
    expect(listed.pages.find((page) => page.url === 'https://acme.example/pricing')).toEqual({
      pageId: data.added[0]!.pageId,
      url: 'https://acme.example/pricing',
      title: 'Pricing',
      keywords: ['pricing plans', 'plan comparison'],
      source: 'manual',
      createdAt: new Date(t.clock.now()).toISOString(),
    });
  });

  it('refuses the whole call when a page is on another site, naming it, and stores nothing', async () => {
    const ws = await t.workspace({ site: 'https://acme.example' });
    const before = await snapshot(t.db);
    const answer = await add(ws.key, [{ url: 'https://acme.example/ok' }, { url: 'https://acme.example.evil.test/x' }]);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("pages[1].url: must be on the workspace's site (acme.example); acme.example.evil.test is not");
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('refuses a non-http URL and more than 100 pages', async () => {
    const ws = await t.workspace();
    expect((await add(ws.key, [{ url: 'ftp://acme.example/file' }])).body.error).toMatch(/^pages\[0\]\.url: must be an absolute http\(s\) URL/);
    const many = Array.from({ length: 101 }, (_, i) => ({ url: `https://acme.example/p${i}` }));
    expect((await add(ws.key, many)).body.error).toBe('pages: must have at most 100 items');
    expect((await add(ws.key, [])).body.error).toBe('pages: must have at least 1 item');
  });

  it(`keeps at most ${MAX_SITE_PAGES} pages a workspace`, async () => {
    const ws = await t.workspace();
    const rows = Array.from({ length: MAX_SITE_PAGES - 1 }, (_, i) => ({
      id: `page_fill_${ws.workspaceId}_${i}`,
      workspace_id: ws.workspaceId,
      url: `https://acme.example/fill-${i}`,
      title: null,
      keywords: '[]',
      source: 'manual' as const,
      created_at: t.clock.now(),
    }));
    for (let i = 0; i < rows.length; i += 200) await t.db.insertInto('site_pages').values(rows.slice(i, i + 200)).execute();
    const before = await snapshot(t.db);
    const refused = await add(ws.key, [{ url: 'https://acme.example/one' }, { url: 'https://acme.example/two' }]);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(`pages: the workspace keeps at most ${MAX_SITE_PAGES} site pages; 1 more fit`);
    expect(await snapshot(t.db)).toEqual(before);
    expect((await add(ws.key, [{ url: 'https://acme.example/one' }])).status).toBe(200);
  });

  it("lists only the workspace's own pages", async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ site: 'https://other.example' });
    await add(other.key, [{ url: 'https://other.example/theirs' }]);
    expect(await list(ws.key)).toEqual({ pages: [], total: 0, limit: MAX_SITE_PAGES });
  });
});
