import { z } from 'zod';
import { appsViewer, listConnectedApps } from '../../src/workspace/connectedApps.js';
import { defineTool } from '../define.js';
import { connectedApp } from './outputs.js';

export default defineTool({
  operationId: 'list_connected_apps',
  method: 'GET',
  path: '/api/v1/workspace/apps',
  scope: 'any',
  cap: 'plan',
  description:
    "List the AI apps connected to this workspace by OAuth: each grant's app, the person who authorized it, scopes and last use. " +
    "With manage:org every grant of the workspace, else only the caller's own user's. Use it to find the grantId revoke_connected_app takes.",
  annotations: { title: 'List connected apps', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: z.object({ apps: z.array(connectedApp) }),
  confirm: 'none',
  handler: (ctx) => listConnectedApps(ctx.db, ctx.workspaceId, appsViewer(ctx)),
});
