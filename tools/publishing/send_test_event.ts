import { z } from 'zod';
import { sendTestEvent } from '../../src/domain/publishing/testEvent.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'send_test_event',
  method: 'POST',
  path: '/api/v1/destinations/test',
  scope: 'manage:org',
  cap: 10,
  description:
    'Send a `test` event with a sample article to a destination, to check that the endpoint verifies the signature and answers 2xx within 30 seconds.\n' +
    'The event is queued and sent by the job worker within seconds, signed exactly like real deliveries, once (no retries). ' +
    'It never publishes anything: the receiver should answer 200 and discard the sample. Its outcome is recorded on the destination: read lastDelivery with list_destinations.',
  annotations: { title: 'Send test event', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    destinationId: recordId().describe('The destination to test, from list_destinations.'),
  }),
  output: z.object({ destinationId: z.string(), deliveryId: z.string(), jobId: z.string(), event: z.literal('test'), queued: z.literal(true) }),
  confirm: 'none',
  handler: (ctx, input) => sendTestEvent(ctx.db, ctx.clock, ctx.workspaceId, input.destinationId),
});
