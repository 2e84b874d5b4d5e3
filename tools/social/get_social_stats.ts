import { z } from 'zod';
import { socialStats } from '../../src/social/stats.js';
import { THREAD_STATUSES } from '../../src/social/threads.js';
import { SOCIAL_SOURCE_NAMES } from '../../src/social/sources/source.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

export default defineTool({
  operationId: 'get_social_stats',
  method: 'GET',
  path: '/api/v1/social/stats',
  scope: 'read:content',
  cap: 60,
  description:
    'The social thread pipeline: threads per status and source, whether each source is configured (and what the operator sets when not), any pause a source asked for, and the last search.',
  annotations: { title: 'Social thread stats', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    total: z.int(),
    byStatus: z.object(Object.fromEntries(THREAD_STATUSES.map((status) => [status, z.int()])) as Record<(typeof THREAD_STATUSES)[number], z.ZodInt>),
    bySource: z.array(
      z.object({
        source: z.enum(SOCIAL_SOURCE_NAMES),
        configured: z.boolean(),
        toConfigure: z.string().nullable().describe('What the operator sets to search it; null when configured.'),
        threads: z.int(),
        pausedUntil: isoTime().nullable().describe('The source asked to be left alone until then (a quota, a backoff).'),
      }),
    ),
    lastSearch: z
      .object({ jobId: z.string(), state: z.enum(['queued', 'running', 'done', 'failed']), queuedAt: isoTime(), finishedAt: isoTime().nullable(), error: z.string().nullable() })
      .nullable(),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => socialStats(ctx.db, ctx.services, ctx.workspaceId),
});
