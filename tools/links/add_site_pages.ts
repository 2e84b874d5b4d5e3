import { z } from 'zod';
import { addSitePages, MAX_SITE_PAGES } from '../../src/links/sitePages.js';
import { defineTool } from '../define.js';
import { addedPages } from './outputs.js';
import { httpUrl, textList } from '../fields.js';

export default defineTool({
  operationId: 'add_site_pages',
  method: 'POST',
  path: '/api/v1/links/pages',
  scope: 'write:content',
  cap: 10,
  description:
    "Add pages of the workspace's own site (product pages, guides, landing pages) for published articles to link to: the first mention of a page's title or keywords in an article links to it. " +
    "Every URL must be on the website's registrable domain (subdomains included), else the whole call is 400. Pages already kept are skipped (duplicates). " +
    `At most ${MAX_SITE_PAGES} pages; detect_site_pages finds them automatically.`,
  annotations: { title: 'Add site pages', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    pages: z
      .array(
        z.strictObject({
          url: httpUrl().describe("On the workspace's site."),
          title: z.string().trim().min(1).max(200).optional().describe('Also a link phrase.'),
          keywords: textList(20, 100).optional().describe('Phrases that should link to this page.'),
        }),
      )
      .min(1)
      .max(100)
      .describe('The pages to add.'),
  }),
  output: addedPages,
  confirm: 'none',
  handler: (ctx, input) => addSitePages(ctx.db, ctx.clock, ctx.workspaceId, input.pages),
});
