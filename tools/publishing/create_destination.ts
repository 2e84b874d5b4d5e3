import { z } from 'zod';
import { createDestination, MAX_DESTINATIONS } from '../../src/publishing/destinations.js';
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
    "Add a webhook destination: an https endpoint on the customer's side that receives each published article as a signed JSON POST. " +
    'With a siteUrl it can serve the site: the first such destination becomes active. Without one it is a feed receiving every article. ' +
    `At most ${MAX_DESTINATIONS} per workspace. ` +
    'The signingSecret is shown only in this answer: give it to the receiver now, then check with send_test_event.',
  annotations: { title: 'Create destination', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    name: z.string().trim().min(1).max(100).describe('A name people recognise, e.g. "Main blog".'),
    endpointUrl: webUrl(/^https$/, 'must be an https URL such as https://example.com/api/sightline')
      .max(MAX_URL_CHARS)
      .describe('https, reachable from the internet (no private addresses).'),
    siteUrl: httpUrl()
      .max(MAX_URL_CHARS)
      .optional()
      .describe('Where readers find the articles, e.g. https://acme.com/blog; leave out for a feed.'),
    publishAs: z
      .enum(['publish', 'draft'])
      .default('publish')
      .describe("Sent as the article's status: draft keeps it unpublished on the receiver."),
  }),
  output: z.object({ destinationId: z.string(), signingSecret: z.string().describe('whsec_…: shown only in this answer.'), destination }),
  confirm: 'none',
  handler: (ctx, input) => createDestination(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, input),
});
