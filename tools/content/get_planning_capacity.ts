import { z } from 'zod';
import { planningCapacity } from '../../src/domain/content/capacity.js';
import { defineTool } from '../define.js';
import { capacityReport } from './outputs.js';

export default defineTool({
  operationId: 'get_planning_capacity',
  method: 'GET',
  path: '/api/v1/content/planning-capacity',
  scope: 'read:content',
  cap: 'plan',
  description:
    "How many more articles can be planned: the plan's monthly article allowance for this and next calendar month (UTC), how many are booked, and the next open slot.\n" +
    'Use it before planning. used counts every article scheduled in the month, except ones archived without being written; ' +
    'openSlots is what can still be planned there (publish days left after now, articles a day, allowance left).',
  annotations: { title: 'Get planning capacity', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: capacityReport,
  confirm: 'none',
  handler: (ctx) => planningCapacity(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
