import { z } from 'zod';
import { listSitePages, MAX_SITE_PAGES } from '../../src/domain/links/sitePages.js';
import { defineTool } from '../define.js';
import { sitePages } from './outputs.js';

export default defineTool({
  operationId: 'list_site_pages',
  method: 'GET',
  path: '/api/v1/links/pages',
  scope: 'read:content',
  cap: 'plan',
  description:
    "List the pages of the workspace's own site that articles link to. When an article is published, the first mention of a page's keywords or title " +
    'in its prose becomes a link to the page (at most 5 internal links per article). Pages come from add_site_pages (source manual) or detect_site_pages ' +
    `(source sitemap or blog). The workspace keeps at most ${MAX_SITE_PAGES}.`,
  annotations: { title: 'List site pages', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: sitePages,
  confirm: 'none',
  handler: (ctx) => listSitePages(ctx.db, ctx.workspaceId),
});
