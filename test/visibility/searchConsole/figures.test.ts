import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPlannedArticle } from '../../../src/content/articles.js';
import { searchConsoleFigures } from '../../../src/visibility/searchConsole/figures.js';
import { TestService, type TestWorkspace } from '../../support/harness.js';
import { consoleRow } from './rows.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start({ writer: false });
});
afterAll(() => t.close());

type SeedRow = [query: string, page: string, clicks: number, impressions: number, position: number];

/** The rows of the current period, and the same pages with other figures in the period before, which must not count. */
async function seedRows(ws: TestWorkspace, rows: SeedRow[]) {
  await t.db
    .insertInto('search_console_rows')
    .values(
      rows.flatMap(([query, page, clicks, impressions, position]) => [
        consoleRow(ws.workspaceId, 'current', { query, page, clicks, impressions, position }),
        consoleRow(ws.workspaceId, 'previous', { query, page, clicks: clicks * 3, impressions: impressions * 3, position: position + 1 }),
      ]),
    )
    .execute();
}

async function articleWith(ws: TestWorkspace, title: string, status: 'planned' | 'draft' | 'published' | 'archived', url: string | null) {
  const id = await insertPlannedArticle(t.db, t.clock, { workspaceId: ws.workspaceId, keyword: title.toLowerCase(), title, scheduledAt: t.clock.now() + 86_400_000, language: 'en' });
  await t.db.updateTable('articles').set({ status, url }).where('id', '=', id).execute();
  return id;
}

describe('Search Console figures per page', () => {
  it('sums clicks and impressions over the queries of a page and weights its average position by impressions', async () => {
    const ws = await t.workspace();
    await seedRows(ws, [
      ['crm', 'https://acme.example/blog/a', 10, 100, 2],
      ['best crm', 'https://acme.example/blog/a', 5, 300, 6],
      ['crm pricing', 'https://acme.example/blog/b/', 1, 10, 12.34],
      ['crm setup', 'https://www.acme.example/blog/c', 2, 20, 4],
    ]);
    const pages = await searchConsoleFigures(t.db, ws.workspaceId);
    expect(pages.forPage('https://acme.example/blog/a')).toEqual({ clicks: 15, impressions: 400, position: 5 });
    // Served with or without the trailing slash, and linked with a fragment, it is the same page.
    expect(pages.forPage('https://acme.example/blog/b#pricing')).toEqual({ clicks: 1, impressions: 10, position: 12.3 });
    // Search Console's www. spelling of the article's address is the same page too.
    expect(pages.forPage('https://acme.example/blog/c')).toEqual({ clicks: 2, impressions: 20, position: 4 });
    expect(pages.forPage('https://acme.example/blog/d')).toBeNull();
    const other = await t.workspace();
    expect((await searchConsoleFigures(t.db, other.workspaceId)).forPage('https://acme.example/blog/a')).toBeNull();
  });

  it('fill google in list_content for published articles only, the same on REST and MCP', async () => {
    const ws = await t.workspace();
    await seedRows(ws, [
      ['crm', 'https://acme.example/blog/a/', 10, 100, 2],
      ['crm', 'https://acme.example/blog/gone', 7, 70, 3],
    ]);
    const published = await articleWith(ws, 'Published', 'published', 'https://acme.example/blog/a');
    const unseen = await articleWith(ws, 'Unseen', 'published', 'https://acme.example/blog/new');
    const archived = await articleWith(ws, 'Archived', 'archived', 'https://acme.example/blog/gone');
    const planned = await articleWith(ws, 'Planned', 'planned', null);
    const answer = await t.rest(ws.key, 'GET', '/api/v1/content');
    expect(answer.status).toBe(200);
    const data = answer.body.data as { articles: Array<{ id: string; google: unknown }> };
    expect(Object.fromEntries(data.articles.map((a) => [a.id, a.google]))).toEqual({
      [published]: { clicks: 10, impressions: 100, position: 2 },
      [unseen]: null,
      [archived]: null,
      [planned]: null,
    });
    expect((await t.mcpTool(ws.key, 'list_content')).structuredContent).toEqual(data);
  });
});
