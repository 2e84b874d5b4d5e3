import { z } from 'zod';
import { SETTABLE_STATUSES, setThreadStatus } from '../../src/social/status.js';
import { defineTool } from '../define.js';
import { httpUrl, recordId } from '../fields.js';
import { socialThread } from './outputs.js';

export default defineTool({
  operationId: 'set_social_thread_status',
  method: 'POST',
  path: '/api/v1/social/status',
  scope: 'write:social',
  cap: 30,
  description:
    'Move a social thread: new → drafted, replied or dismissed; drafted → new, replied or dismissed; replied or dismissed → new or drafted; ' +
    'closed → dismissed. drafted needs a reply draft. Mark replied once a person posted the reply: the service never posts.',
  annotations: { title: 'Move a social thread', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    threadId: recordId().describe('The thread (list_social_threads).'),
    status: z.enum(SETTABLE_STATUSES).describe('The new status.'),
    replyUrl: httpUrl().optional().describe('Where the reply was posted; only with status replied.'),
  }),
  output: socialThread,
  confirm: 'none',
  handler: (ctx, input) => setThreadStatus(ctx.db, ctx.clock, ctx.workspaceId, input.threadId, input.status, input.replyUrl),
});
