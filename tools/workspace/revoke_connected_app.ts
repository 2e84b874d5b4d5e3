import { z } from 'zod';
import { appsViewer, describeAppRevocation, revokeConnectedApp } from '../../src/workspace/connectedApps.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'revoke_connected_app',
  method: 'POST',
  path: '/api/v1/workspace/apps/revoke',
  scope: 'any',
  cap: 10,
  description:
    "Revoke an AI app's OAuth grant: its tokens stop working at once and the app must be authorized again. " +
    'Without confirm: true it is refused with a note naming the app and person. ' +
    "With manage:org any grant of the workspace, else only the caller's own user's (404 otherwise).",
  annotations: { title: 'Revoke connected app', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    grantId: z.string().min(1).max(100).describe('From list_connected_apps.'),
  }),
  output: z.object({ grantId: z.string(), revoked: z.literal(true) }),
  confirm: 'required',
  describe: (ctx, input) => describeAppRevocation(ctx.db, ctx.workspaceId, appsViewer(ctx), input.grantId),
  handler: (ctx, input) => revokeConnectedApp(ctx.db, ctx.clock, ctx.workspaceId, appsViewer(ctx), input.grantId),
});
