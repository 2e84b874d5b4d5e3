import { z } from 'zod';
import { describeWebflowInstall, installWebflowLoader } from '../../src/analytics/builders/webflowInstall.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

export default defineTool({
  operationId: 'install_sitebuilder_embed',
  method: 'POST',
  path: '/api/v1/integrations/sitebuilder-a/install-embed',
  scope: 'manage:org',
  cap: 5,
  description:
    "Install the tracking loader site-wide on the workspace's Webflow site (connected by an owner in the dashboard), then publish the site. " +
    'The dry run lists the changes; confirming publishes the site, which also ships every other staged edit. Re-running once live changes nothing. ' +
    'When Webflow refuses the publish (one a minute) the answer is awaiting_publish with retryPublishAt: run it again then.',
  annotations: { title: 'Install Webflow embed', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    siteId: z
      .string()
      .trim()
      .regex(/^[\w-]{1,100}$/, 'must be a Webflow site id (letters, digits, - and _; at most 100)')
      .optional()
      .describe('Needed only when the connection has several sites.'),
  }),
  output: z.object({
    installId: z.string(),
    siteId: z.string(),
    siteName: z.string(),
    status: z.enum(['installed', 'unchanged', 'awaiting_publish']),
    scriptId: z.string(),
    scriptVersion: z.string(),
    registered: z.boolean().describe('This version was registered now.'),
    applied: z.boolean().describe("The site's script list was changed now."),
    published: z.boolean(),
    publishedAt: isoTime().nullable(),
    retryPublishAt: isoTime().nullable().describe('awaiting_publish: when to run it again.'),
    message: z.string(),
  }),
  confirm: 'dry-run',
  transaction: 'none',
  describe: (ctx, input) => describeWebflowInstall(ctx, input.siteId),
  handler: (ctx, input) => installWebflowLoader(ctx, input.siteId),
});
