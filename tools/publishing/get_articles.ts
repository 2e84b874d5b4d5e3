import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, getArticles, MAX_PAGE_SIZE } from '../../src/domain/publishing/contentApi.js';
import { defineTool } from '../define.js';
import { pageNumber, pageSize } from '../fields.js';
import { articlesPage } from './outputs.js';

export default defineTool({
  operationId: 'get_articles',
  method: 'GET',
  path: '/api/v1/articles',
  scope: 'read:content',
  cap: 30,
  description:
    'The headless Content API for Next.js-style and static sites: published articles (never drafts, planned or archived ones), newest publish first, a page at a time, or one by slug.\n' +
    'Without slug: { articles, page, limit, total, nextPage (null on the last page), etag }. With slug: { article, etag }, 404 when no published article has that slug.\n' +
    'Each article: { id, slug, title, metaTitle, metaDescription, html (sanitised body as rendered at its last publish, internal links included), markdown, faq [{ question, answer }], ' +
    'schemaJsonLd (JSON text for a script of type application/ld+json in the page head), url and canonicalUrl (its live address, null until a destination returned one), language, author { name, bio?, linkedinUrl? } or null, categoryName, keywords, publishedAt, updatedAt }.\n' +
    'etag changes exactly when the answer does; over REST it is also the ETag header, and a request with If-None-Match: <etag> is answered 304 with no body when nothing changed.',
  annotations: { title: 'Get published articles', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    slug: z.string().trim().min(1).max(200).optional().describe('Get the one published article with this slug instead of a page.'),
    page: pageNumber(),
    limit: pageSize(MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, 'Articles'),
  }),
  output: articlesPage,
  confirm: 'none',
  handler: (ctx, input) => getArticles(ctx.db, ctx.workspaceId, input),
});
