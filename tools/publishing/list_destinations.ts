import { z } from 'zod';
import { listDestinations } from '../../src/domain/publishing/destinations.js';
import { defineTool } from '../define.js';
import { destination } from './outputs.js';

export default defineTool({
  operationId: 'list_destinations',
  method: 'GET',
  path: '/api/v1/destinations',
  scope: 'read:content',
  cap: 10,
  description:
    'List the webhook destinations published articles are delivered to, oldest first (removed ones are left out).\n' +
    'Use it to see where publish_content sends articles and whether the last delivery worked. Signing secrets are never shown here.\n' +
    "Returns { destinations: [{ destinationId, name, endpointUrl, siteUrl, publishAs, active, role, lastDelivery, createdAt }] }. role: 'site' (has a siteUrl; " +
    "the active one serves the site and its returned URLs become the articles' addresses) or 'feed' (no siteUrl; receives every article beside the active one). " +
    'lastDelivery is null before the first delivery, else { at, outcome (delivered | delivered_no_address | failed | timeout), statusCode, url, statusMessage, note }: ' +
    'statusMessage is "Delivered", "Delivered, no address", "Failed: the endpoint answered <status>", "Failed: the endpoint did not answer within 30 seconds" or "Failed: <connection error>"; ' +
    'note says why a returned URL was not taken (e.g. another site).',
  annotations: { title: 'List destinations', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({ destinations: z.array(destination) }),
  confirm: 'none',
  handler: (ctx) => listDestinations(ctx.db, ctx.workspaceId),
});
