import { z } from 'zod';
import { listCdnZones } from '../../src/analytics/cdn/sync.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'list_cdn_zones',
  method: 'GET',
  path: '/api/v1/integrations/cdn/zones',
  scope: 'manage:org',
  cap: 10,
  description: "Cloudflare zones the workspace's grant can read, the selected one marked. Needs a connection (get_cdn_connect_url or a token pasted in the dashboard).",
  annotations: { title: 'List CDN zones', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({}),
  output: z.object({
    zones: z.array(
      z.object({ id: z.string(), name: z.string(), plan: z.string().nullable(), status: z.string().describe('Only active zones carry traffic; unknown when Cloudflare did not say.'), selected: z.boolean() }),
    ),
    selectedZoneId: z.string().nullable(),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx) => listCdnZones(ctx.db, ctx.clock, ctx.services, ctx.workspaceId),
});
