import { z } from 'zod';
import { planningCapacity } from '../../src/content/capacity.js';
import { defineTool } from '../define.js';
import { capacityReport } from './outputs.js';

export default defineTool({
  operationId: 'get_planning_capacity',
  method: 'GET',
  path: '/api/v1/content/planning-capacity',
  scope: 'read:content',
  cap: 'plan',
  description:
    "How many more articles can be planned this and next calendar month (UTC): the plan's monthly allowance, articles booked, open slots and the next open slot. " +
    'Use it before planning.',
  annotations: { title: 'Get planning capacity', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: capacityReport,
  confirm: 'none',
  handler: (ctx) => planningCapacity(ctx.db, ctx.workspaceId, ctx.clock.now()),
});
