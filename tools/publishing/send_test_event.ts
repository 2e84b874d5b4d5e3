import { z } from 'zod';
import { sendTestEvent } from '../../src/publishing/testEvent.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'send_test_event',
  method: 'POST',
  path: '/api/v1/destinations/test',
  scope: 'manage:org',
  cap: 10,
  description:
    'Send a signed `test` event with a sample article to a destination, once, to check that the endpoint verifies the signature and answers 2xx within 30 seconds; ' +
    "for a CMS kind (ghost) it checks the site, key and version instead. It publishes nothing. The outcome shows as lastDelivery in list_destinations.",
  annotations: { title: 'Send test event', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    destinationId: recordId().describe('From list_destinations.'),
  }),
  output: z.object({ destinationId: z.string(), deliveryId: z.string(), jobId: z.string(), event: z.literal('test'), queued: z.literal(true) }),
  confirm: 'none',
  handler: (ctx, input) => sendTestEvent(ctx.db, ctx.clock, ctx.workspaceId, input.destinationId),
});
