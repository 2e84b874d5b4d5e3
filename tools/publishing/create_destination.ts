import { z } from 'zod';
import { createDestination, MAX_DESTINATIONS } from '../../src/domain/publishing/destinations.js';
import { defineTool } from '../define.js';
import { destination } from './outputs.js';
import { httpUrl, webUrl } from '../fields.js';

const MAX_URL_CHARS = 2048;

export default defineTool({
  operationId: 'create_destination',
  method: 'POST',
  path: '/api/v1/destinations',
  scope: 'manage:org',
  cap: 10,
  description:
    "Add a webhook destination: an https endpoint on the customer's side that receives each published article as a signed JSON POST.\n" +
    'With a siteUrl (where readers find the articles) it can serve the site: the first such destination becomes active, and the URLs it returns become the articles\' addresses. ' +
    `Without one it is a feed that receives every article beside the active destination. At most ${MAX_DESTINATIONS} destinations per workspace.\n` +
    'The answer holds signingSecret, shown only this once: give it to the receiver now. Check the endpoint with send_test_event.',
  annotations: { title: 'Create destination', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    name: z.string().trim().min(1).max(100).describe('A name people recognise, e.g. "Main blog".'),
    endpointUrl: webUrl(/^https$/, 'must be an https URL such as https://example.com/api/sightline')
      .max(MAX_URL_CHARS)
      .describe(`The receiver's endpoint; https only, at most ${MAX_URL_CHARS} characters. Must be reachable from the internet (no private addresses).`),
    siteUrl: httpUrl()
      .max(MAX_URL_CHARS)
      .optional()
      .describe('The site address where readers find the articles, e.g. https://acme.com/blog. Leave out to make this destination a feed.'),
    publishAs: z
      .enum(['publish', 'draft'])
      .default('publish')
      .describe("Sent as the article's status: publish (default) to go live, or draft for the receiver to keep it unpublished."),
  }),
  output: z.object({ destinationId: z.string(), signingSecret: z.string().describe('whsec_…: shown only in this answer.'), destination }),
  confirm: 'none',
  handler: (ctx, input) => createDestination(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, input),
});
