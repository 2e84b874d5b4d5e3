import { z } from 'zod';
import { addSitePages, MAX_SITE_PAGES } from '../../src/domain/links/sitePages.js';
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
    "Add pages of the workspace's own site (product pages, guides, landing pages) for published articles to link to. " +
    "Every URL must be on the workspace's site: the same registrable domain as its website, subdomains included; otherwise the whole call is refused (400). " +
    'The fragment (#...) is dropped. A page already kept, or named twice, is skipped and listed in duplicates. ' +
    'keywords and title are the phrases that become links: the first mention in an article links to the page. ' +
    `The workspace keeps at most ${MAX_SITE_PAGES} pages. To find pages automatically, use detect_site_pages.`,
  annotations: { title: 'Add site pages', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    pages: z
      .array(
        z.strictObject({
          url: httpUrl().describe("Absolute http(s) URL of the page, on the workspace's site."),
          title: z.string().trim().min(1).max(200).optional().describe('The page title; also matched as a link phrase.'),
          keywords: textList(20, 100).optional().describe('Phrases that should link to this page.'),
        }),
      )
      .min(1)
      .max(100)
      .describe('1 to 100 pages to add.'),
  }),
  output: addedPages,
  confirm: 'none',
  handler: (ctx, input) => addSitePages(ctx.db, ctx.clock, ctx.workspaceId, input.pages),
});
