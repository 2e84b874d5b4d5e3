import { z } from 'zod';
import { listSitePages } from '../../src/links/sitePages.js';
import { defineTool } from '../define.js';
import { sitePages } from './outputs.js';

export default defineTool({
  operationId: 'list_site_pages',
  method: 'GET',
  path: '/api/v1/links/pages',
  scope: 'read:content',
  cap: 'plan',
  description:
    "List the pages of the workspace's own site that articles link to: when an article is published, the first mention of a page's keywords or title becomes a link (at most 5 internal links an article). " +
    'Pages come from add_site_pages or detect_site_pages.',
  annotations: { title: 'List site pages', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: sitePages,
  confirm: 'none',
  handler: (ctx) => listSitePages(ctx.db, ctx.workspaceId),
});
