import { z } from 'zod';
import { removeDestination } from '../../src/publishing/destinations.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'remove_destination',
  method: 'POST',
  path: '/api/v1/destinations/remove',
  scope: 'manage:org',
  cap: 10,
  description:
    'Remove a destination for good: it never receives another delivery and its unsent ones are cancelled; articles it received stay on that site. ' +
    'Removing the active one leaves none active: activate another (activate_destination) before publishing to the site again.',
  annotations: { title: 'Remove destination', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    destinationId: recordId().describe('From list_destinations.'),
  }),
  output: z.object({ destinationId: z.string(), removed: z.literal(true), wasActive: z.boolean(), cancelledDeliveries: z.int() }),
  confirm: 'none',
  handler: (ctx, input) => removeDestination(ctx.db, ctx.clock, ctx.workspaceId, input.destinationId),
});
