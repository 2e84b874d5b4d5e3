import { z } from 'zod';
import { BACKLINK_STATUSES, decodeCursor, DEFAULT_BACKLINKS_PAGE, listBacklinks, MAX_BACKLINKS_PAGE } from '../../src/backlinks/listing.js';
import { defineTool } from '../define.js';
import { pageSize } from '../fields.js';
import { backlinkOutput } from './outputs.js';

export default defineTool({
  operationId: 'list_backlinks',
  method: 'GET',
  path: '/api/v1/backlinks',
  scope: 'read:content',
  cap: 60,
  description:
    'Links to the site, newest first: linking page and domain, target page, anchor, dofollow, domain authority with the name of its metric, status and its dates, and source (index: the backlink index; outreach; managed; network).\n' +
    'Filter by status; page with nextCursor (null on the last page). Outreach prospects before a link is placed are in list_outreach_prospects.',
  annotations: { title: 'List backlinks', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    status: z.enum(BACKLINK_STATUSES).optional().describe(`Only rows in this status: ${BACKLINK_STATUSES.join(', ')}. Default: all.`),
    limit: pageSize(MAX_BACKLINKS_PAGE, DEFAULT_BACKLINKS_PAGE, 'Rows'),
    cursor: z
      .string()
      .trim()
      .refine((value) => decodeCursor(value) !== undefined, 'must be a nextCursor from an earlier answer')
      .optional()
      .describe("The previous page's nextCursor."),
  }),
  output: z.object({
    total: z.int().describe('Rows matching the filter.'),
    backlinks: z.array(backlinkOutput),
    nextCursor: z.string().nullable(),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => listBacklinks(ctx.db, ctx.workspaceId, { status: input.status, limit: input.limit, cursor: input.cursor === undefined ? undefined : decodeCursor(input.cursor) }),
});
