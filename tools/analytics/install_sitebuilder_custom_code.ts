import { z } from 'zod';
import { describeWixInstall, installWixLoader } from '../../src/analytics/builders/wixInstall.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'install_sitebuilder_custom_code',
  method: 'POST',
  path: '/api/v1/integrations/sitebuilder-b/custom-code',
  scope: 'manage:org',
  cap: 5,
  description:
    "Install the tracking loader on every page of the workspace's Wix site through the service's Wix app, once the site owner has added the app. " +
    "The site must be the workspace's website. Wix serves it at once. Re-running changes nothing.",
  annotations: { title: 'Install Wix custom code', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    instanceId: z
      .string()
      .trim()
      .regex(/^[\w-]{1,100}$/, 'must be a Wix app instance id (a UUID; letters, digits, - and _)')
      .describe("Shown on the app's page in the Wix dashboard."),
  }),
  output: z.object({
    installId: z.string(),
    instanceId: z.string(),
    siteUrl: z.string(),
    siteName: z.string().nullable(),
    status: z.enum(['installed', 'unchanged']),
    parameters: z.object({ serviceUrl: z.string(), siteId: z.string() }).describe("Values of the script's dynamic parameters."),
    message: z.string(),
  }),
  confirm: 'dry-run',
  transaction: 'none',
  describe: (ctx, input) => describeWixInstall(ctx, input.instanceId),
  handler: (ctx, input) => installWixLoader(ctx, input.instanceId),
});
