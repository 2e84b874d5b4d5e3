import { z } from 'zod';
import { activateDestination } from '../../src/publishing/destinations.js';
import { defineTool } from '../define.js';
import { destination } from './outputs.js';
import { recordId } from '../fields.js';

export default defineTool({
  operationId: 'activate_destination',
  method: 'POST',
  path: '/api/v1/destinations/activate',
  scope: 'manage:org',
  cap: 10,
  description:
    "Make a destination the one that serves the site: later publishes go to it (and every feed), and the URLs it returns become the articles' addresses. " +
    'The previously active one stays, inactive. Only a destination with a siteUrl (400 for a feed). Activating the active one changes nothing.',
  annotations: { title: 'Activate destination', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    destinationId: recordId().describe('From list_destinations.'),
  }),
  output: z.object({ destination }),
  confirm: 'none',
  handler: (ctx, input) => activateDestination(ctx.db, ctx.services.credentials, ctx.workspaceId, input.destinationId),
});
