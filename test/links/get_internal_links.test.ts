import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findArticle } from '../../src/content/articles.js';
import { renderArticle } from '../../src/content/render.js';
import { TestService } from '../support/harness.js';
import { insertPublishedArticle, insertWrittenArticle } from './support.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function render(workspaceId: string, articleId: string) {
  return renderArticle(t.db, t.clock, workspaceId, await findArticle(t.db, workspaceId, articleId), { canonicalUrl: null });
}

const links = async (key: string, contentId: string) => t.rest(key, 'GET', '/api/v1/content/internal-links', { contentId });

describe('get_internal_links', () => {
  it('reports the published articles linking in and the links going out, as recorded at render time', async () => {
    const ws = await t.workspace();
    const at = new Date(t.clock.now()).toISOString();
    await t.rest(ws.key, 'POST', '/api/v1/links/pages', { pages: [{ url: 'https://acme.example/pricing', keywords: ['pricing plans'] }] });
    const target = await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'https://acme.example/blog/lead-scoring', {
      keyword: 'lead scoring',
      markdown: 'Compare our pricing plans.',
    });
    const source = await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'https://acme.example/blog/sales', {
      title: 'Sales basics',
      keyword: 'sales basics',
      markdown: 'Start with lead scoring.',
    });
    // A draft's render links too, but a draft is not a published article linking in.
    const draft = await insertWrittenArticle(t.db, t.clock, ws.workspaceId, { markdown: 'More on lead scoring.' });
    for (const id of [target, source, draft]) await render(ws.workspaceId, id);

    const answer = await links(ws.key, target);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      contentId: target,
      linkedFrom: 1,
      sources: [{ contentId: source, title: 'Sales basics', url: 'https://acme.example/blog/sales', anchorText: 'lead scoring', renderedAt: at }],
      linksOut: 1,
      targets: [{ url: 'https://acme.example/pricing', contentId: null, anchorText: 'pricing plans', renderedAt: at }],
    });
    expect((await links(ws.key, source)).body.data).toMatchObject({ linkedFrom: 0, sources: [], linksOut: 1, targets: [{ contentId: target }] });
  });

  it('answers zero both ways for an article never rendered', async () => {
    const ws = await t.workspace();
    const id = await insertWrittenArticle(t.db, t.clock, ws.workspaceId);
    expect((await links(ws.key, id)).body.data).toEqual({ contentId: id, linkedFrom: 0, sources: [], linksOut: 0, targets: [] });
  });

  it("answers 404 for another workspace's article, as for a missing one", async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ site: 'https://other.example' });
    const id = await insertWrittenArticle(t.db, t.clock, other.workspaceId);
    const answer = await links(ws.key, id);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe(`article ${id} not found in this workspace`);
  });
});
