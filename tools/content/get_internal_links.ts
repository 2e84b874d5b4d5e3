import { z } from 'zod';
import { internalLinksReport } from '../../src/links/internalLinks.js';
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
    'Internal links of one article as last rendered for publishing: the published articles linking to it, and its links out to site pages and other published articles. ' +
    'None before its first publish.',
  annotations: { title: 'Get internal links', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    contentId: recordId().describe('The article (its id from list_content).'),
  }),
  output: internalLinks,
  confirm: 'none',
  handler: (ctx, input) => internalLinksReport(ctx.db, ctx.workspaceId, input.contentId),
});
