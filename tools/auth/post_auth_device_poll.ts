import { z } from 'zod';
import { pollDeviceAuthorization } from '../../src/oauth/device.js';
import { definePublicOperation } from '../define.js';

export default definePublicOperation({
  operationId: 'post_auth_device_poll',
  method: 'POST',
  path: '/api/v1/auth/device/poll',
  cap: 'none',
  description:
    'Poll a device login started with post_auth_device_start; no key needed. Until the person decides, answers 400 with error ' +
    'authorization_pending (keep polling every interval seconds) or slow_down (add 5 seconds). Once approved, answers once with ' +
    '{ access_token, token_type, scope, key_id, workspace_id }: access_token is an API key for that user and workspace. Later polls ' +
    'answer invalid_grant; a denied login access_denied; an expired one expired_token.',
  annotations: { title: 'Poll device login', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    device_code: z.string().min(1).max(200).describe('The device_code post_auth_device_start returned.'),
  }),
  output: z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    scope: z.string().describe('Granted scopes, space-separated.'),
    key_id: z.string(),
    workspace_id: z.string(),
  }),
  handler: (ctx, input) => pollDeviceAuthorization(ctx.db, ctx.clock, input.device_code),
});
