import { z } from 'zod';
import { detectSitePages, MAX_DETECTED_PAGES, MAX_SITEMAPS } from '../../src/links/detect.js';
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
    "Find the pages of the workspace's site from a sitemap (or sitemap index) or a blog index page, and keep the new ones for internal links (list_site_pages). " +
    `At most ${MAX_SITEMAPS} sitemaps and ${MAX_DETECTED_PAGES} pages a scan; redirects are not followed. ` +
    'A URL that cannot be read (not found, not a sitemap or HTML page, private address, timeout) is a 400 naming url and the reason; nothing is stored.',
  annotations: { title: 'Detect site pages', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    url: webUrl(/^https$/, 'must be an absolute https URL such as https://example.com/sitemap.xml')
      .optional()
      .describe("A sitemap or blog index, https, on the workspace's site. Default: the website's /sitemap.xml."),
  }),
  output: detectedPages,
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => detectSitePages({ db: ctx.db, clock: ctx.clock, outbound: ctx.services.outbound, workspaceId: ctx.workspaceId, url: input.url }),
});
