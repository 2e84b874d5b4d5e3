import { z } from 'zod';
import { updateWorkspaceSettings } from '../../src/workspace/settings.js';
import { isTimeZone } from '../../src/workspace/settings.js';
import { defineTool } from '../define.js';

export default defineTool({
  operationId: 'update_workspace_settings',
  method: 'POST',
  path: '/api/v1/workspace',
  scope: 'manage:org',
  cap: 10,
  description:
    "Change the workspace's time zone, in which the dashboard shows times and counts days. An unknown IANA name is refused (400). " +
    'The API keeps answering in UTC.',
  annotations: { title: 'Update workspace settings', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    timeZone: z.string().min(1).max(64).refine(isTimeZone, 'must be an IANA time zone name such as Europe/Berlin').describe('IANA time zone name, e.g. Europe/Berlin.').meta({ examples: ['Europe/Berlin'] }),
  }),
  output: z.object({ name: z.string(), websiteUrl: z.string(), timeZone: z.string() }),
  confirm: 'none',
  handler: (ctx, input) => updateWorkspaceSettings(ctx.db, ctx.workspaceId, input),
});
