import { z } from 'zod';
import { detectSitePages, MAX_DETECTED_PAGES, MAX_SITEMAPS } from '../../src/domain/links/detect.js';
import { defineTool } from '../define.js';
import { detectedPages } from './outputs.js';
import { webUrl } from '../fields.js';

export default defineTool({
  operationId: 'detect_site_pages',
  method: 'POST',
  path: '/api/v1/links/detect',
  scope: 'write:content',
  cap: 3,
  description:
    "Find the pages of the workspace's site by reading its sitemap or a blog index page, and keep the new ones for internal links (see list_site_pages).\n" +
    'url (optional, https, on the workspace site): a sitemap (a urlset, or a sitemap index whose sitemaps are read in turn) or an HTML page whose same-site links are taken. ' +
    "Default: https://<the workspace website's host>/sitemap.xml. " +
    `One scan reads at most ${MAX_SITEMAPS} sitemaps and takes at most ${MAX_DETECTED_PAGES} pages; redirects are not followed; private addresses are refused. ` +
    'Sitemap pages get a keyword from their last path segment (/blog/crm-for-startups: "crm for startups"); blog-index pages also get the link text as title.\n' +
    'A URL that cannot be read (not found, not a sitemap or HTML page, refused address, timeout) is a 400 naming url and the reason; nothing is stored.',
  annotations: { title: 'Detect site pages', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    url: webUrl(/^https$/, 'must be an absolute https URL such as https://example.com/sitemap.xml')
      .optional()
      .describe("The sitemap or blog index to read, https, on the workspace's site. Default: the website's /sitemap.xml."),
  }),
  output: detectedPages,
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => detectSitePages({ db: ctx.db, clock: ctx.clock, outbound: ctx.services.outbound, workspaceId: ctx.workspaceId, url: input.url }),
});
