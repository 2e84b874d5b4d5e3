import { z } from 'zod';
import { addManagedLink } from '../../src/backlinks/managed.js';
import { defineTool } from '../define.js';
import { httpUrl } from '../fields.js';
import { backlinkOutput } from './outputs.js';

export default defineTool({
  operationId: 'add_managed_backlink',
  method: 'POST',
  path: '/api/v1/backlinks/managed',
  scope: 'write:backlinks',
  cap: 30,
  description:
    'Record a link the owner placed on another site (source managed); verification then checks it and reads its real rel. The same link again answers its row.',
  annotations: { title: 'Add managed backlink', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    linkingUrl: httpUrl().max(2000).describe('The page linking to the site.'),
    targetUrl: httpUrl().max(2000).optional().describe('Page linked to (default: the website).'),
    anchorText: z.string().trim().max(300).optional().describe('Link text.'),
    dofollow: z.boolean().optional().describe('Followed link asked for (default true).'),
  }),
  output: backlinkOutput,
  confirm: 'none',
  handler: (ctx, input) => addManagedLink(ctx.db, ctx.clock, ctx.workspaceId, input),
});
