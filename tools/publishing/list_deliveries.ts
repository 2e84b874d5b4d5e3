import { z } from 'zod';
import { DELIVERY_OUTCOMES, listDeliveries } from '../../src/publishing/deliveries.js';
import { defineTool } from '../define.js';
import { pageFields, pageNumber, pageSize, recordId } from '../fields.js';
import { delivery } from './outputs.js';

export default defineTool({
  operationId: 'list_deliveries',
  method: 'GET',
  path: '/api/v1/deliveries',
  scope: 'read:content',
  cap: 10,
  description:
    'The delivery log: articles and test events sent to destinations, newest first, each with its state, attempts, outcome, HTTP status and error. ' +
    'Use it to find which deliveries failed and why; filter by destinationId or outcome.',
  annotations: { title: 'List deliveries', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    destinationId: recordId().optional().describe('Only deliveries to this destination.'),
    outcome: z.enum(DELIVERY_OUTCOMES).optional().describe('Only deliveries with this outcome.'),
    page: pageNumber(),
    limit: pageSize(100, 25, 'Deliveries'),
  }),
  output: z.object({
    ...pageFields,
    deliveries: z.array(delivery),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => listDeliveries(ctx.db, ctx.workspaceId, input),
});
