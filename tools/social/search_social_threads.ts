import { z } from 'zod';
import { queueSocialSearch } from '../../src/social/search.js';
import { SOCIAL_SOURCE_NAMES } from '../../src/social/sources/source.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'search_social_threads',
  method: 'POST',
  path: '/api/v1/social/search',
  scope: 'write:social',
  cap: 2,
  description:
    'Search the configured social sources now instead of at the daily search: queues a social_search job (or returns the one waiting or running). ' +
    'Follow it with get_job; the threads then appear in list_social_threads.',
  annotations: { title: 'Search social threads now', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({}),
  output: z.object({
    jobId: z.string(),
    queued: z.boolean().describe('false: a search was already waiting or running; its job is returned.'),
    sources: z.array(z.enum(SOCIAL_SOURCE_NAMES)).describe('The sources it searches.'),
  }),
  confirm: 'none',
  handler: (ctx) => queueSocialSearch(ctx.db, ctx.clock, ctx.services, ctx.workspaceId),
});
