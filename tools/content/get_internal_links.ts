import { z } from 'zod';
import { internalLinksReport } from '../../src/domain/links/internalLinks.js';
import { defineTool } from '../define.js';
import { internalLinks } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'get_internal_links',
  method: 'GET',
  path: '/api/v1/content/internal-links',
  scope: 'read:content',
  cap: 60,
  description:
    "Internal links of one article, as injected when articles were last rendered for publishing: which published articles link to it, and which links it sends out " +
    '(to site pages and other published articles). An article that was never published has none yet.',
  annotations: { title: 'Get internal links', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    contentId: recordId().describe('The article (its id from list_content).'),
  }),
  output: internalLinks,
  confirm: 'none',
  handler: (ctx, input) => internalLinksReport(ctx.db, ctx.workspaceId, input.contentId),
});
