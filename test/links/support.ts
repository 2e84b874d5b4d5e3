import type { Kysely, Updateable } from 'kysely';
import type { ArticlesTable, Database } from '../../db/schema.js';
import type { Clock } from '../../src/clock.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';

/** A written article straight in the database (the writer's job is tested elsewhere), with any field overridden. */
export async function insertWrittenArticle(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  fields: Updateable<ArticlesTable> = {},
): Promise<string> {
  const keyword = fields.keyword ?? 'crm for startups';
  const title = fields.title ?? 'How to choose a CRM for startups';
  const id = await insertPlannedArticle(db, clock, { workspaceId, keyword, title, scheduledAt: clock.now() + 86_400_000, language: 'en' });
  await db
    .updateTable('articles')
    .set({
      status: 'draft',
      markdown: 'A CRM keeps every customer conversation in one place.\n\n## Why it matters\n\nIt saves time.',
      meta_title: 'Choosing a CRM for startups',
      meta_description: 'What to look for in a CRM when your startup outgrows spreadsheets.',
      word_count: 1500,
      written_at: clock.now(),
      ...fields,
    })
    .where('id', '=', id)
    .execute();
  return id;
}

/** The same article as published at `url`. */
export function insertPublishedArticle(db: Kysely<Database>, clock: Clock, workspaceId: string, url: string, fields: Updateable<ArticlesTable> = {}) {
  return insertWrittenArticle(db, clock, workspaceId, { status: 'published', url, published_at: clock.now(), ...fields });
}

export interface SitePage {
  status?: number;
  type?: string;
  body: string;
  headers?: Record<string, string>;
}

/** A local https site (the test certificate for localhost and 127.0.0.1) serving fixed pages by path; 404 elsewhere. */
export async function startSite(pages: Record<string, SitePage>): Promise<{ origin: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const { server, port } = await startHttpsServer((req, res) => {
    requests.push(req.url ?? '');
    const page = pages[req.url ?? ''];
    if (page === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(page.status ?? 200, { 'content-type': page.type ?? 'application/xml', ...page.headers }).end(page.body);
  });
  // A site some tests leave running to the end (contract fixtures) must not keep the test process alive.
  server.unref();
  return {
    origin: `https://localhost:${port}`,
    requests,
    close: () => closeServer(server),
  };
}

export function urlset(urls: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((url) => `<url><loc>${url}</loc></url>`).join('')}</urlset>`;
}

export function sitemapIndex(urls: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((url) => `<sitemap><loc>${url}</loc></sitemap>`).join('')}</sitemapindex>`;
}
