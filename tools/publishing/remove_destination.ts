import { z } from 'zod';
import { removeDestination } from '../../src/domain/publishing/destinations.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'remove_destination',
  method: 'POST',
  path: '/api/v1/destinations/remove',
  scope: 'manage:org',
  cap: 10,
  description:
    'Remove a destination: it never receives another delivery, and deliveries to it not sent yet are cancelled. Articles it already received stay on that site. ' +
    'Removing the active destination leaves none active: activate another one (activate_destination) before publishing to the site again. Cannot be undone; create a new destination instead (it gets a new signing secret).',
  annotations: { title: 'Remove destination', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    destinationId: recordId().describe('The destination to remove, from list_destinations.'),
  }),
  output: z.object({ destinationId: z.string(), removed: z.literal(true), wasActive: z.boolean(), cancelledDeliveries: z.int() }),
  confirm: 'none',
  handler: (ctx, input) => removeDestination(ctx.db, ctx.clock, ctx.workspaceId, input.destinationId),
});
