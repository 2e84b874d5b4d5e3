import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService, TestWorkspace } from '../support/harness.js';
import type { Receiver } from './receiver.js';
import { destinationAt, ok, publish, startWithReceiver, stopWithReceiver, writtenArticle } from './support.js';

const ARTICLES = '/api/v1/articles';

describe('get_articles, the headless Content API', () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    ({ t, receiver } = await startWithReceiver());
  });
  afterAll(() => stopWithReceiver({ t, receiver }));

  /** Publishes `titles` one minute apart (the last is the newest), plus a draft and an archived article that must never show. */
  async function siteWith(titles: string[]): Promise<{ ws: TestWorkspace; ids: string[] }> {
    const ws = await t.workspace();
    await destinationAt(t, ws, receiver, `/hook-${ws.workspaceId}`, { siteUrl: receiver.origin });
    const ids: string[] = [];
    for (const title of titles) {
      const id = await writtenArticle(t, ws, title);
      await publish(t, ws, id);
      ids.push(id);
      t.clock.advance(60_000);
    }
    await writtenArticle(t, ws, 'A draft');
    const archived = await writtenArticle(t, ws, 'An archived one');
    await publish(t, ws, archived);
    await t.db.updateTable('articles').set({ status: 'archived', archived_at: t.clock.now() }).where('id', '=', archived).execute();
    return { ws, ids };
  }

  it('pages through published articles only, newest first', async () => {
    const { ws, ids } = await siteWith(['One', 'Two', 'Three', 'Four', 'Five']);
    const first = await ok(t, ws.key, 'GET', ARTICLES, { limit: 2 });
    expect(first).toMatchObject({ page: 1, limit: 2, total: 5, nextPage: 2 });
    expect((first.articles as Array<{ id: string }>).map((a) => a.id)).toEqual([ids[4], ids[3]]);
    const last = await ok(t, ws.key, 'GET', ARTICLES, { limit: 2, page: 3 });
    expect(last).toMatchObject({ page: 3, total: 5, nextPage: null });
    expect((last.articles as Array<{ id: string }>).map((a) => a.id)).toEqual([ids[0]]);
    const all = await ok(t, ws.key, 'GET', ARTICLES);
    expect(all).toMatchObject({ limit: 20, total: 5, nextPage: null });
    expect((await ok(t, ws.key, 'GET', ARTICLES, { page: 9 })).articles).toEqual([]);
  });

  it('gives one article by slug with everything a page needs, and 404 for a draft or unknown slug', async () => {
    const { ws, ids } = await siteWith(['Dental CRM basics']);
    const stored = await t.db.selectFrom('articles').selectAll().where('id', '=', ids[0]!).executeTakeFirstOrThrow();
    const answer = await ok(t, ws.key, 'GET', ARTICLES, { slug: 'dental-crm-basics' });
    expect(answer).toEqual({
      article: {
        id: ids[0],
        slug: 'dental-crm-basics',
        title: 'Dental CRM basics',
        metaTitle: 'CRM for dentists',
        metaDescription: 'How to choose a CRM for a dental practice.',
        html: stored.html,
        markdown: stored.markdown,
        faq: [{ question: 'Do dentists need a CRM?', answer: 'Yes, to keep patients coming back.' }],
        schemaJsonLd: stored.schema_json_ld,
        url: null,
        canonicalUrl: null,
        language: 'en',
        author: { name: 'Dana Smile', bio: 'Practice manager' },
        categoryName: 'Guides',
        keywords: ['crm for dentists', 'dental crm'],
        featuredImage: null,
        publishedAt: new Date(stored.published_at!).toISOString(),
        updatedAt: new Date(stored.updated_at).toISOString(),
      },
      etag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
    });
    expect(stored.html).toContain('Dental CRM basics');
    for (const slug of ['a-draft', 'an-archived-one', 'no-such-article']) {
      const missing = await t.rest(ws.key, 'GET', ARTICLES, { slug });
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe(`published article with slug ${slug} not found in this workspace`);
    }
  });

  it("never shows another workspace's articles", async () => {
    await siteWith(['Theirs']);
    const ws = await t.workspace();
    expect(await ok(t, ws.key, 'GET', ARTICLES)).toMatchObject({ articles: [], total: 0 });
    expect((await t.rest(ws.key, 'GET', ARTICLES, { slug: 'theirs' })).status).toBe(404);
  });

  it('serves an ETag and answers 304 to If-None-Match until the content changes', async () => {
    const { ws, ids } = await siteWith(['Cached article']);
    const url = `${t.baseUrl}${ARTICLES}?slug=cached-article`;
    const headers = { authorization: `Bearer ${ws.key}` };
    const first = await fetch(url, { headers });
    const etag = first.headers.get('etag');
    expect(etag).toBe(((await first.json()) as { data: { etag: string } }).data.etag);
    const unchanged = await fetch(url, { headers: { ...headers, 'if-none-match': `"other", ${etag}` } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect((await fetch(url, { headers: { ...headers, 'if-none-match': '"other"' } })).status).toBe(200);

    await ok(t, ws.key, 'POST', '/api/v1/content/meta', { contentId: ids[0], metaDescription: 'A fresher description.', confirm: true });
    const changed = await fetch(url, { headers: { ...headers, 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);

    // The page has its own tag, which moves when any article on it changes.
    const page = await fetch(`${t.baseUrl}${ARTICLES}`, { headers });
    expect(page.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await fetch(`${t.baseUrl}${ARTICLES}`, { headers: { ...headers, 'if-none-match': page.headers.get('etag')! } })).status).toBe(304);
  });

  it('refuses a page size above 100 and a page below 1, naming the field', async () => {
    const ws = await t.workspace();
    const big = await t.rest(ws.key, 'GET', ARTICLES, { limit: 101 });
    expect(big.status).toBe(400);
    expect(big.body.error).toBe('limit: must be at most 100');
    const zero = await t.rest(ws.key, 'GET', ARTICLES, { page: 0 });
    expect(zero.body.error).toBe('page: must be at least 1');
  });
});
