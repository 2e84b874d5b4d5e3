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
    .describe('Webhook only, and required for it: https, reachable from the internet (no private addresses).'),
  siteUrl: httpUrl()
    .max(MAX_URL_CHARS)
    .optional()
    .describe("Webhook: where readers find the articles, e.g. https://acme.com/blog; leave out for a feed. CMS kinds: the CMS site's address (required)."),
  publishAs: z
    .enum(['publish', 'draft'])
    .default('publish')
    .describe("Sent as the article's status: draft keeps it unpublished on the receiver."),
  ghost: CMS_KINDS.ghost.input.optional().describe('kind ghost only: the Admin API key of a custom integration (Ghost → Settings → Integrations).'),
  wordpress: CMS_KINDS.wordpress.input
    .optional()
    .describe('kind wordpress only: the username and an application password of an Editor or Administrator (WordPress → Users → Profile), and posts or pages.'),
  webflow: CMS_KINDS.webflow.input
    .optional()
    .describe("kind webflow only: the CMS collection and which of its fields takes each part of the article (field slugs); written through the workspace's Webflow connection."),
});

export default defineTool({
  operationId: 'create_destination',
  method: 'POST',
  path: '/api/v1/destinations',
  scope: 'manage:org',
  cap: 10,
  description:
    "Add a destination published articles go to. kind webhook (the default): an https endpoint on the customer's side that receives each article as a signed JSON POST; " +
    'with a siteUrl it can serve the site (the first such destination becomes active), without one it is a feed receiving every article. ' +
    "kind ghost: the customer's Ghost site, written to through its Admin API (siteUrl plus ghost.adminApiKey); the key is checked now, a refusal is a 400 naming the field. " +
    "kind wordpress: the customer's WordPress site (https), written to through its REST API (siteUrl plus wordpress.username and wordpress.applicationPassword of an Editor or Administrator); the account and its capabilities are checked now. " +
    "kind webflow: items of a Webflow CMS collection, through the workspace's Webflow connection (an owner connects Webflow in the dashboard); siteUrl is the site's published address, webflow.collectionId and webflow.fields map the article's parts to the collection's field slugs, checked now. " +
    `At most ${MAX_DESTINATIONS} per workspace. ` +
    'The signingSecret is shown only in this answer: give it to the receiver now, then check with send_test_event.',
  annotations: { title: 'Create destination', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input,
  output: z.object({ destinationId: z.string(), signingSecret: z.string().describe('whsec_…: shown only in this answer.'), destination }),
  confirm: 'none',
  // The check of a CMS kind calls the CMS (up to the delivery timeout): it runs before the short transaction that stores.
  transaction: 'none',
  handler: (ctx, given) => createDestination(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, given),
});
