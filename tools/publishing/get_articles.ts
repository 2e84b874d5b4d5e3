import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, getArticles, MAX_PAGE_SIZE } from '../../src/publishing/contentApi.js';
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
    'The headless Content API for Next.js-style and static sites: published articles only, newest first, a page at a time, or one by slug (404 when none has it). ' +
    'Each has its sanitised HTML, markdown, FAQ, JSON-LD, live URL, author and dates. ' +
    "Over REST, If-None-Match with the answer's etag gets 304 when nothing changed.",
  annotations: { title: 'Get published articles', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    slug: z.string().trim().min(1).max(200).optional().describe('One article by slug instead of a page.'),
    page: pageNumber(),
    limit: pageSize(MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, 'Articles'),
  }),
  output: articlesPage,
  confirm: 'none',
  handler: (ctx, input) => getArticles(ctx.db, ctx.workspaceId, input),
});
