import { z } from 'zod';
import { CMS_KINDS, DESTINATION_KINDS } from '../../src/publishing/cms/kinds.js';
import { createDestination, MAX_DESTINATIONS } from '../../src/publishing/destinations.js';
import { defineTool } from '../define.js';
import { destination } from './outputs.js';
import { httpUrl, webUrl } from '../fields.js';

const MAX_URL_CHARS = 2048;

const input = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('A name people recognise, e.g. "Main blog".'),
  kind: z.enum(DESTINATION_KINDS).default('webhook').describe('webhook (default), or the CMS the articles are written to.'),
  endpointUrl: webUrl(/^https$/, 'must be an https URL such as https://example.com/api/sightline')
    .max(MAX_URL_CHARS)
    .optional()
    .describe('Webhook only (required): https, public address.'),
  siteUrl: httpUrl()
    .max(MAX_URL_CHARS)
    .optional()
    .describe("Webhook: where readers find the articles (https://acme.com/blog), none for a feed. CMS kinds: the site's address (required)."),
  publishAs: z
    .enum(['publish', 'draft'])
    .default('publish')
    .describe("Sent as the article's status: draft keeps it unpublished on the receiver."),
  ghost: CMS_KINDS.ghost.input.optional().describe('kind ghost only.'),
  wordpress: CMS_KINDS.wordpress.input
    .optional()
    .describe('kind wordpress only.'),
  webflow: CMS_KINDS.webflow.input
    .optional()
    .describe('kind webflow only.'),
});

export default defineTool({
  operationId: 'create_destination',
  method: 'POST',
  path: '/api/v1/destinations',
  scope: 'manage:org',
  cap: 10,
  description:
    'Add a destination published articles go to. webhook (default): an https endpoint receiving each article as a signed JSON POST; ' +
    'with siteUrl it can serve the site (the first becomes active), without it is a feed. ' +
    'ghost (siteUrl, ghost.adminApiKey), wordpress (https siteUrl, wordpress.username and applicationPassword of an Editor or Administrator), ' +
    "webflow (a CMS collection through the workspace's Webflow connection; siteUrl, webflow.collectionId and webflow.fields): credentials and fields are checked now, a refusal is a 400 naming the field. " +
    `At most ${MAX_DESTINATIONS} per workspace. The signingSecret is shown only in this answer; then check with send_test_event.`,
  annotations: { title: 'Create destination', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input,
  output: z.object({ destinationId: z.string(), signingSecret: z.string().describe('whsec_…: shown only in this answer.'), destination }),
  confirm: 'none',
  // The check of a CMS kind calls the CMS (up to the delivery timeout): it runs before the short transaction that stores.
  transaction: 'none',
  handler: (ctx, given) => createDestination(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, given),
});
