import { z } from 'zod';
import { rescheduleContent } from '../../src/content/reschedule.js';
import { defineTool } from '../define.js';
import { rescheduled } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'reschedule_content',
  method: 'POST',
  path: '/api/v1/content/reschedule',
  scope: 'write:content',
  cap: 20,
  description:
    'Move a planned article to another publish time; needs flexibleScheduling on in the brand profile. ' +
    "Any weekday, in the future and before the end of next month (UTC), on a day under the policy's articlesPerDay and in a month with room in the plan's allowance. " +
    'Refusals are 400 naming the rule.',
  annotations: { title: 'Reschedule content', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    contentId: recordId().describe('The planned article to move (id from list_content).'),
    scheduledAt: z.iso
      .datetime({ offset: true, error: 'must be an ISO date-time such as 2026-12-01T09:00:00Z' })
      .describe('e.g. 2026-12-01T09:00:00Z.'),
  }),
  output: rescheduled,
  confirm: 'none',
  handler: (ctx, input) => rescheduleContent(ctx.db, ctx.clock, ctx.workspaceId, input.contentId, input.scheduledAt),
});
