import { z } from 'zod';
import { startDeviceAuthorization } from '../../src/oauth/device.js';
import { definePublicOperation } from '../define.js';

export default definePublicOperation({
  operationId: 'post_auth_device_start',
  method: 'POST',
  path: '/api/v1/auth/device/start',
  cap: 10,
  description:
    'Start a device login (RFC 8628) for the command-line client; no key needed. Show the person verification_uri and user_code ' +
    '(or open verification_uri_complete); they sign in there, pick a workspace and approve. Then poll post_auth_device_poll with ' +
    'device_code every `interval` seconds.',
  annotations: { title: 'Start device login', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    client_id: z.string().min(1).max(100).optional().describe('Name of the client asking, shown on the approval page (default sightline-cli).'),
    scope: z.string().max(500).optional().describe('Space-separated scopes to ask for; empty offers every scope on the approval page.'),
  }),
  output: z.object({
    device_code: z.string(),
    user_code: z.string(),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.int().describe('Seconds until device_code expires.'),
    interval: z.int().describe('Seconds to wait between polls.'),
  }),
  handler: (ctx, input) => startDeviceAuthorization(ctx.db, ctx.clock, ctx.publicUrl, { ...(input.client_id ? { clientId: input.client_id } : {}), ...(input.scope !== undefined ? { scope: input.scope } : {}) }),
});
