import { z } from 'zod';
import { listThreads, THREAD_STATUSES } from '../../src/social/threads.js';
import { SOCIAL_SOURCE_NAMES } from '../../src/social/sources/source.js';
import { defineTool } from '../define.js';
import { pageFields, pageNumber, pageSize } from '../fields.js';
import { socialThread } from './outputs.js';

export default defineTool({
  operationId: 'list_social_threads',
  method: 'GET',
  path: '/api/v1/social',
  scope: 'read:content',
  cap: 30,
  description:
    'Public threads (Hacker News, Stack Exchange, Bluesky, Reddit) where the tracked queries, brand or competitors come up, found by the daily search, each with its relevance, freshness, status and reply draft.',
  annotations: { title: 'List social threads', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    status: z.enum(THREAD_STATUSES).optional().describe('Only threads with this status (closed: the source locked, deleted or archived it).'),
    source: z.enum(SOCIAL_SOURCE_NAMES).optional().describe('Only threads from this source.'),
    minRelevance: z.number().int().min(0).max(100).optional().describe('Only threads at least this relevant.'),
    sort: z.enum(['best', 'newest']).default('best').describe('best: relevance weighed by freshness; newest: by posting time.'),
    page: pageNumber(),
    limit: pageSize(100, 25, 'Threads'),
  }),
  output: z.object({ ...pageFields, threads: z.array(socialThread) }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => listThreads(ctx.db, ctx.clock.now(), ctx.workspaceId, input),
});
