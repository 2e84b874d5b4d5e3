import { z } from 'zod';
import { listDestinations } from '../../src/publishing/destinations.js';
import { defineTool } from '../define.js';
import { destination } from './outputs.js';

export default defineTool({
  operationId: 'list_destinations',
  method: 'GET',
  path: '/api/v1/destinations',
  scope: 'read:content',
  cap: 10,
  description:
    'List the destinations published articles are delivered to (webhooks and CMS sites such as Ghost), oldest first (removed ones left out). ' +
    'Use it to see where publish_content sends articles and whether the last delivery worked.',
  annotations: { title: 'List destinations', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({ destinations: z.array(destination) }),
  confirm: 'none',
  handler: (ctx) => listDestinations(ctx.db, ctx.services.credentials, ctx.workspaceId),
});
