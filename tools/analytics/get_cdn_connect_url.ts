import { z } from 'zod';
import { beginCdnAuthorization } from '../../src/analytics/cdn/connection.js';
import { toIso } from '../../src/shared/time.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

export default defineTool({
  operationId: 'get_cdn_connect_url',
  method: 'POST',
  path: '/api/v1/integrations/cdn/connect-url',
  scope: 'manage:org',
  cap: 10,
  description:
    'Cloudflare authorization URL for the workspace owner to open: connects the CDN as the AI-crawler data source (read-only zone analytics). ' +
    'One-time, expires in 15 minutes. Then list_cdn_zones and select_cdn_zone.',
  annotations: { title: 'Get CDN connect URL', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({
    url: z.string().describe('Open in a browser signed in to Cloudflare.'),
    expiresAt: isoTime(),
    redirectUri: z.string(),
    scopes: z.array(z.string()),
  }),
  confirm: 'none',
  handler: async (ctx) => {
    const started = await beginCdnAuthorization(ctx.db, ctx.clock, ctx.services.cdn, ctx.services.credentials, ctx.publicUrl, ctx.workspaceId);
    return { url: started.url, expiresAt: toIso(started.expiresAt), redirectUri: started.redirectUri, scopes: started.scopes };
  },
});
